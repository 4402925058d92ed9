#!/usr/bin/env python3
"""Run awx.awx's own integration targets with awx.awx and with automation.service.

The targets are those of ``awx_collection/tests/integration/targets`` in the AWX
sources (24.6.1). For automation.service, every ``awx.awx.`` in them is rewritten
to ``automation.service.`` and nothing else is changed; awx.awx runs them as they
are. Each target runs alone, as ansible-test would run it, against
the service that SERVICE_URL, SERVICE_CA_PATH, SERVICE_ADMIN_USERNAME and
SERVICE_ADMIN_PASSWORD describe (CONTROLLER_* for the collections). The table
gives, for each target, each collection's result, its seconds and the first task
that failed.

    run.py --awx-source DIR [--service-kind real|reference] [--collections awx,ours]
           [--table FILE] [TARGET ...]

DIR is the AWX source tree (it holds ``awx_collection/``). The targets' table
(``targets.yml`` beside this file) says which targets cannot run on a service
and why (``skip_real``, ``skip_reference``: listed as skipped with that reason),
and which known difference still makes a target fail with automation.service
where awx.awx passes (``known_real``, ``known_reference``: the reason is printed
beside the result), and why a target fails with awx.awx itself (``awx_real``,
``awx_reference``). The exit status is 1 when a target passes with awx.awx and
fails with automation.service, or fails with awx.awx, without such a known
reason; else 0.

``--awx-recorded`` does not run awx.awx: its result on each target is the one
recorded in targets.yml from a whole run on that service (a target passes unless
``awx_real``/``awx_reference`` says why it fails), shown as ``pass*``/``FAIL*``.
On the real AWX that result cannot change: awx.awx 24.6.1 and AWX 24.6.1 are both
fixed, so ``make test`` runs ours there beside awx.awx's recorded result, and a
whole run (``make awx-suite-real``) records it again.

``--awx-cache DIR`` keeps awx.awx's results on the reference service in DIR,
keyed by a hash of what decides them (the reference service's code, this
runner and its table, awx.awx's build and the plays' ansible-core; awx.awx
24.6.1 itself is fixed): a run whose key has results takes awx.awx's from
there (shown as ``pass+``/``FAIL+`` with the seconds they took) and runs ours
only; a run of every target without them runs awx.awx too and keeps its
results. A change to the reference service means a new key, so awx.awx runs
again.

Plays run side by side (``--jobs``, default AWX_SUITE_JOBS or 2), longest first,
so that neither the service nor the plays leave a core idle. Two plays never
run the same target at once (awx.awx's and ours would meet on its names), nor
two targets of one ``shares`` group of targets.yml (objects of fixed names that
both create and delete); an ``exclusive`` target runs alone (it reads what every
other target changes).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import requests
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WORK = ROOT / '.run' / 'awx-suite'
OURS = ('automation', 'service')
# The Python whose ansible-core runs the plays (and the modules): the targets are
# 24.6.1's, written for the ansible-core of that time (run.sh gives 2.16).
PYTHON = os.environ.get('AWX_SUITE_PYTHON', sys.executable)
# Seconds a target may take: a job that never runs makes a waiting target hang on the
# reference service; on the real AWX the waiting targets are skipped, and a long target
# (awx.awx's credential) needs more while another play runs beside it. awx.awx's
# workflow_job_template takes about 220 s on the reference service with the machine's
# processors busy, and more than 300 s on a machine busier than that.
TIMEOUT = {'reference': 600, 'real': 900}
JOBS = int(os.environ.get('AWX_SUITE_JOBS', '2'))

TASK_RE = re.compile(r'^TASK \[(?P<name>.*)\] \*+$')
FAIL_RE = re.compile(r'^(fatal|failed): \[')
RECAP_RE = re.compile(r'failed=(\d+)')


def load_table() -> dict:
    with open(HERE / 'targets.yml', encoding='utf-8') as f:
        return yaml.safe_load(f)['targets']


def copy_targets(source: Path, dest: Path, rewrite: bool) -> None:
    """Copy awx.awx's targets into a collection tree, rewritten for ours when asked."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(source, dest)
    if not rewrite:
        return
    for path in dest.rglob('*'):
        if path.is_file() and path.suffix in ('.yml', '.yaml', '.j2', '.json'):
            text = path.read_text(encoding='utf-8')
            new = text.replace('awx.awx.', '.'.join(OURS) + '.')
            if new != text:
                path.write_text(new, encoding='utf-8')


