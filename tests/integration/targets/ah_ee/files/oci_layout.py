# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Write a one-layer container image as an OCI image layout in the directory given (for skopeo's ``oci:``).

The layer holds one small text file; every timestamp is fixed, so the image, and its digest, are the same at
every run. A test image that nothing runs: it has no command, only a file.

    python oci_layout.py DIR [TEXT]
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import gzip
import hashlib
import io
import json
import os
import sys
import tarfile


def blob(directory, data):
    """Store ``data`` in the layout's blobs; its digest and size."""
    digest = hashlib.sha256(data).hexdigest()
    path = os.path.join(directory, 'blobs', 'sha256')
    if not os.path.isdir(path):
        os.makedirs(path)
    with open(os.path.join(path, digest), 'wb') as out:
        out.write(data)
    return {'digest': 'sha256:' + digest, 'size': len(data)}


def layer(text):
    """A tar with one file (the uncompressed tar, for the config's diff_ids, and its gzip)."""
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode='w', format=tarfile.USTAR_FORMAT) as archive:
        info = tarfile.TarInfo('hello.txt')
        content = text.encode('utf-8')
        info.size, info.mtime, info.mode = len(content), 0, 0o644
        archive.addfile(info, io.BytesIO(content))
    packed = io.BytesIO()
    with gzip.GzipFile(fileobj=packed, mode='wb', mtime=0) as out:
        out.write(tar.getvalue())
    return tar.getvalue(), packed.getvalue()


def write_layout(directory, text):
    plain, packed = layer(text)
    layer_ref = dict(blob(directory, packed), mediaType='application/vnd.oci.image.layer.v1.tar+gzip')
    config = {'architecture': 'amd64', 'os': 'linux', 'config': {},
              'rootfs': {'type': 'layers', 'diff_ids': ['sha256:' + hashlib.sha256(plain).hexdigest()]}}
    config_ref = dict(blob(directory, json.dumps(config, sort_keys=True).encode('utf-8')),
                      mediaType='application/vnd.oci.image.config.v1+json')
    manifest = {'schemaVersion': 2, 'mediaType': 'application/vnd.oci.image.manifest.v1+json',
                'config': config_ref, 'layers': [layer_ref]}
    manifest_ref = dict(blob(directory, json.dumps(manifest, sort_keys=True).encode('utf-8')),
                        mediaType='application/vnd.oci.image.manifest.v1+json')
    with open(os.path.join(directory, 'oci-layout'), 'w') as out:
        json.dump({'imageLayoutVersion': '1.0.0'}, out)
    with open(os.path.join(directory, 'index.json'), 'w') as out:
        json.dump({'schemaVersion': 2, 'manifests': [manifest_ref]}, out)
    return manifest_ref['digest']


if __name__ == '__main__':
    print(write_layout(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else 'hello\n'))
