"""The client's HTTP against the reference service: keep-alive, and a real CONNECT proxy
in front of the service."""

import select
import socket
import threading

import pytest

from ansible_collections.automation.service.plugins.module_utils._errors import ConnectionFailure

from .helpers import connect_as


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
