#define _GNU_SOURCE
#include "CShimFiles.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

const uint64_t cshim_RESOLVE_BENEATH = RESOLVE_BENEATH;
const uint64_t cshim_RESOLVE_NO_SYMLINKS = RESOLVE_NO_SYMLINKS;
const uint64_t cshim_RESOLVE_NO_MAGICLINKS = RESOLVE_NO_MAGICLINKS;
const uint64_t cshim_RESOLVE_NO_XDEV = RESOLVE_NO_XDEV;

long cshim_access_acl(const char *path, void *buffer, size_t size) {
    return (long)lgetxattr(path, "system.posix_acl_access", buffer, size);
}

int cshim_openat2(int dirfd, const char *path, int flags, uint64_t resolve) {
#ifdef SYS_openat2
    struct open_how how;
    memset(&how, 0, sizeof(how));
    how.flags = (uint64_t)(unsigned int)flags;
    how.resolve = resolve;
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
#else
    (void)dirfd; (void)path; (void)flags; (void)resolve;
    errno = ENOSYS;
    return -1;
#endif
}

int cshim_inotify_add_directory_nofollow(int fd, const char *path) {
    return inotify_add_watch(fd, path,
        IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE |
        IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW);
}

int cshim_inotify_is_overflow(uint32_t mask) { return (mask & IN_Q_OVERFLOW) != 0; }

// Guarded mappings: a font file mapped for FreeType can be truncated by its owner while it is
// read, and touching a page past the new end raises SIGBUS, which would kill the daemon. The
// handler below replaces such a page with a zero page (mmap MAP_FIXED is a plain system call,
// safe in a handler) and marks the mapping damaged; the scanner then reports the file as
// changed while read. A SIGBUS anywhere else keeps its default action.
#define GUARD_SLOTS 64
static _Atomic(uintptr_t) guard_start[GUARD_SLOTS];
static _Atomic(uintptr_t) guard_end[GUARD_SLOTS];
static _Atomic(int) guard_damaged[GUARD_SLOTS];
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;
static struct sigaction previous_bus;

static void guard_handler(int signal, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int i = 0; i < GUARD_SLOTS; i++) {
        uintptr_t start = atomic_load(&guard_start[i]);
        if (start != 0 && address >= start && address < atomic_load(&guard_end[i])) {
            long page = sysconf(_SC_PAGESIZE);
            void *base = (void *)(address & ~((uintptr_t)page - 1));
            if (mmap(base, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
                atomic_store(&guard_damaged[i], 1);
                return;
            }
        }
    }
    if (previous_bus.sa_flags & SA_SIGINFO) {
        if (previous_bus.sa_sigaction) { previous_bus.sa_sigaction(signal, info, context); return; }
    } else if (previous_bus.sa_handler != SIG_DFL && previous_bus.sa_handler != SIG_IGN) {
        previous_bus.sa_handler(signal);
        return;
    }
    // Default action: restore it and return; the faulting access repeats and terminates the process.
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = SIG_DFL;
    sigaction(SIGBUS, &action, NULL);
}

static void install_guard(void) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = guard_handler;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous_bus);
}

void *cshim_map_guarded(int fd, size_t length) {
    pthread_once(&guard_once, install_guard);
    void *address = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fd, 0);
    if (address == MAP_FAILED) return NULL;
    for (int i = 0; i < GUARD_SLOTS; i++) {
        uintptr_t expected = 0;
        // Claim the slot by its start; the end is set before any access to the mapping can fault.
        if (atomic_compare_exchange_strong(&guard_start[i], &expected, (uintptr_t)1)) {
            atomic_store(&guard_damaged[i], 0);
            atomic_store(&guard_end[i], (uintptr_t)address + length);
            atomic_store(&guard_start[i], (uintptr_t)address);
            return address;
        }
    }
    munmap(address, length);
    errno = EBUSY;
    return NULL;
}

static int guard_slot(void *address) {
    for (int i = 0; i < GUARD_SLOTS; i++) {
        if (atomic_load(&guard_start[i]) == (uintptr_t)address) return i;
    }
    return -1;
}

int cshim_map_was_damaged(void *address) {
    int slot = guard_slot(address);
    return slot >= 0 ? atomic_load(&guard_damaged[slot]) : 0;
}

void cshim_unmap_guarded(void *address, size_t length) {
    // The slot is released before the range is unmapped, so that no other mapping made at the
    // same address can be mistaken for this one.
    int slot = guard_slot(address);
    if (slot >= 0) {
        atomic_store(&guard_end[slot], 0);
        atomic_store(&guard_start[slot], 0);
    }
    munmap(address, length);
}
