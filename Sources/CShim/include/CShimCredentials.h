#ifndef CSHIM_CREDENTIALS_H
#define CSHIM_CREDENTIALS_H

#include <sys/types.h>

/// The supplementary groups of the peer of a connected Unix socket (SO_PEERGROUPS), at most
/// `capacity`; `*count` is set to how many the peer has (which may exceed `capacity`).
/// Returns 0 or -1 with errno.
int cshim_peer_groups(int fd, gid_t *groups, int capacity, int *count);

/// Opens the absolute `path` read-only (O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, no
/// symbolic link followed in any component) with another user's credentials: in a thread of its
/// own that takes `uid` and `gid` as its file-system ids and `groups` as its supplementary groups
/// (the raw system calls, which change the calling thread only), so that the kernel makes every
/// access decision — mode bits, ACLs, every directory on the path — as it would for that user.
/// The thread ends after the open; the rest of the process keeps its own credentials.
/// Returns the descriptor, or -1 with `*error` set (errno of the open, or of a credential change).
/// With `follow_links` non-zero, symbolic links are followed as the user's own open would.
int cshim_open_as(const char *path, uid_t uid, gid_t gid, const gid_t *groups, int ngroups, int follow_links,
                  int *error);

/// What `cshim_check_many_as` learnt of one path.
struct cshim_file_check {
    /// 0 when the open succeeded, else its errno (or a credential change's).
    int error;
    /// With `check_even`: 1 when no component (the file and every directory the kernel reached it
    /// through, links followed) treats its owner or group more narrowly than everyone else (the
    /// other bits grant search on each directory and read on the file, the owner and group bits
    /// grant them too) and none carries an access ACL; else 0. Always 0 without `check_even`.
    int even;
    /// The opened file's device and inode (fstat), to prove it is the file that was indexed.
    unsigned long long device;
    unsigned long long inode;
};

/// Opens each of `count` absolute paths read-only with another user's credentials, as
/// `cshim_open_as` with `follow_links` (links followed as that user's own open would follow
/// them), all in one thread that takes the credentials once, and closes each again: a check of
/// what the kernel lets that user read, not a way to read it. With `check_even` non-zero, also
/// examines (as that user) the file and every directory of its real path for narrower owner or
/// group bits and access ACLs (see `even`). Fills `results[0..<count]`; returns 0, or -1 with
/// `*error` when the thread could not be started.
int cshim_check_many_as(const char *const *paths, int count, uid_t uid, gid_t gid, const gid_t *groups, int ngroups,
                        int check_even, struct cshim_file_check *results, int *error);

#endif
