"""Which integration targets run where: one answer for every script that runs them.

    python tests/ci/targets.py SET [--why PREFIX] [NAME...]

SET is one of
  checked    the targets recorded on a real service and replayed against the reference service (make record,
             make test's replay): all but those a real service without job execution cannot run
             (tests/integration/real-service.yml's left_out) and those the recording proxy cannot stand
             between (tests/diffcheck/known.yml's left_out)
  unchecked  the others (all but checked): what the reference service runs without a recording, in the
             AWX layout, so that every target meets the reference service there (make test's
             integration-unchecked)
  gateway    the targets the platform gateway's layout runs (all but tests/integration/gateway.yml's
             left_out; make integration-gateway)
  gateway-checked
             in the platform gateway's layout, those recorded and replayed there (checked, less the
             gateway's left_out)
  gateway-unchecked
             in the gateway's layout, the others: what the reference service's gateway layout runs
             without a recording (make test's integration-gateway-unchecked)
  hub        the targets of the real Automation Hub: those whose aliases file has the line ``hub``
             (make test's hub step, tests/hub/run.sh). They are in no other set: the reference
             service has no Hub.

Prints the names, one a line, sorted. Without NAME, every target but the setup_* ones; with NAME...,
those of them in SET (a name that is no target fails). With --why, every NAME left out is said on
standard error with the reason, after PREFIX (``replay: sso left out: ...``). Fails when a
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


def every_target():
    return sorted(name for name in os.listdir(os.path.join(HERE, 'targets')) if not name.startswith('.'))


def is_hub_target(name):
    """Whether the target runs against the real Automation Hub: ``hub`` is a line of its aliases."""
    try:
        with open(os.path.join(HERE, 'targets', name, 'aliases'), encoding='utf-8') as f:
            return 'hub' in f.read().split()
    except OSError:
        return False


def all_targets():
    """The targets of the reference service (every one but the Hub's)."""
    return [name for name in every_target() if not is_hub_target(name)]


def hub_targets():
    return [name for name in every_target() if is_hub_target(name)]


def left_out(which):
    with open(LEFT_OUT_FILES[which], encoding='utf-8') as f:
        reasons = yaml.safe_load(f)['left_out'] or {}
    unknown = sorted(set(reasons) - set(every_target()))
    if unknown:
        raise SystemExit('%s: left_out names no such target: %s' % (os.path.relpath(LEFT_OUT_FILES[which], ROOT),
                                                                     ', '.join(unknown)))
    return reasons


def reasons_for(which_set):
    """The targets outside ``which_set``, each with why."""
    real, diffcheck = left_out('real'), left_out('diffcheck')
    names = all_targets()
    if which_set == 'checked':
        return dict(diffcheck, **real)
    gateway = left_out('gateway')
    if which_set == 'gateway':
        return dict(gateway)
    if which_set == 'gateway-checked':
        return {**diffcheck, **real, **gateway}
    if which_set == 'gateway-unchecked':
        outside = {name: 'it is replayed against the recording of the gateway layout'
                   for name in names if name not in real and name not in diffcheck}
        outside.update(gateway)
        return outside
    # unchecked
    return {name: 'it is replayed against the recording' for name in names
            if name not in real and name not in diffcheck}


def select(which_set, wanted=(), why=None):
    unknown = sorted(set(wanted) - set(every_target()))
    if unknown:
        raise SystemExit('no such integration target: %s' % ', '.join(unknown))
    if which_set == 'hub':
        outside = {name: 'it runs against the reference service, not the Hub' for name in all_targets()}
        names = hub_targets()
    else:
        outside = reasons_for(which_set)
        outside.update((name, 'it runs against the real Automation Hub (make test\'s hub step)') for name in hub_targets())
        names = all_targets()
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
    parser.add_argument('set', choices=('checked', 'unchecked', 'gateway', 'gateway-checked', 'gateway-unchecked', 'hub'))
    parser.add_argument('--why', metavar='PREFIX')
    parser.add_argument('names', nargs='*')
    args = parser.parse_intermixed_args(argv)
    for name in select(args.set, args.names, args.why):
        print(name)


if __name__ == '__main__':
    main()
