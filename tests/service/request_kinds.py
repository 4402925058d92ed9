#!/usr/bin/env python3
"""The distinct requests a client sent to reference services, from their request logs.

    python tests/service/request_kinds.py [--agent PREFIX] DIR_OR_requests.jsonl ...

A kind is the method, the path with ids and names replaced by ``<id>``, and the
headers that decide how the service answers: Accept, Content-Type, and whether
a Referer and an X-CSRFToken came. Prints a Markdown table with a count per kind.
Only requests whose User-Agent starts with PREFIX (default: the collection's)
are counted.
"""
import argparse
import collections
import json
import os
import re

AGENT = "automation.service-ansible-collection"
# /api/v2/<resource>/<id>/... ; a user named in place of its id counts as an id
ID = re.compile(r"/(\d+)(?=/)")
NAMED = re.compile(r"^(/api/v2/users/)[^/]+(/(?:personal_)?tokens/)$")


def pattern(path):
    path = NAMED.sub(r"\1<id>\2", path)
    return ID.sub("/<id>", path)


def log_files(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _dirs, files in os.walk(path):
                if "requests.jsonl" in files:
                    yield os.path.join(root, "requests.jsonl")
        else:
            yield path


def kinds(paths, agent=AGENT):
    counted = collections.Counter()
    for name in log_files(paths):
        with open(name) as handle:
            for line in handle:
                entry = json.loads(line)
                if not (entry.get("agent") or "").startswith(agent):
                    continue
                content_type = (entry.get("content_type") or "").split(";")[0] or "-"
                counted[(entry["method"], pattern(entry["path"]), entry.get("accept") or "-", content_type,
                         "yes" if entry.get("referer") else "-", "yes" if entry.get("csrf") else "-")] += 1
    return counted


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default=AGENT)
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args(argv)
    print("| method | path | Accept | Content-Type | Referer | X-CSRFToken | requests |")
    print("|---|---|---|---|---|---|---:|")
    for kind, count in sorted(kinds(args.paths, args.agent).items()):
        print("| %s | `%s` | `%s` | `%s` | %s | %s | %d |" % (kind + (count,)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
