#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The benchmark's second floor: a module that sends one GET and nothing else.

It takes the URL, CA bundle and token from SERVICE_URL, SERVICE_CA_PATH and
SERVICE_TOKEN, as the collection's modules can, opens a new TLS connection with
the standard library, sends the GET of ``path`` and reads the answer to its end,
without parsing it. Its time per task is the least that any module which asks
the service one question pays; a module's time above it is that module's own.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import socket
import ssl

from urllib.parse import urlsplit

from ansible.module_utils.basic import AnsibleModule


def main():
    module = AnsibleModule(argument_spec=dict(path=dict(type='str', required=True)))
    url = urlsplit(os.environ['SERVICE_URL'])
    context = ssl.create_default_context(cafile=os.environ['SERVICE_CA_PATH'])
    request = ('GET %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nAccept: application/json\r\n'
               'Connection: close\r\n\r\n' % (module.params['path'], url.netloc, os.environ['SERVICE_TOKEN']))
    chunks = []
    with socket.create_connection((url.hostname, url.port or 443), 10) as raw:
        with context.wrap_socket(raw, server_hostname=url.hostname) as sock:
            sock.sendall(request.encode('ascii'))
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                chunks.append(data)
    status = int(b''.join(chunks).split(b' ', 2)[1])
    module.exit_json(changed=False, status=status, failed=status != 200)


if __name__ == '__main__':
    main()
