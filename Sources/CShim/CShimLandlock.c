#define _GNU_SOURCE
#include "CShimLandlock.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

// The kernel's structures, spelled out here: Debian 12's linux/landlock.h stops at ABI 3.
struct cshim_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct cshim_landlock_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

int cshim_landlock_abi(void) { return (int)syscall(SYS_landlock_create_ruleset, NULL, 0, 1U); }

int cshim_landlock_create_ruleset(uint64_t handled_fs, uint64_t handled_net, uint64_t scoped) {
    struct cshim_landlock_ruleset_attr attr = {handled_fs, handled_net, scoped};
    // An older kernel takes the shorter structure it knows (the rest must be zero anyway).
    size_t size = scoped ? 24 : handled_net ? 16 : 8;
    return (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0U);
}

int cshim_landlock_allow_beneath(int ruleset, int parent, uint64_t allowed) {
    struct cshim_landlock_path_beneath_attr attr = {allowed, parent};
    return (int)syscall(SYS_landlock_add_rule, ruleset, 1 /* LANDLOCK_RULE_PATH_BENEATH */, &attr, 0U);
}

int cshim_landlock_restrict_self(int ruleset) { return (int)syscall(SYS_landlock_restrict_self, ruleset, 0U); }

int cshim_open_path(const char *path) { return open(path, O_PATH | O_CLOEXEC); }
