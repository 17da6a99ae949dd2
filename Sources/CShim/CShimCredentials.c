#define _GNU_SOURCE
#include "CShimCredentials.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int cshim_peer_groups(int fd, gid_t *groups, int capacity, int *count) {
    socklen_t length = (socklen_t)(capacity * sizeof(gid_t));
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &length) != 0) {
        if (errno == ERANGE) *count = (int)(length / sizeof(gid_t));
        return -1;
    }
    *count = (int)(length / sizeof(gid_t));
    return 0;
}

struct open_as_request {
    const char *path;
    uid_t uid;
    gid_t gid;
    const gid_t *groups;
    int ngroups;
    int follow_links;
    int fd;
    int error;
};

static void *open_as_thread(void *argument) {
    struct open_as_request *request = argument;
    request->fd = -1;
    // setgroups and setfsgid/setfsuid as raw system calls change this thread's credentials only
    // (glibc's wrappers of setgroups would change every thread's). The file-system uid going
    // from 0 to the user's drops the file capabilities (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH)
    // from this thread's effective set, so the kernel decides as it would for the user.
    if (syscall(SYS_setgroups, (size_t)request->ngroups, request->groups) != 0) {
        request->error = errno;
        return NULL;
    }
    syscall(SYS_setfsgid, request->gid);
    syscall(SYS_setfsuid, request->uid);
    if ((uid_t)syscall(SYS_setfsuid, (uid_t)-1) != request->uid ||
        (gid_t)syscall(SYS_setfsgid, (gid_t)-1) != request->gid) {
        request->error = EPERM;
        return NULL;
    }
    struct open_how how;
    memset(&how, 0, sizeof(how));
    how.flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
    how.resolve = request->follow_links ? RESOLVE_NO_MAGICLINKS : (RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
    long fd = syscall(SYS_openat2, AT_FDCWD, request->path, &how, sizeof(how));
    if (fd < 0) {
        request->error = errno;
    } else {
        request->fd = (int)fd;
        request->error = 0;
    }
    return NULL;
}

int cshim_open_as(const char *path, uid_t uid, gid_t gid, const gid_t *groups, int ngroups, int follow_links,
                  int *error) {
    struct open_as_request request = {.path = path, .uid = uid, .gid = gid, .groups = groups, .ngroups = ngroups,
                                      .follow_links = follow_links, .fd = -1, .error = 0};
    pthread_t thread;
    int created = pthread_create(&thread, NULL, open_as_thread, &request);
    if (created != 0) {
        *error = created;
        return -1;
    }
    pthread_join(thread, NULL);
    *error = request.error;
    return request.fd;
}
