"""The client's HTTP: faults at a precise byte, keep-alive, and a real proxy.

``OneAnswer`` below is a small socket server in this file, not the reference
service: it cuts an answer at a precise byte, which the service does not do on
demand. Everything else talks to the reference service; the proxy tests put a
real CONNECT proxy in front of it.
"""

import select
import socket
import threading

import pytest

from ansible_collections.automation.service.plugins.module_utils._client import Client
from ansible_collections.automation.service.plugins.module_utils._errors import (
    ConfigError, ConnectionFailure, OutcomeUnknown,
)

from .helpers import connect_as


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


def test_a_loop_of_requests_uses_one_connection(service):
    """One keep-alive session per service and credentials in a process: the
    service sees every request of several clients on one TCP connection."""
    mark = service.mark()
    for _item in range(5):
        client = connect_as(service, service_auth='basic')
        client.request('GET', 'me')
    entries = [e for e in service.since(mark) if e['path'] == '/api/v2/me/']
    assert len(entries) == 5
    assert len(set(e['conn'] for e in entries)) == 1, entries


def test_other_credentials_get_another_session():
    first = Client({'service_url': 'https://svc.example.com', 'service_username': 'a'})
    second = Client({'service_url': 'https://svc.example.com', 'service_username': 'b'})
    again = Client({'service_url': 'https://svc.example.com', 'service_username': 'a'})
    assert first.session is again.session
    assert first.session is not second.session


def test_the_session_keeps_no_cookies_of_its_own(service):
    """Cookies travel only in the headers the auth method sets: a login's
    cookies never leak into another task's requests through the session."""
    client = connect_as(service, service_auth='session', session_cache=False)
    assert client.auth.state['session_id']
    assert len(client.session.cookies) == 0


class ConnectProxy:
    """A real HTTP CONNECT proxy (a thread per tunnel) that records what it was asked."""

    def __init__(self, refuse=False):
        self.refuse = refuse
        self.asked = []
        self.listener = socket.create_server(('127.0.0.1', 0))
        self.url = 'http://127.0.0.1:%d' % self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _addr = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._tunnel, args=(client,), daemon=True).start()

    def _tunnel(self, client):
        with client:
            head = b''
            while b'\r\n\r\n' not in head:
                chunk = client.recv(4096)
                if not chunk:
                    return
                head += chunk
            request_line = head.split(b'\r\n')[0].decode()
            self.asked.append(request_line)
            method, authority, _version = request_line.split(' ')
            if self.refuse or method != 'CONNECT':
                client.sendall(b'HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n')
                return
            host, port = authority.rsplit(':', 1)
            with socket.create_connection((host, int(port))) as upstream:
                client.sendall(b'HTTP/1.1 200 Connection established\r\n\r\n')
                pair = {client: upstream, upstream: client}
                while True:
                    ready, _w, _x = select.select(list(pair), [], [], 10)
                    if not ready:
                        return
                    for sock in ready:
                        data = sock.recv(65536)
                        if not data:
                            return
                        pair[sock].sendall(data)

    def close(self):
        self.listener.close()


@pytest.fixture
def proxy(monkeypatch):
    made = []

    def make(refuse=False, no_proxy=''):
        made.append(ConnectProxy(refuse))
        monkeypatch.setenv('https_proxy', made[-1].url)
        monkeypatch.setenv('no_proxy', no_proxy)
        return made[-1]
    yield make
    for one in made:
        one.close()


def test_requests_go_through_the_proxy_tunnel_the_environment_names(service, proxy):
    through = proxy()
    client = connect_as(service, service_auth='basic')
    assert client.request('GET', 'me')['results'][0]['username'] == service.admin_username
    authority = service.url.split('://', 1)[1].rstrip('/')
    assert through.asked and set(line.rsplit(' ', 1)[0] for line in through.asked) == {'CONNECT %s' % authority}


def test_no_proxy_sends_the_request_directly(service, proxy):
    bypassed = proxy(no_proxy='127.0.0.1,localhost')
    connect_as(service, service_auth='basic').request('GET', 'me')
    assert bypassed.asked == []


def test_a_proxy_that_refuses_the_tunnel_is_a_clear_error_and_nothing_is_sent(service, proxy):
    refusing = proxy(refuse=True)
    with pytest.raises(ConnectionFailure, match='Cannot connect to .*403'):
        connect_as(service, service_auth='basic', request_retries=0).request('POST', 'hosts', json_body={})
    assert len(refusing.asked) == 1
