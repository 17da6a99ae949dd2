#define _GNU_SOURCE
#include "CShimCredentials.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
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

struct check_many_request {
    const char *const *paths;
    int count;
    uid_t uid;
    gid_t gid;
    const gid_t *groups;
    int ngroups;
    int check_even;
    struct cshim_file_check *results;
};

static int mode_is_even(mode_t mode, mode_t bit);

/// Whether one component grants everyone `bit` (04 read, 01 search) and its owner and group as
/// much, with no access ACL (which could name users or groups it treats otherwise).
static int component_is_even(const char *path, mode_t bit) {
    struct stat status;
    if (lstat(path, &status) != 0) return 0;
    mode_t mode = status.st_mode;
    if (!mode_is_even(mode, bit)) return 0;
    ssize_t acl = lgetxattr(path, "system.posix_acl_access", NULL, 0);
    if (acl >= 0) return 0;
    return errno == ENODATA || errno == ENOTSUP;
}

/// Whether a mode grants everyone `bit` (04 read, 01 search) and its owner and group as much.
static int mode_is_even(mode_t mode, mode_t bit) {
    return (mode & bit) && (mode & (bit << 3)) && (mode & (bit << 6));
}

/// Whether the open file `fd` (whose mode is `mode`) is even: read by everyone as by its owner
/// and group, with no access ACL. Asked of the descriptor, so the path is not resolved again.
static int file_is_even(int fd, mode_t mode) {
    if (!mode_is_even(mode, S_IROTH)) return 0;
    ssize_t acl = fgetxattr(fd, "system.posix_acl_access", NULL, 0);
    if (acl >= 0) return 0;
    return errno == ENODATA || errno == ENOTSUP;
}

/// The directory last found even or not, so that the files of one directory cost one check of it.
struct even_cache {
    char directory[4096];
    int even;
};

/// Whether the open file `fd` (mode `mode`) and every directory above it on its real path are even.
static int path_is_even(int fd, mode_t mode, struct even_cache *cache) {
    char link[64];
    char real[4096];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, real, sizeof(real) - 1);
    if (length <= 0 || real[0] != '/') return 0;
    real[length] = 0;
    if (!file_is_even(fd, mode)) return 0;
    ssize_t slash = length - 1;
    while (slash > 0 && real[slash] != '/') slash--;
    real[slash > 0 ? slash : 1] = 0;
    if (cache->directory[0] && strcmp(cache->directory, real) == 0) return cache->even;
    // Every directory from the file's own up to "/", each cut at its last slash.
    char walk[4096];
    size_t n = strlen(real);
    memcpy(walk, real, n + 1);
    int even = 1;
    while (even) {
        even = component_is_even(walk, S_IXOTH);
        if (n <= 1) break;
        while (n > 1 && walk[n - 1] != '/') n--;
        if (n > 1) n--;
        walk[n] = 0;
    }
    memcpy(cache->directory, real, strlen(real) + 1);
    cache->even = even;
    return even;
}

static void *check_many_thread(void *argument) {
    struct check_many_request *request = argument;
    int failed = 0;
    struct even_cache cache = {.directory = {0}, .even = 0};
    if (syscall(SYS_setgroups, (size_t)request->ngroups, request->groups) != 0) failed = errno;
    if (!failed) {
        syscall(SYS_setfsgid, request->gid);
        syscall(SYS_setfsuid, request->uid);
        if ((uid_t)syscall(SYS_setfsuid, (uid_t)-1) != request->uid ||
            (gid_t)syscall(SYS_setfsgid, (gid_t)-1) != request->gid)
            failed = EPERM;
    }
    for (int i = 0; i < request->count; i++) {
        struct cshim_file_check *result = &request->results[i];
        memset(result, 0, sizeof(*result));
        if (failed) {
            result->error = failed;
            continue;
        }
        struct open_how how;
        memset(&how, 0, sizeof(how));
        how.flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
        how.resolve = RESOLVE_NO_MAGICLINKS;
        long fd = syscall(SYS_openat2, AT_FDCWD, request->paths[i], &how, sizeof(how));
        if (fd < 0) {
            result->error = errno;
            continue;
        }
        struct stat status;
        if (fstat((int)fd, &status) != 0) {
            result->error = errno;
        } else {
            result->device = (unsigned long long)status.st_dev;
            result->inode = (unsigned long long)status.st_ino;
            result->even = request->check_even ? path_is_even((int)fd, status.st_mode, &cache) : 0;
        }
        close((int)fd);
    }
    return NULL;
}

int cshim_check_many_as(const char *const *paths, int count, uid_t uid, gid_t gid, const gid_t *groups, int ngroups,
                        int check_even, struct cshim_file_check *results, int *error) {
    struct check_many_request request = {.paths = paths, .count = count, .uid = uid, .gid = gid, .groups = groups,
                                         .ngroups = ngroups, .check_even = check_even, .results = results};
    pthread_t thread;
    int created = pthread_create(&thread, NULL, check_many_thread, &request);
    if (created != 0) {
        *error = created;
        return -1;
    }
    pthread_join(thread, NULL);
    *error = 0;
    return 0;
}
