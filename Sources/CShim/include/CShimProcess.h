#ifndef CSHIM_PROCESS_H
#define CSHIM_PROCESS_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC): message boundaries kept, descriptors passable.
/// Returns 0 and fills `fds`, or -1 with errno.
int cshim_seqpacket_pair(int fds[2]);

/// sendmsg(MSG_NOSIGNAL) of `length` bytes with `count` descriptors as SCM_RIGHTS ancillary data
/// (none when `count` is 0). Returns the bytes sent or -1 with errno.
ssize_t cshim_send_with_fds(int socket, const void *bytes, size_t length, const int *fds, int count);

/// recvmsg(MSG_CMSG_CLOEXEC) of one message into `buffer`, with up to `max_fds` descriptors
/// received into `fds` (`*fd_count` set; extra descriptors beyond `max_fds` are closed).
/// Returns the bytes received (0 at end of stream) or -1 with errno; `*truncated` is set when
/// the message or its descriptors did not fit.
ssize_t cshim_recv_with_fds(int socket, void *buffer, size_t length, int *fds, int max_fds, int *fd_count,
                            int *truncated);

/// poll(2) for readability of one descriptor: 1 readable (or hung up), 0 timed out, -1 with errno.
int cshim_poll_readable(int fd, int timeout_ms);

/// Waits up to `timeout_ms` for any of `count` descriptors to become readable or hang up; sets
/// `ready[i]` to 1 for each that did. Returns how many are ready, 0 on timeout, -1 with errno.
int cshim_poll_any(const int *fds, int *ready, int count, int timeout_ms);

/// fork + execv of `path` with `argv` (NULL-terminated), the descriptor `child_fd` as the child's
/// descriptor 3 and every descriptor above it closed (close_range), whether close-on-exec or not, an empty signal
/// mask, default signal dispositions and SIGKILL as the parent-death signal (no orphaned worker).
/// Returns the child's pid or -1 with errno.
pid_t cshim_spawn_with_fd(const char *path, char *const argv[], int child_fd);

/// cshim_spawn_with_fd with an environment of its own: execve of `path` with `argv` and `envp` (both
/// NULL-terminated); `child_fd` -1 hands no descriptor over, so every descriptor from 3 up is closed
/// and the child has only its standard input, output and error.
pid_t cshim_spawn(const char *path, char *const argv[], char *const envp[], int child_fd);

/// waitpid(pid, WNOHANG when `block` is 0): 1 and `*status` decoded when the child is gone,
/// 0 when it still runs, -1 with errno.
int cshim_wait_child(pid_t pid, int block, int *exited, int *code, int *signal);

/// prctl(PR_SET_NO_NEW_PRIVS, 1): no execve may ever gain privileges. Returns 0 or -1 with errno.
int cshim_no_new_privileges(void);
/// setrlimit(resource, {value, value}) for RLIMIT_AS (0), RLIMIT_CPU (1), RLIMIT_NOFILE (2),
/// RLIMIT_FSIZE (3), RLIMIT_CORE (4). Returns 0 or -1 with errno.
int cshim_set_limit(int which, uint64_t value);
/// setgroups(0, NULL), setgid(gid), setuid(uid), in that order. Returns 0 or -1 with errno.
int cshim_drop_to(uid_t uid, gid_t gid);

#endif

/// The CPU time (user and system) a child process has used so far, in microseconds; -1 when it
/// cannot be read (the process is gone). Uses the process's CPU clock (`clock_getcpuclockid`).
long long cshim_process_cpu_microseconds(pid_t pid);

/// Blocks the calling thread for ever without using CPU time (a `futex` wait that nothing wakes):
/// the parse worker's test fault for a parser stuck in a blocking call.
__attribute__((noreturn)) void cshim_block_forever(void);
