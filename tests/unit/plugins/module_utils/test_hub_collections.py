"""Collection artifacts as the Hub modules read and send them (_hub_collections): the namespace, name and version
from MANIFEST.json whatever the file is called, the multipart body of an upload, and what ah_build compares. No
Hub here: the integration target ah_collection uploads, approves and deletes on a real one."""

import email.parser
import email.policy
import hashlib
import io
import json
import tarfile

import pytest

from ansible_collections.automation.service.plugins.module_utils import _hub_collections as hc
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError

MANIFEST = {'collection_info': {'namespace': 'acme', 'name': 'tools', 'version': '1.2.0'},
            'file_manifest_file': {'name': 'FILES.json', 'chksum_sha256': 'a' * 64}}
FILES = {'files': [{'name': 'README.md', 'ftype': 'file', 'chksum_sha256': 'b' * 64}], 'format': 1}


def artifact_file(path, manifest=MANIFEST, files=FILES, mtime=0):
    """A collection artifact as ansible-galaxy lays it out (MANIFEST.json, FILES.json first), its members dated
    ``mtime``."""
    with tarfile.open(str(path), 'w:gz') as archive:
        for name, data in (('MANIFEST.json', manifest), ('FILES.json', files)):
            raw = json.dumps(data).encode()
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(raw), mtime
            archive.addfile(info, io.BytesIO(raw))
    return str(path)


def test_an_artifact_is_known_by_its_manifest_not_by_its_file_name(tmp_path):
    path = artifact_file(tmp_path / 'renamed-by-someone.tar.gz')
    artifact = hc.read_artifact(path)
    assert (artifact.namespace, artifact.name, artifact.version) == ('acme', 'tools', '1.2.0')
    assert artifact.fqcn == 'acme.tools'
    # the name galaxy-ng parses the namespace, name and version from
    assert artifact.filename == 'acme-tools-1.2.0.tar.gz'
    with open(path, 'rb') as handle:
        assert artifact.sha256 == hashlib.sha256(handle.read()).hexdigest()


@pytest.mark.parametrize('content', [b'not a tarball', None])
def test_what_is_not_an_artifact_fails_before_anything_is_sent(tmp_path, content):
    path = tmp_path / 'acme-tools-1.2.0.tar.gz'
    if content is None:     # a tarball without a MANIFEST.json
        with tarfile.open(str(path), 'w:gz') as archive:
            info = tarfile.TarInfo('README.md')
            archive.addfile(info, io.BytesIO(b''))
    else:
        path.write_bytes(content)
    with pytest.raises(ConfigError, match='is not a collection artifact'):
        hc.read_artifact(str(path))


def test_the_upload_sends_the_file_under_its_collection_name_and_its_checksum(tmp_path):
    artifact = hc.read_artifact(artifact_file(tmp_path / 'whatever.tar.gz'))
    body, content_type = hc.multipart(artifact)
    assert content_type.startswith('multipart/form-data; boundary=')
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b'Content-Type: ' + content_type.encode() + b'\r\n\r\n' + body)
    parts = dict((part.get_param('name', header='content-disposition'), part) for part in message.iter_parts())
    assert sorted(parts) == ['file', 'sha256']
    assert parts['sha256'].get_content().strip() == artifact.sha256
    assert parts['file'].get_filename() == 'acme-tools-1.2.0.tar.gz'
    with open(artifact.path, 'rb') as handle:
        assert parts['file'].get_payload(decode=True) == handle.read()


def test_two_builds_of_the_same_content_compare_equal_whatever_their_dates(tmp_path):
    first = artifact_file(tmp_path / 'first.tar.gz', mtime=1000)
    second = artifact_file(tmp_path / 'second.tar.gz', mtime=2000)
    with open(first, 'rb') as one, open(second, 'rb') as other:
        assert one.read() != other.read()      # the files differ...
    assert hc.built_content(first) == hc.built_content(second)     # ...what they hold does not
    changed = dict(FILES, files=[dict(FILES['files'][0], chksum_sha256='c' * 64)])
    third = artifact_file(tmp_path / 'third.tar.gz', files=changed)
    assert hc.built_content(third) != hc.built_content(first)
    assert hc.fingerprint(hc.built_content(first)) == 'a' * 64
    assert hc.fingerprint(()) is None


def test_where_a_version_is_read_from():
    assert hc.preferred(['staging', 'published']) == 'published'
    assert hc.preferred(['rejected', 'staging']) == 'rejected'
    assert hc.version_path('staging', 'acme', 'tools', '1.2.0') == \
        'v3/plugin/ansible/content/staging/collections/index/acme/tools/versions/1.2.0/'
    assert hc.version_path('published', 'acme', 'tools') == 'v3/plugin/ansible/content/published/collections/index/acme/tools/'
    assert hc.move_path('acme', 'tools', '1.2.0', 'staging', 'published') == \
        'v3/collections/acme/tools/versions/1.2.0/move/staging/published/'


class _NoCommand:
    """A task that must not start a command."""
    environ = {}
    check_mode = False

    def run_command(self, args):
        raise AssertionError('ran %s' % args)


def test_a_directory_without_galaxy_yml_fails_in_ansible_galaxys_words_without_starting_it(tmp_path):
    with pytest.raises(ConfigError) as failed:
        hc.build(_NoCommand(), str(tmp_path / 'no-such-dir'), str(tmp_path / 'out'), False)
    assert str(failed.value) == "The collection galaxy.yml path '%s' does not exist." % (tmp_path / 'no-such-dir' / 'galaxy.yml')
    (tmp_path / 'empty').mkdir()
    with pytest.raises(ConfigError, match='empty/galaxy.yml'):
        hc.build(_NoCommand(), str(tmp_path / 'empty'), str(tmp_path / 'out'), False)
    assert not (tmp_path / 'out').exists()
