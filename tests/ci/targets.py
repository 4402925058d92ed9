"""Which integration targets run where: one answer for every script that runs them.

    python tests/ci/targets.py SET [--why PREFIX] [NAME...]

SET is one of
  real       the targets the real AWX test bed runs (all but tests/integration/real-service.yml's left_out)
  checked    those of them that go through the differential check (all but tests/diffcheck/known.yml's
             left_out too): their requests reach the real AWX and the reference service alike
  direct     the targets the real AWX runs, but not through the check (real, not checked)
  unchecked  the targets whose requests never reach the reference service through the check (all but
             checked): what the reference service must run itself, in the AWX layout, so that every
             target meets the reference service there (make test's integration-unchecked)
  gateway    the targets the platform gateway's layout runs (all but tests/integration/gateway.yml's
             left_out; make integration-gateway)
  gateway-checked
             in the platform gateway's layout (all but tests/integration/gateway.yml's left_out), those
             that go through that layout's differential check: the real AWX behind the gateway, and
             the reference service's gateway layout (checked, less the gateway's left_out)
  gateway-unchecked
             in the gateway's layout, the others: what the reference service's gateway layout runs
             itself (make test's integration-gateway)

Prints the names, one a line, sorted. Without NAME, every target but the setup_* ones; with NAME...,
those of them in SET (a name that is no target fails). With --why, every NAME left out is said on
standard error with the reason, after PREFIX (``diffcheck: sso left out: ...``). Fails when a
left_out names no target.
"""
import argparse
import os
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, 'tests', 'integration')
LEFT_OUT_FILES = {
    'real': os.path.join(HERE, 'real-service.yml'),
    'diffcheck': os.path.join(ROOT, 'tests', 'diffcheck', 'known.yml'),
    'gateway': os.path.join(HERE, 'gateway.yml'),
}


def all_targets():
    return sorted(name for name in os.listdir(os.path.join(HERE, 'targets')) if not name.startswith('.'))


def left_out(which):
    with open(LEFT_OUT_FILES[which], encoding='utf-8') as f:
        reasons = yaml.safe_load(f)['left_out'] or {}
    unknown = sorted(set(reasons) - set(all_targets()))
    if unknown:
        raise SystemExit('%s: left_out names no such target: %s' % (os.path.relpath(LEFT_OUT_FILES[which], ROOT),
                                                                     ', '.join(unknown)))
    return reasons


def reasons_for(which_set):
    """The targets outside ``which_set``, each with why."""
    real, diffcheck = left_out('real'), left_out('diffcheck')
    names = all_targets()
    if which_set == 'real':
        return dict(real)
    if which_set == 'checked':
        return dict(diffcheck, **real)
    gateway = left_out('gateway')
    if which_set == 'gateway':
        return dict(gateway)
    if which_set == 'gateway-checked':
        return {**diffcheck, **real, **gateway}
    if which_set == 'gateway-unchecked':
        outside = {name: 'it reaches the reference service through the differential check of the gateway layout'
                   for name in names if name not in real and name not in diffcheck}
        outside.update(gateway)
        return outside
    if which_set == 'direct':
        outside = {name: 'it goes through the differential check' for name in names
                   if name not in real and name not in diffcheck}
        outside.update(real)
        return outside
    # unchecked
    return {name: 'it reaches the reference service through the differential check' for name in names
            if name not in real and name not in diffcheck}


def select(which_set, wanted=(), why=None):
    outside = reasons_for(which_set)
    names = all_targets()
    unknown = sorted(set(wanted) - set(names))
    if unknown:
        raise SystemExit('no such integration target: %s' % ', '.join(unknown))
    chosen = []
    for name in wanted or [n for n in names if not n.startswith('setup_')]:
        if name in outside:
            if why is not None:
                print('%s%s left out: %s' % (why, name, ' '.join(str(outside[name]).split())), file=sys.stderr)
            continue
        chosen.append(name)
    return chosen


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('set', choices=('real', 'checked', 'direct', 'unchecked', 'gateway', 'gateway-checked', 'gateway-unchecked'))
    parser.add_argument('--why', metavar='PREFIX')
    parser.add_argument('names', nargs='*')
    args = parser.parse_intermixed_args(argv)
    for name in select(args.set, args.names, args.why):
        print(name)


if __name__ == '__main__':
    main()
