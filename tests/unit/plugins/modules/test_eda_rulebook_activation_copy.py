"""eda_rulebook_activation_copy against an EDA in memory (eda_runs_fake): the copy is made once (unlike ansible.eda's,
a second run finds it and changes nothing), disabled as the service makes it; a missing source fails in ansible.eda's words, even when the copy exists;
check mode writes nothing."""

from ansible_collections.automation.service.plugins.modules import eda_rulebook_activation as activation
from ansible_collections.automation.service.plugins.modules import eda_rulebook_activation_copy as activation_copy

from .eda_runs_fake import ACTIVATION as MADE
from .eda_runs_fake import ROOT as EDA
from .eda_runs_fake import FakeEdaRuns as FakeEda
from .eda_runs_fake import run


def test_the_copy_is_made_once():
    eda = FakeEda()
    run(activation, eda, **MADE)
    missing = run(activation_copy, eda, name='hello 2', copy_from='nope')
    # in ansible.eda's words, which its activation target asserts
    assert missing['failed'] is True and missing['msg'] == \
        "Unable to access 'id' of the activation to copy from. No rulebook activation is named 'nope'."
    assert run(activation_copy, eda, check=True, name='hello 2', copy_from='hello')['changed'] is True
    made = run(activation_copy, eda, name='hello 2', copy_from='hello')
    assert made['changed'] is True and made['rulebook_activation']['is_enabled'] is False
    assert eda.writes[-1] == ('POST', EDA + 'activations/101/copy/', {'name': 'hello 2'})
    again = run(activation_copy, eda, name='hello 2', copy_from='hello')
    assert again['changed'] is False and again['id'] == made['id'] and len(eda.writes) == 2
    # the activation to copy must exist even when the copy does, as with ansible.eda
    gone = run(activation_copy, eda, name='hello 2', copy_from='nope')
    assert gone['failed'] is True and "No rulebook activation is named 'nope'." in gone['msg'] and len(eda.writes) == 2
