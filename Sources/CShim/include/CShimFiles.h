#ifndef CSHIM_FILES_H
#define CSHIM_FILES_H
#include <stddef.h>
#include <stdint.h>

/// RESOLVE_* flags of openat2(2), as plain integers.
extern const uint64_t cshim_RESOLVE_BENEATH;
extern const uint64_t cshim_RESOLVE_NO_SYMLINKS;
extern const uint64_t cshim_RESOLVE_NO_MAGICLINKS;
extern const uint64_t cshim_RESOLVE_NO_XDEV;

/// openat2(dirfd, path, {flags, 0, resolve}) through syscall(SYS_openat2): the fd, or -1 with errno
/// (ENOSYS when the kernel predates 5.6).
int cshim_openat2(int dirfd, const char *path, int flags, uint64_t resolve);

/// lgetxattr(path, "system.posix_acl_access", buffer, size): the ACL's size in bytes, or -1 with
/// errno (ENODATA or ENOTSUP when the path has no access ACL, ERANGE when `size` is too small).
long cshim_access_acl(const char *path, void *buffer, size_t size);

/// inotify_add_watch with the mask fontregd needs, never following a symbolic link
/// (IN_DONT_FOLLOW) and only on a directory (IN_ONLYDIR).
int cshim_inotify_add_directory_nofollow(int fd, const char *path);
/// Whether the mask says the kernel's event queue overflowed (IN_Q_OVERFLOW): events were lost.
int cshim_inotify_is_overflow(uint32_t mask);

/// Maps `length` bytes of `fd` read-only and registers the range so that a SIGBUS inside it
/// (the file was truncated under the mapping) is absorbed: the missing pages read as zeros
/// and the mapping is marked damaged. Returns the address or NULL with errno
/// (EBUSY when every guard slot is taken).
void *cshim_map_guarded(int fd, size_t length);
/// Whether a SIGBUS was absorbed in the mapping at `address` since it was made.
int cshim_map_was_damaged(void *address);
/// Unregisters and unmaps a mapping made by cshim_map_guarded.
void cshim_unmap_guarded(void *address, size_t length);

#endif