def git_init(tree: Path) -> None:
    subprocess.run(['git', 'init', '-q', str(tree)], check=True)
    with open(tree / '.git' / 'info' / 'exclude', 'a', encoding='utf-8') as f:
        f.write('/tests/output/\n')


def our_tree(awx_collection: Path, work: Path) -> Path:
    """automation.service as it would ship, with awx.awx's targets rewritten."""
    dest = work / 'ours'
    out = subprocess.run(
        [sys.executable, str(ROOT / 'tests' / 'ci' / 'mktree.py'), '--root', str(ROOT), '--dest', str(dest)],
        check=True, capture_output=True, text=True,
    ).stdout.strip().splitlines()[-1]
    tree = Path(out)
    copy_targets(awx_collection / 'tests' / 'integration' / 'targets', tree / 'tests' / 'integration' / 'targets', True)
    return tree


def awx_tree(awx_collection: Path, built: Path | None, work: Path) -> Path:
    """awx.awx: the collection built from the same sources, with its own targets."""
    tree = work / 'awx' / 'ansible_collections' / 'awx' / 'awx'
    if tree.exists():
        shutil.rmtree(tree)
    shutil.copytree(built if built else awx_collection, tree, ignore=shutil.ignore_patterns('tests'))
    copy_targets(awx_collection / 'tests' / 'integration' / 'targets', tree / 'tests' / 'integration' / 'targets', False)
    git_init(tree)
    return tree


def last_task(log: str) -> str:
    tasks = [m.group('name') for m in map(TASK_RE.match, log.splitlines()) if m]
    return tasks[-1] if tasks else ''


def first_failure(log: str) -> str:
    """The first task whose failure was not ignored."""
    task = ''
    lines = log.splitlines()
    for i, line in enumerate(lines):
        m = TASK_RE.match(line)
        if m:
            task = m.group('name')
        elif FAIL_RE.match(line) and not any(x.startswith('...ignoring') for x in lines[i + 1:i + 3]):
            return task
    m = re.search(r'^ERROR[!:].*$', log, re.M)
    return m.group(0)[:100] if m else ''


def run_target(tree: Path, target: str, env: dict, logdir: Path, timeout: int) -> tuple[bool, float, str]:
    """Run one target as ansible-test would (a play on testhost with the target as its role).

    The play lives inside the collection's tree, so that Ansible takes that
    collection as the default one, as under ansible-test: the targets' bare module
    names resolve to the collection under test. ansible-test itself is not used
    because it passes no CONTROLLER_* variable to the play. Unlike ansible-test's
    play, this one gathers no facts (as a target's ``gather_facts/no`` alias asks
    of ansible-test): none of the targets reads a fact, and gathering them cost
    about a second of processor time per play.
    """
    integration = tree / 'tests' / 'integration'
    output_dir = tree.parents[2] / 'output' / target
    shutil.rmtree(output_dir, ignore_errors=True)
    output_dir.mkdir(parents=True)
    play = [{'hosts': 'testhost', 'gather_facts': False, 'vars': {'output_dir': str(output_dir)}, 'roles': [target]}]
    playbook = integration / f'run-{target}.yml'
    playbook.write_text(yaml.safe_dump(play, sort_keys=False), encoding='utf-8')
    inventory = integration / f'inventory-{target}.suite'  # one each: plays run side by side
    inventory.write_text(f'testhost ansible_connection=local ansible_python_interpreter={PYTHON}\n',
                         encoding='utf-8')
    env = dict(env, ANSIBLE_COLLECTIONS_PATH=str(tree.parents[2]), ANSIBLE_ROLES_PATH=str(integration / 'targets'),
               ANSIBLE_PLAYBOOK_DIR=str(integration))
    t0 = time.monotonic()
    try:
        proc = subprocess.run(
            [os.path.join(os.path.dirname(PYTHON), 'ansible-playbook'), '-i', str(inventory), str(playbook)],
            cwd=integration, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False,
            timeout=timeout,
        )
        log, status = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as exc:
        log = (exc.stdout or b'').decode(errors='replace') + (exc.stderr or b'').decode(errors='replace')
        status = None
    seconds = time.monotonic() - t0
    (logdir / f'{target}.log').write_text(log, encoding='utf-8')
    if status is None:
        return False, seconds, f'timed out after {timeout} s in: ' + (last_task(log) or '(no task)')
    ok = status == 0
    return ok, seconds, '' if ok else (first_failure(log) or f'exit {status}')


