"""The client's HTTP without a service: faults at a precise byte, refused headers, sessions.

``OneAnswer`` below is a small socket server in this file, not the reference
service: it cuts an answer at a precise byte, which the service does not do on
demand. Keep-alive and a real proxy in front of the reference service:
tests/live/plugins/module_utils/test_http_live.py.
"""

import select
import socket
import threading

import pytest

from ansible_collections.automation.service.plugins.module_utils._client import Client
from ansible_collections.automation.service.plugins.module_utils._errors import (
    ConfigError, ConnectionFailure, OutcomeUnknown,
)


class OneAnswer:
    """Accepts one connection, records the request, writes ``answer``, then
    closes (or holds the connection open for ``hold`` seconds first)."""

    def __init__(self, answer, hold=0):
        self.answer = answer
        self.hold = hold
        self.request = b''
        self.listener = socket.create_server(('127.0.0.1', 0))
        self.url = 'http://127.0.0.1:%d' % self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        conn, _addr = self.listener.accept()
        with conn:
            conn.settimeout(5)
            while b'\r\n\r\n' not in self.request:
                self.request += conn.recv(65536)
            head, _sep, body = self.request.partition(b'\r\n\r\n')
            length = [int(line.split(b':')[1]) for line in head.split(b'\r\n')
                      if line.lower().startswith(b'content-length:')]
            while length and len(body) < length[0]:
                body += conn.recv(65536)
                self.request = head + b'\r\n\r\n' + body
            conn.sendall(self.answer)
            if self.hold:
                select.select([conn], [], [], self.hold)
        self.listener.close()


def test_an_answer_cut_short_after_a_post_is_an_unknown_outcome_and_never_sent_again():
    server = OneAnswer(b'HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"id"')
    client = Client({'service_url': server.url, 'allow_insecure_http': True}, sleep=lambda s: None)
    with pytest.raises(OutcomeUnknown, match='may or may not have processed'):
        client.request('POST', 'hosts', json_body={'name': 'x'})
    server.thread.join(5)
    assert server.request.count(b'POST /api/v2/hosts/ HTTP/1.1') == 1


def test_nothing_listening_means_not_sent_and_a_clear_error():
    listener = socket.create_server(('127.0.0.1', 0))
    port = listener.getsockname()[1]
    listener.close()
    client = Client({'service_url': 'http://127.0.0.1:%d' % port, 'request_retries': 0})
    with pytest.raises(ConnectionFailure, match='Cannot connect to http://127.0.0.1:%d' % port):
        client.request('POST', 'hosts', json_body={})


@pytest.mark.parametrize('value', ['a\r\nInjected: 1', 'a\nb'])
def test_a_header_that_cannot_be_sent_is_refused_before_connecting(value):
    client = Client({'service_url': 'http://127.0.0.1:9'})
    with pytest.raises(ConfigError, match='Cannot send GET'):
        client.send('GET', 'ping', headers={'X-Test': value})


def test_other_credentials_get_another_session():
    first = Client({'service_url': 'https://svc.example.com', 'service_username': 'a'})
    second = Client({'service_url': 'https://svc.example.com', 'service_username': 'b'})
    again = Client({'service_url': 'https://svc.example.com', 'service_username': 'a'})
    assert first.session is again.session
    assert first.session is not second.session
