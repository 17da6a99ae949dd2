#define _GNU_SOURCE
#include <malloc.h>
#include "CShim.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <stddef.h>
#include <unistd.h>

int cshim_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid) {
    struct ucred cred;
    socklen_t len = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    *pid = cred.pid; *uid = cred.uid; *gid = cred.gid;
    return 0;
}

const uint32_t cshim_EPOLLIN = EPOLLIN;
const uint32_t cshim_EPOLLOUT = EPOLLOUT;
const uint32_t cshim_EPOLLERR = EPOLLERR;
const uint32_t cshim_EPOLLHUP = EPOLLHUP;
const uint32_t cshim_EPOLLRDHUP = EPOLLRDHUP;
const uint32_t cshim_EPOLLEXCLUSIVE = EPOLLEXCLUSIVE;

int cshim_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static int ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

int cshim_epoll_add(int epfd, int fd, uint32_t events, uint64_t data) { return ctl(epfd, EPOLL_CTL_ADD, fd, events, data); }
int cshim_epoll_modify(int epfd, int fd, uint32_t events, uint64_t data) { return ctl(epfd, EPOLL_CTL_MOD, fd, events, data); }
int cshim_epoll_remove(int epfd, int fd) { return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL); }

int cshim_epoll_wait(int epfd, cshim_epoll_event *events, int max, int timeout_ms) {
    struct epoll_event raw[256];
    if (max > 256) max = 256;
    int n = epoll_wait(epfd, raw, max, timeout_ms);
    for (int i = 0; i < n; i++) {
        events[i].events = raw[i].events;
        events[i].data = raw[i].data.u64;
    }
    return n;
}

int cshim_malloc_trim(void) { return malloc_trim(0); }

int cshim_limit_arenas(int arenas) { return mallopt(M_ARENA_MAX, arenas); }

int cshim_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int cshim_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int cshim_inotify_init(void) { return inotify_init1(IN_NONBLOCK | IN_CLOEXEC); }

int cshim_inotify_add_directory(int fd, const char *path) {
    return inotify_add_watch(fd, path,
        IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE |
        IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR);
}

int cshim_inotify_event_at(const char *buffer, int offset, int *wd, uint32_t *mask, const char **name) {
    const struct inotify_event *event = (const struct inotify_event *)(buffer + offset);
    *wd = event->wd;
    *mask = event->mask;
    *name = event->len > 0 ? event->name : "";
    return (int)(sizeof(struct inotify_event) + event->len);
}

int cshim_inotify_is_directory_gone(uint32_t mask) {
    return (mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_Q_OVERFLOW)) != 0;
}

int cshim_inotify_is_new_directory(uint32_t mask) {
    return (mask & IN_ISDIR) && (mask & (IN_CREATE | IN_MOVED_TO));
}

static void daemon_signal_set(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGHUP);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGINT);
}

int cshim_block_daemon_signals(void) {
    sigset_t set;
    daemon_signal_set(&set);
    signal(SIGPIPE, SIG_IGN);
    return pthread_sigmask(SIG_BLOCK, &set, NULL) == 0 ? 0 : -1;
}

int cshim_signalfd(void) {
    sigset_t set;
    daemon_signal_set(&set);
    return signalfd(-1, &set, SFD_CLOEXEC);
}

int cshim_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof(info));
    if (n != (ssize_t)sizeof(info)) return -1;
    return (int)info.ssi_signo;
}

uint64_t cshim_monotonic_usec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static int fill_address(struct sockaddr_un *address, const char *path) {
    memset(address, 0, sizeof(*address));
    address->sun_family = AF_UNIX;
    size_t length = strlen(path);
    if (length == 0 || length >= sizeof(address->sun_path)) { errno = ENAMETOOLONG; return -1; }
    memcpy(address->sun_path, path, length);
    return 0;
}

int cshim_unix_stream_socket(int nonblocking) {
    return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
}

int cshim_bind_unix(int fd, const char *path) {
    struct sockaddr_un address;
    if (fill_address(&address, path) != 0) return -1;
    return bind(fd, (struct sockaddr *)&address, sizeof(address));
}

int cshim_connect_unix(int fd, const char *path) {
    struct sockaddr_un address;
    if (fill_address(&address, path) != 0) return -1;
    return connect(fd, (struct sockaddr *)&address, sizeof(address));
}

int cshim_sendto_unix(int fd, const char *path, const void *message, size_t length) {
    struct sockaddr_un address;
    if (fill_address(&address, path) != 0) return -1;
    return (int)sendto(fd, message, length, MSG_NOSIGNAL, (struct sockaddr *)&address, sizeof(address));
}

int cshim_sendto_notify(int fd, const char *address, const void *message, size_t length) {
    struct sockaddr_un target;
    memset(&target, 0, sizeof(target));
    target.sun_family = AF_UNIX;
    size_t size = strlen(address);
    if (size < 2 || (address[0] != '/' && address[0] != '@')) { errno = EINVAL; return -1; }
    if (size >= sizeof(target.sun_path)) { errno = ENAMETOOLONG; return -1; }
    memcpy(target.sun_path, address, size);
    socklen_t addressLength = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + size);
    if (address[0] == '@') {
        target.sun_path[0] = 0;  // abstract: the name's bytes, no terminating NUL counted
    } else {
        addressLength += 1;
    }
    return (int)sendto(fd, message, length, MSG_NOSIGNAL, (struct sockaddr *)&target, addressLength);
}

int cshim_is_listening_unix_stream(int fd) {
    struct stat status;
    if (fstat(fd, &status) < 0) return -1;
    if (!S_ISSOCK(status.st_mode)) return 0;
    int value = 0;
    socklen_t length = sizeof(value);
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &value, &length) < 0) return -1;
    if (value != SOCK_STREAM) return 0;
    value = 0;
    length = sizeof(value);
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) < 0) return -1;
    if (!value) return 0;
    struct sockaddr_storage name;
    length = sizeof(name);
    if (getsockname(fd, (struct sockaddr *)&name, &length) < 0) return -1;
    return name.ss_family == AF_UNIX ? 1 : 0;
}
