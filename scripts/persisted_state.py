"""The state folder the start-up and persistence benchmarks give fontregd (issue 24).

Shared by bench-user-registrations.py and bench-persist-cost.py: empty directories owned by
uids without a home, written into the state directory's platform.json as those users'
persistent registrations (a daemon with per-user files migrates it at start).
"""
import json
import os


def make_registration(root, path, uid):
    """Makes the empty directory `path` under `root`, each component below `root` owned by `uid`,
    and returns its persistent, private record."""
    os.makedirs(path)
    component = path
    while len(component) > len(root):
        os.chown(component, uid, uid)
        component = os.path.dirname(component)
    return {"path": path, "owner": uid, "scope": "persistent", "private": True}


def write_state(state, records):
    """Writes `records` as the platform.json of the state directory `state` (0600); returns its size in bytes."""
    os.makedirs(state, exist_ok=True)
    path = os.path.join(state, "platform.json")
    with open(path, "w") as file:
        json.dump({"version": 1, "registrations": records, "disabled": [], "boldText": {}}, file)
    os.chmod(path, 0o600)
    return os.path.getsize(path)
