#!/usr/bin/env python3
"""Fetch the awx.awx 24.6.1 collection (shipped in the PyPI package ansible==12.3.0).

Downloads the wheel once into .run/cache/ and unpacks only
ansible_collections/awx/awx into .run/awx/. Idempotent; prints the
collections path (the directory holding ansible_collections/).
"""
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
CACHE = REPO_ROOT / ".run" / "cache"
TARGET = REPO_ROOT / ".run" / "awx"
PACKAGE = "ansible==12.3.0"
PREFIX = "ansible_collections/awx/awx/"


def wheel_path():
    found = sorted(CACHE.glob("ansible-12.3.0-*.whl"))
    return found[0] if found else None


def main():
    marker = TARGET / ".complete"
    if marker.exists():
        print(TARGET)
        return 0
    CACHE.mkdir(parents=True, exist_ok=True)
    wheel = wheel_path()
    if wheel is None:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "--dest", str(CACHE), PACKAGE],
            check=True,
            stdout=sys.stderr,
        )
        wheel = wheel_path()
        if wheel is None:
            print("the ansible 12.3.0 wheel was not downloaded", file=sys.stderr)
            return 1
    partial = TARGET.with_name("awx.partial")
    shutil.rmtree(partial, ignore_errors=True)
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name.startswith(PREFIX) and not name.endswith("/"):
                archive.extract(name, partial)
    shutil.rmtree(TARGET, ignore_errors=True)
    partial.rename(TARGET)
    marker.write_text(PACKAGE + "\n")
    print(TARGET)
    return 0


if __name__ == "__main__":
    sys.exit(main())
