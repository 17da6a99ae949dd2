#!/usr/bin/env python3
"""A real inotify queue overflow (issue 17): subdirectories created while events are lost get
watched, and their fonts registered, without a manual Rescan.

Needs root: /proc/sys/fs/inotify/max_queued_events is lowered (to --queue, default 16) while the
daemon starts — the kernel sizes an inotify instance's queue when it is created — and restored
at once, so nothing else on the machine runs with the low limit for more than a moment. Then,
in a watched font directory, --renames renames (two events each) overflow the daemon's queue,
and --subdirectories nested subdirectories are created with a font each while events are lost
(the daemon is stopped with SIGSTOP meanwhile, so the overflow does not depend on how fast its
watcher reads; SIGCONT then lets it find the overflow).
The daemon must log the overflow, register every font of those subdirectories, and — proof
that they are watched, not only rescanned — register a font copied into one of them later.

    sudo Tests/reliability/inotify_overflow.py --subdirectories 20
"""

import argparse
import os
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import fontregd_harness as h  # noqa: E402

LIMIT = "/proc/sys/fs/inotify/max_queued_events"
FAMILIES = os.path.join(h.FIXTURE_FONTS, "families")


def faces(daemon):
    c = daemon.connect()
    try:
        return c.call(f"{h.IFACE}.GetStatus")["parameters"]["faces"]
    finally:
        c.close()


def wait_for(daemon, expected, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if faces(daemon) >= expected:
            return True
        time.sleep(0.1)
    return False


def has_inotify(pid):
    """Whether process `pid` holds an inotify instance."""
    directory = f"/proc/{pid}/fd"
    for name in os.listdir(directory):
        try:
            if os.readlink(os.path.join(directory, name)) == "anon_inode:inotify":
                return True
        except OSError:
            pass
    return False


def start_with_small_queue(fonts, queue):
    with open(LIMIT) as f:
        saved = f.read().strip()
    with open(LIMIT, "w") as f:
        f.write(str(queue))
    try:
        daemon = h.Daemon(fonts=[fonts], extra=["--watch", "yes", "--debounce-ms", "200"])
        # The watcher may create its inotify instance after the socket answers: keep the low
        # limit until the daemon holds one, or the queue would get the machine's usual size.
        end = time.monotonic() + 20
        while not has_inotify(daemon.pid) and time.monotonic() < end:
            time.sleep(0.02)
        return daemon
    finally:
        with open(LIMIT, "w") as f:
            f.write(saved)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--queue", type=int, default=16, help="max_queued_events while the daemon starts")
    p.add_argument("--renames", type=int, default=2000)
    p.add_argument("--subdirectories", type=int, default=20)
    args = p.parse_args()
    if os.geteuid() != 0:
        sys.exit("inotify_overflow: needs root (it lowers fs.inotify.max_queued_events for a moment)")
    sources = sorted(os.path.join(FAMILIES, n) for n in os.listdir(FAMILIES) if n.endswith(".ttf"))
    tmp = tempfile.mkdtemp(prefix="fontreg-overflow-")
    fonts = os.path.join(tmp, "fonts")
    os.makedirs(fonts)
    d = start_with_small_queue(fonts, args.queue)
    try:
        start = faces(d)
        flood = os.path.join(fonts, "flood")
        open(flood, "w").close()
        # The daemon is stopped while the events arrive, so its queue overflows however fast its
        # watcher thread would have read them (on a quiet machine it kept up with 20,000 renames).
        os.kill(d.pid, signal.SIGSTOP)
        for _ in range(args.renames // 2):
            os.rename(flood, flood + ".x")
            os.rename(flood + ".x", flood)
        copied = 0
        for n in range(args.subdirectories):
            sub = os.path.join(fonts, f"late{n}", "deeper")
            os.makedirs(sub)
            shutil.copy(sources[n % len(sources)], os.path.join(sub, f"{n}.ttf"))
            copied += 1
        os.kill(d.pid, signal.SIGCONT)
        recovered = wait_for(d, start + copied, 20)
        after_overflow = faces(d)
        # Later: one more font in a subdirectory created during the overflow.
        shutil.copy(sources[0], os.path.join(fonts, "late3", "deeper", "later.ttf"))
        watched = wait_for(d, after_overflow + 1, 10)
        overflowed = "inotify queue overflowed" in d.log()
        h.log(f"inotify overflow: queue {args.queue} events, {args.renames} renames, {copied} subdirectories with a "
              f"font each created meanwhile; overflow logged: {overflowed}; faces {start} -> {after_overflow} "
              f"(all registered: {recovered}); a font copied later into one of them registered: {watched}")
        ok = overflowed and recovered and watched
        h.log(f"inotify overflow: {'passed' if ok else 'FAILED'}")
        return 0 if ok else 1
    finally:
        d.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
