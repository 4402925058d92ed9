"""eda_rulebook_info and eda_rulebook_activation_info against an EDA in memory (eda_runs_fake): the exact name (the
service's filters match any part of one), within a project, each rulebook with its sources."""

from ansible_collections.automation.service.plugins.modules import eda_rulebook_activation as activation
from ansible_collections.automation.service.plugins.modules import eda_rulebook_activation_info as activation_info
from ansible_collections.automation.service.plugins.modules import eda_rulebook_info as rulebook_info

from .eda_runs_fake import ACTIVATION, run
from .eda_runs_fake import FakeEdaRuns as FakeEda


def test_rulebooks_by_exact_name_with_their_sources():
    eda = FakeEda()
    found = run(rulebook_info, eda, name='hello.yml', project_name='Rulebooks')['rulebooks']
    assert [(r['id'], [s['name'] for s in r['sources']]) for r in found] == [(5, ['first', 'second'])]
    assert [r['name'] for r in run(rulebook_info, eda)['rulebooks']] == ['hello.yml', 'hello.yml.bak']
    missing = run(rulebook_info, eda, project_name='nope')
    assert missing['failed'] is True and "'nope' not found" in missing['msg']


def test_activations_by_exact_name():
    eda = FakeEda()
    run(activation, eda, **ACTIVATION)
    run(activation, eda, **dict(ACTIVATION, name='hello again'))
    assert [a['name'] for a in run(activation_info, eda, name='hello')['activations']] == ['hello']
    assert len(run(activation_info, eda)['activations']) == 2
