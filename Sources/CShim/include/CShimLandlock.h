#ifndef CSHIM_LANDLOCK_H
#define CSHIM_LANDLOCK_H
#include <stdint.h>

/// The Landlock ABI version the running kernel offers (landlock_create_ruleset(NULL, 0,
/// LANDLOCK_CREATE_RULESET_VERSION)): 1 or more, or -1 with errno (ENOSYS: a kernel built without
/// Landlock; EOPNOTSUPP: built with it but not enabled at boot).
int cshim_landlock_abi(void);

/// landlock_create_ruleset with the access rights the ruleset handles (what it denies unless a rule
/// allows it): file-system rights, TCP rights (ABI 4) and scopes (ABI 6); a field the running ABI
/// lacks must be 0. Returns the ruleset's descriptor (close-on-exec) or -1 with errno.
int cshim_landlock_create_ruleset(uint64_t handled_fs, uint64_t handled_net, uint64_t scoped);

/// landlock_add_rule(LANDLOCK_RULE_PATH_BENEATH): allows `allowed` beneath the file or directory
/// `parent` (a descriptor, O_PATH will do). Returns 0 or -1 with errno.
int cshim_landlock_allow_beneath(int ruleset, int parent, uint64_t allowed);

/// landlock_restrict_self: enforces the ruleset on the calling thread (and what it starts), for
/// good; needs PR_SET_NO_NEW_PRIVS first. Returns 0 or -1 with errno.
int cshim_landlock_restrict_self(int ruleset);

/// open(path, O_PATH | O_CLOEXEC), following links: a descriptor that names a file for a rule
/// without opening it for reading. Returns it or -1 with errno.
int cshim_open_path(const char *path);
#endif
