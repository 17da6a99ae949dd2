#define _GNU_SOURCE
#include "CShimProcess.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int cshim_seqpacket_pair(int fds[2]) { return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds); }

ssize_t cshim_send_with_fds(int socket, const void *bytes, size_t length, const int *fds, int count) {
    struct iovec iov = {.iov_base = (void *)bytes, .iov_len = length};
    struct msghdr message = {.msg_iov = &iov, .msg_iovlen = 1};
    char control[CMSG_SPACE(sizeof(int) * 253)];
    if (count > 253) { errno = EINVAL; return -1; }
    if (count > 0) {
        memset(control, 0, sizeof(control));
        message.msg_control = control;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * count);
        memcpy(CMSG_DATA(header), fds, sizeof(int) * count);
    }
    return sendmsg(socket, &message, MSG_NOSIGNAL);
}

ssize_t cshim_recv_with_fds(int socket, void *buffer, size_t length, int *fds, int max_fds, int *fd_count,
                            int *truncated) {
    struct iovec iov = {.iov_base = buffer, .iov_len = length};
    char control[CMSG_SPACE(sizeof(int) * 253)];
    struct msghdr message = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
                             .msg_controllen = sizeof(control)};
    *fd_count = 0;
    *truncated = 0;
    ssize_t received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    if (received < 0) return -1;
    if (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) *truncated = 1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        int n = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int *passed = (int *)CMSG_DATA(header);
        for (int i = 0; i < n; i++) {
            if (*fd_count < max_fds) {
                fds[(*fd_count)++] = passed[i];
            } else {
                close(passed[i]);
                *truncated = 1;
            }
        }
    }
    return received;
}

int cshim_poll_readable(int fd, int timeout_ms) {
    struct pollfd entry = {.fd = fd, .events = POLLIN};
    int result = poll(&entry, 1, timeout_ms);
    return result;
}

int cshim_poll_any(const int *fds, int *ready, int count, int timeout_ms) {
    struct pollfd entries[64];
    if (count > 64) { errno = EINVAL; return -1; }
    for (int i = 0; i < count; i++) {
        entries[i].fd = fds[i];
        entries[i].events = POLLIN;
        entries[i].revents = 0;
    }
    int result = poll(entries, (nfds_t)count, timeout_ms);
    for (int i = 0; i < count; i++) ready[i] = result > 0 && entries[i].revents != 0;
    return result;
}

pid_t cshim_spawn_with_fd(const char *path, char *const argv[], int child_fd) {
    return cshim_spawn(path, argv, environ, child_fd);
}

pid_t cshim_spawn(const char *path, char *const argv[], char *const envp[], int child_fd) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0) return pid;
    // The child: only async-signal-safe calls until execve.
    sigset_t none;
    sigemptyset(&none);
    for (int sig = 1; sig < NSIG; sig++) signal(sig, SIG_DFL);
    sigprocmask(SIG_SETMASK, &none, NULL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    unsigned int first_closed = 3;
    if (child_fd == 3) {
        int flags = fcntl(3, F_GETFD);
        if (flags < 0 || fcntl(3, F_SETFD, flags & ~FD_CLOEXEC) < 0) _exit(127);
        first_closed = 4;
    } else if (child_fd >= 0) {
        if (dup2(child_fd, 3) < 0) _exit(127);
        first_closed = 4;
    }
    // Nothing else of the parent's crosses: a descriptor opened without O_CLOEXEC (a pipe of a
    // library, a test's file) would hold a slot of the worker's small RLIMIT_NOFILE, so that the
    // descriptors the daemon passes could not be installed, and would reach a sandboxed parser;
    // the daemon's listening and notify sockets must never reach its index builder.
    if (syscall(SYS_close_range, first_closed, ~0U, 0) != 0) {
        for (int fd = (int)first_closed; fd < 65536; fd++) close(fd);
    }
    execve(path, argv, envp);
    _exit(127);
}

int cshim_wait_child(pid_t pid, int block, int *exited, int *code, int *signal) {
    int status = 0;
    pid_t result;
    do {
        result = waitpid(pid, &status, block ? 0 : WNOHANG);
    } while (result < 0 && errno == EINTR);
    if (result < 0) return -1;
    if (result == 0) return 0;
    *exited = WIFEXITED(status);
    *code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    *signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return 1;
}

int cshim_no_new_privileges(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); }

int cshim_set_limit(int which, uint64_t value) {
    int resources[] = {RLIMIT_AS, RLIMIT_CPU, RLIMIT_NOFILE, RLIMIT_FSIZE, RLIMIT_CORE};
    if (which < 0 || which > 4) { errno = EINVAL; return -1; }
    struct rlimit limit = {.rlim_cur = value, .rlim_max = value};
    return setrlimit(resources[which], &limit);
}

int cshim_drop_to(uid_t uid, gid_t gid) {
    if (setgroups(0, NULL) != 0) return -1;
    if (setgid(gid) != 0) return -1;
    if (setuid(uid) != 0) return -1;
    return 0;
}

long long cshim_process_cpu_microseconds(pid_t pid) {
    clockid_t clock;
    struct timespec spent;
    if (clock_getcpuclockid(pid, &clock) != 0) return -1;
    if (clock_gettime(clock, &spent) != 0) return -1;
    return (long long)spent.tv_sec * 1000000LL + spent.tv_nsec / 1000;
}

void cshim_block_forever(void) {
    static int never = 0;
    for (;;) syscall(SYS_futex, &never, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}