def weight(targets: Path, target: str, collection: str) -> int:
    """How long a play will take, roughly: the target's size in bytes (awx.awx's modules are the slower)."""
    size = sum(p.stat().st_size for p in (targets / target).rglob('*') if p.is_file())
    return size * (3 if collection == 'awx' else 1)


def can_start(table: dict, item: tuple, running: list) -> bool:
    target = item[0]
    entry = table.get(target) or {}
    for other, _ in running:
        other_entry = table.get(other) or {}
        if other == target or entry.get('exclusive') or other_entry.get('exclusive'):
            return False
        if entry.get('shares') and entry.get('shares') == other_entry.get('shares'):
            return False
    return True


def run_all(items: list, table: dict, jobs: int, run) -> dict:
    """Run ``run(target, collection)`` for each item, ``jobs`` at a time, as can_start allows;
    the items are taken in their order, and an exclusive one waits for the others to end."""
    results = {}
    pending = list(items)
    running = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        while pending or running:
            for item in list(pending):
                if len(running) >= jobs:
                    break
                if can_start(table, item, list(running.values())):
                    pending.remove(item)
                    running[pool.submit(run, *item)] = item
                elif (table.get(item[0]) or {}).get('exclusive'):
                    break  # nothing new starts before it
            done, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                results[running.pop(future)] = future.result()
    return results


def first_request() -> None:
    """The admin's first request, alone: AWX makes a user's profile the first time it is read
    (AutoOneToOneField), and two first requests at once collide (400, duplicate key
    main_profile_user_id_key), as two plays starting together after a reset would."""
    answer = requests.get(os.environ['SERVICE_URL'] + '/api/v2/me/', timeout=60,
                          auth=(os.environ['SERVICE_ADMIN_USERNAME'], os.environ['SERVICE_ADMIN_PASSWORD']),
                          verify=os.environ.get('SERVICE_CA_PATH') or True)
    answer.raise_for_status()


def service_env() -> dict:
    env = dict(os.environ)
    for name in ('SERVICE_URL', 'SERVICE_ADMIN_USERNAME', 'SERVICE_ADMIN_PASSWORD'):
        if not env.get(name):
            raise SystemExit(f'run.py: {name} is not set (start a service first)')
    # As in AWX's own CI: the service's certificate is not trusted, and the
    # environment turns verification off (the organization target checks that a
    # task asking for verification fails with CERTIFICATE_VERIFY_FAILED).
    env.update({
        'CONTROLLER_HOST': env['SERVICE_URL'],
        'CONTROLLER_USERNAME': env['SERVICE_ADMIN_USERNAME'],
        'CONTROLLER_PASSWORD': env['SERVICE_ADMIN_PASSWORD'],
        'CONTROLLER_VERIFY_SSL': 'false',
        'ANSIBLE_FORCE_COLOR': '0',
    })
    # Only what an awx.awx user sets: no SERVICE_* variable reaches the plays.
    for name in [n for n in env if n.startswith('SERVICE_')] + ['SSL_CERT_FILE', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE']:
        env.pop(name, None)
    # awx.awx reads ~/.tower_cli.cfg and friends too: the environment must win.
    env.pop('CONTROLLER_OAUTH_TOKEN', None)
    return env


def awx_results_key(awx_collection: Path) -> str:
    """What decides awx.awx's results on the reference service, hashed. The gateway layout's app
    (refsvc/gateway) is not among it: awx.awx runs against AWX 24's layout, which never loads it."""
    digest = hashlib.sha256()
    service = ROOT / 'tests' / 'service'
    left_out = (service / 'tests', service / 'refsvc' / 'gateway')
    files = sorted(p for p in service.rglob('*') if p.is_file() and p.suffix != '.md'
                   and '__pycache__' not in p.parts and not any(d in p.parents for d in left_out))
    files += [HERE / 'run.py', HERE / 'run.sh', HERE / 'targets.yml']
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b'\0' + path.read_bytes() + b'\0')
    digest.update(str(awx_collection.resolve()).encode() + b'\0' + PYTHON.encode())
    return digest.hexdigest()[:16]


