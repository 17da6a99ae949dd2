#ifndef CSHIM_H
#define CSHIM_H
#include <sys/types.h>
#include <stdint.h>
#include <signal.h>
#include "CShimFiles.h"
#include "CShimProcess.h"
#include "CShimThread.h"
#include "CShimCredentials.h"
#include "CShimLandlock.h"

/// Peer credentials of a connected Unix socket (SO_PEERCRED). Returns 0 or -1 with errno.
int cshim_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

/// Event bits of epoll, as plain integers (the C macros are not imported by Swift).
extern const uint32_t cshim_EPOLLIN;
extern const uint32_t cshim_EPOLLOUT;
extern const uint32_t cshim_EPOLLERR;
extern const uint32_t cshim_EPOLLHUP;
extern const uint32_t cshim_EPOLLRDHUP;
extern const uint32_t cshim_EPOLLEXCLUSIVE;

/// One ready event: the events mask and the 64-bit user datum given at registration.
typedef struct cshim_epoll_event {
    uint32_t events;
    uint64_t data;
} cshim_epoll_event;

/// epoll_create1(EPOLL_CLOEXEC). Returns the fd or -1 with errno.
int cshim_epoll_create(void);
/// epoll_ctl(EPOLL_CTL_ADD). Returns 0 or -1 with errno.
int cshim_epoll_add(int epfd, int fd, uint32_t events, uint64_t data);
/// epoll_ctl(EPOLL_CTL_MOD). Returns 0 or -1 with errno.
int cshim_epoll_modify(int epfd, int fd, uint32_t events, uint64_t data);
/// epoll_ctl(EPOLL_CTL_DEL). Returns 0 or -1 with errno.
int cshim_epoll_remove(int epfd, int fd);
/// epoll_wait into an array of `cshim_epoll_event`. Returns the count or -1 with errno.
int cshim_epoll_wait(int epfd, cshim_epoll_event *events, int max, int timeout_ms);

/// malloc_trim(0): gives free heap memory back to the kernel. Returns 1 when some was released.
int cshim_malloc_trim(void);

/// mallopt(M_ARENA_MAX, arenas): caps the number of glibc malloc arenas. Returns 1 on success.
int cshim_limit_arenas(int arenas);

/// accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC).
int cshim_accept(int fd);

/// eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC).
int cshim_eventfd(void);

/// inotify_init1(IN_NONBLOCK | IN_CLOEXEC).
int cshim_inotify_init(void);
/// inotify_add_watch with the mask fontregd needs to see font files come and go.
int cshim_inotify_add_directory(int fd, const char *path);
/// Walks an inotify read buffer: returns the byte length of the event at `offset`,
/// and sets `wd`, `mask` and `name` (empty when the event has none).
int cshim_inotify_event_at(const char *buffer, int offset, int *wd, uint32_t *mask, const char **name);
/// Whether the mask says the watched directory itself went away or overflowed.
int cshim_inotify_is_directory_gone(uint32_t mask);
/// Whether the mask names a subdirectory created or moved in.
int cshim_inotify_is_new_directory(uint32_t mask);

/// Blocks SIGHUP, SIGTERM, SIGINT in the calling thread (and threads it starts later)
/// and ignores SIGPIPE. Returns 0 or -1 with errno.
int cshim_block_daemon_signals(void);
/// A blocking signalfd for SIGHUP, SIGTERM and SIGINT. Returns the fd or -1 with errno.
int cshim_signalfd(void);
/// Reads one signal number from a signalfd. Returns the signal number or -1 with errno.
int cshim_signalfd_read(int fd);

/// CLOCK_MONOTONIC in microseconds, as systemd's MONOTONIC_USEC wants it.
uint64_t cshim_monotonic_usec(void);

/// socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC [| SOCK_NONBLOCK]). Returns the fd or -1 with errno.
int cshim_unix_stream_socket(int nonblocking);
/// Binds a Unix stream socket to `path`; returns 0 or -1 with errno (ENAMETOOLONG when too long).
int cshim_bind_unix(int fd, const char *path);
/// Connects a Unix stream socket to `path`; returns 0 or -1 with errno.
int cshim_connect_unix(int fd, const char *path);
/// Binds a Unix datagram socket and sends `message` to `path` (for tests of NOTIFY_SOCKET readers).
int cshim_sendto_unix(int fd, const char *path, const void *message, size_t length);
/// Sends `message` from a Unix datagram socket to a service manager's notify address, as
/// sd_notify(3) reads `NOTIFY_SOCKET`: a path ("/run/systemd/notify") or, after '@', an abstract
/// name. Returns the bytes sent or -1 with errno (EINVAL for any other address).
int cshim_sendto_notify(int fd, const char *address, const void *message, size_t length);
/// Whether `fd` is a listening Unix stream socket (as sd_is_socket_unix(fd, SOCK_STREAM, 1, NULL, 0)):
/// 1 when it is, 0 when it is not, -1 with errno when it cannot be examined.
int cshim_is_listening_unix_stream(int fd);

#endif
