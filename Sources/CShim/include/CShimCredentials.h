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

#endif