def fmt(seconds: float) -> str:
    return f'{seconds:.0f}'


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--awx-source', required=True, type=Path, help='the AWX source tree')
    parser.add_argument('--awx-collection', type=Path, default=None,
                        help='awx.awx as built from those sources (default: awx_collection/ as it is)')
    parser.add_argument('--service-kind', choices=('real', 'reference'), default='reference')
    parser.add_argument('--collections', default='awx,ours')
    parser.add_argument('--awx-recorded', action='store_true',
                        help="do not run awx.awx: take its results from targets.yml (awx_<kind> entries)")
    parser.add_argument('--awx-cache', type=Path, default=None,
                        help="keep awx.awx's results on the reference service here, and take them from here")
    parser.add_argument('--table', type=Path, default=None)
    parser.add_argument('--jobs', type=int, default=JOBS, help='plays run side by side')
    parser.add_argument('--timeout', type=int, default=int(os.environ.get('AWX_SUITE_TIMEOUT', '0')) or None,
                        help='seconds a target may take (default: 300 on the reference service, 900 on the real AWX)')
    parser.add_argument('targets', nargs='*')
    args = parser.parse_args()

    awx_collection = args.awx_source / 'awx_collection'
    available = sorted(p.name for p in (awx_collection / 'tests' / 'integration' / 'targets').iterdir() if p.is_dir())
    table = load_table()
    unknown = sorted(set(available) - set(table))
    if unknown:
        raise SystemExit(f'run.py: targets.yml does not list {", ".join(unknown)}')
    wanted = args.targets or available
    collections = [c for c in args.collections.split(',') if c]
    if args.awx_recorded:
        collections = [c for c in collections if c != 'awx']
    env = service_env()
    cached_file, cached = None, {}
    if args.awx_cache and 'awx' in collections and args.service_kind == 'reference':
        cached_file = args.awx_cache / f'reference-{awx_results_key(args.awx_collection or awx_collection)}.json'
        if cached_file.is_file():
            cached = json.loads(cached_file.read_text(encoding='utf-8'))
        if all(target in cached for target in wanted if not (table.get(target) or {}).get('skip_reference')):
            print(f"awx-suite: awx.awx's results on this reference service from {cached_file}", flush=True)
            collections = [c for c in collections if c != 'awx']
        else:
            cached = {}

    trees = {}
    if 'awx' in collections:
        trees['awx'] = awx_tree(awx_collection, args.awx_collection, WORK / args.service_kind)
    if 'ours' in collections:
        trees['ours'] = our_tree(awx_collection, WORK / args.service_kind)
    logroot = ROOT / 'tests' / 'output' / 'awx-suite' / args.service_kind
    for name in collections:
        (logroot / name).mkdir(parents=True, exist_ok=True)
    timeout = args.timeout or TIMEOUT[args.service_kind]

    def run(target: str, name: str) -> tuple:
        ok, seconds, failure = run_target(trees[name], target, env, logroot / name, timeout)
        print(f'awx-suite {args.service_kind} {name:4} {target:28} {"pass" if ok else "FAIL"} {seconds:5.0f}s {failure}',
              flush=True)
        return ok, seconds, failure

    targets_dir = awx_collection / 'tests' / 'integration' / 'targets'
    items = [(target, name) for target in wanted for name in collections
             if not (table.get(target) or {}).get(f'skip_{args.service_kind}')]
    items.sort(key=lambda item: -weight(targets_dir, *item))
    first_request()
    t0 = time.monotonic()
    done = run_all(items, table, max(1, args.jobs), run)
    elapsed = time.monotonic() - t0
    results: dict[str, dict[str, tuple]] = {target: {name: done.get((target, name)) for name in collections} for target in wanted}
    if args.awx_recorded:
        for target in wanted:
            entry = table.get(target) or {}
            skipped = entry.get(f'skip_{args.service_kind}')
            results[target]['awx'] = None if skipped else (not entry.get(f'awx_{args.service_kind}'), None, '')
        collections = ['awx'] + collections
    elif cached:
        for target in wanted:
            results[target]['awx'] = tuple(cached[target]) if target in cached else None
        collections = ['awx'] + collections

    lines = [f'awx.awx integration targets on the {args.service_kind} service',
             f'{"target":28} ' + ' '.join(f'{c:>6} {"s":>4}' for c in collections) + '  first failing task / why skipped']
    regressions, awx_failures = [], []
    counts = {c: 0 for c in collections}
    for target in wanted:
        row = f'{target:28} '
        note = ''
        for name in collections:
            res = results[target][name]
            if res is None:
                row += f'{"skip":>6} {"":>4} '
                note = (table.get(target) or {}).get(f'skip_{args.service_kind}')
                continue
            ok, seconds, failure = res
            counts[name] += ok
            word = ('pass' if ok else 'FAIL') + ('*' if seconds is None else '+' if name == 'awx' and cached else '')
            row += f'{word:>6} {"" if seconds is None else fmt(seconds):>4} '
            if not ok and not note and seconds is not None:
                note = f'{name}: {failure}'
        res_awx, res_ours = results[target].get('awx'), results[target].get('ours')
        known = (table.get(target) or {}).get(f'known_{args.service_kind}')
        if res_awx and res_ours and res_awx[0] and not res_ours[0]:
            if known:
                note = f'known: {known}'
            else:
                regressions.append(target)
        elif known and res_ours and res_ours[0]:
            note = 'passes now: remove its known_' + args.service_kind + ' entry'
        awx_known = (table.get(target) or {}).get(f'awx_{args.service_kind}')
        if args.awx_recorded:
            if res_awx and not res_awx[0]:
                note = f'awx.awx fails: {awx_known}' + (f'; {note}' if note else '')
        elif res_awx and not res_awx[0]:
            if awx_known:
                note = f'awx.awx fails: {awx_known}' + (f'; {note}' if note else '')
            else:
                awx_failures.append(target)
        elif awx_known and res_awx:
            note = 'awx.awx passes now: remove its awx_' + args.service_kind + ' entry'
        lines.append(row + ' ' + note)
    ran = sum(1 for t in wanted if not (table.get(t) or {}).get(f'skip_{args.service_kind}'))
    lines.append('passed: ' + ', '.join(f'{c} {counts[c]} of {ran}' for c in collections)
                 + f'; {fmt(elapsed)} s, {max(1, args.jobs)} at a time')
    if args.awx_recorded:
        lines.append('awx*: awx.awx not run; its result recorded from a whole run on this service (targets.yml)')
    if cached:
        lines.append(f'awx+: awx.awx not run; its result from an earlier run on this same reference service ({cached_file.name})')
    if regressions:
        lines.append('passes with awx.awx, fails with automation.service: ' + ', '.join(regressions))
    if awx_failures:
        lines.append(f'fails with awx.awx on the {args.service_kind} service, for no known reason: ' + ', '.join(awx_failures))
    if cached_file and not cached and set(wanted) == set(available) and not awx_failures:
        # (kept only when awx.awx met no failure it should not have: a slow machine's time-out is not kept)
        cached_file.parent.mkdir(parents=True, exist_ok=True)
        partial = cached_file.with_suffix('.tmp')
        partial.write_text(json.dumps({t: list(r['awx']) for t, r in results.items() if r.get('awx')}), encoding='utf-8')
        partial.rename(cached_file)
    text = '\n'.join(lines)
    print('\n' + text)
    out = args.table or (logroot / 'table.txt')
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + '\n', encoding='utf-8')
    return 1 if regressions or awx_failures else 0


if __name__ == '__main__':
    sys.exit(main())
