#ifndef CSHIM_H
#define CSHIM_H
#include <sys/types.h>

/// Peer credentials of a connected Unix socket (SO_PEERCRED). Returns 0 or -1 with errno.
int cshim_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

#endif
