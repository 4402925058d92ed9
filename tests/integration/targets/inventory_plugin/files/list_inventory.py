"""ansible-inventory --list for the source given, with the unsafe markers that
ansible-inventory writes around strings from an inventory plugin taken off, so
that the test can read the JSON as data; its stderr passes through."""
import json
import subprocess
import sys


def plain(value):
    if isinstance(value, dict):
        if set(value) == {"__ansible_unsafe"}:
            return value["__ansible_unsafe"]
        return dict((key, plain(item)) for key, item in value.items())
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


done = subprocess.run(["ansible-inventory", "-i", sys.argv[1], "--list"] + sys.argv[2:], capture_output=True, text=True, check=False)
sys.stderr.write(done.stderr)
if done.returncode:
    sys.exit(done.returncode)
print(json.dumps(plain(json.loads(done.stdout))))
