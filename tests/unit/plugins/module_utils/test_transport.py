"""The HTTP/1.1 exchange of _transport, byte by byte, and through a real proxy.

The answers below are written by a small socket server in this file, not by
the reference service: they are the framings (chunks, interim answers, folded
or repeated fields, an answer cut at a precise byte) that the service does not
produce on demand. Everything the service does produce is covered by the live
tests; the proxy tests put a real CONNECT proxy in front of the real service.
"""

import select
import socket
import threading

import pytest

from ansible_collections.automation.service.plugins.module_utils import _transport
from ansible_collections.automation.service.plugins.module_utils._errors import ConnectionFailure

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


def exchange(server, method='GET', path='/api/v2/ping/', body=None, headers=None, timeout=5):
    return _transport.exchange(method, server.url + path, body, headers or {'Accept': 'application/json'},
                               timeout, None)


def test_request_is_one_http11_message_with_host_length_and_close():
    server = OneAnswer(b'HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{"id":1}')
    answer = exchange(server, 'POST', '/api/v2/hosts/?name=a b&x=\xe9', b'{"n":1}', {'Accept': 'application/json'})
    head, _sep, body = server.request.partition(b'\r\n\r\n')
    lines = head.split(b'\r\n')
    assert lines[0] == b'POST /api/v2/hosts/?name=a%20b&x=%C3%A9 HTTP/1.1'
    port = server.url.rsplit(':', 1)[1]
    assert ('Host: 127.0.0.1:%s' % port).encode() in lines
    assert b'Content-Length: 7' in lines and b'Connection: close' in lines
    assert body == b'{"n":1}'
    assert (answer.status, answer.json()) == (201, {'id': 1})


def test_chunked_body_with_extensions_and_trailer_is_joined():
    server = OneAnswer(b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n'
                       b'4;note=x\r\n{"ok\r\n5\r\n": tr\r\n2\r\nue\r\n1\r\n}\r\n0\r\nX-Trailer: 1\r\n\r\n')
    assert exchange(server).json() == {'ok': True}


def test_interim_answers_are_skipped_and_folded_fields_joined():
    server = OneAnswer(b'HTTP/1.1 100 Continue\r\n\r\n'
                       b'HTTP/1.1 200 OK\r\nX-Folded: one\r\n two\r\nContent-Length: 2\r\n\r\n{}')
    answer = exchange(server)
    assert answer.status == 200
    assert answer.headers.get('x-folded') == 'one two'


def test_body_without_length_runs_to_the_end_of_the_connection():
    server = OneAnswer(b'HTTP/1.0 200 OK\r\nContent-Type: text/plain; charset="ISO-8859-1"\r\n\r\ncaf\xe9')
    answer = exchange(server)
    assert answer.text == 'caf\u00e9'
    assert answer.headers.get_content_charset() == 'iso-8859-1'


def test_repeated_fields_are_all_kept_and_cookies_read_from_them():
    server = OneAnswer(b'HTTP/1.1 302 Found\r\nSet-Cookie: csrftoken=abc; Path=/\r\n'
                       b'Set-Cookie: svc_session_id=xyz; HttpOnly; Path=/\r\nLocation: /x\r\nContent-Length: 0\r\n\r\n')
    answer = exchange(server)
    assert len(answer.headers.get_all('set-cookie')) == 2
    assert 'LOCATION' in answer.headers
    assert (answer.cookies.get('csrftoken'), answer.cookies.get('svc_session_id')) == ('abc', 'xyz')


@pytest.mark.parametrize('status', [204, 304])
def test_no_body_statuses_return_without_waiting_for_the_connection_to_end(status):
    # The server holds the connection open longer than the timeout: waiting for
    # a body that cannot come would end in a timeout instead of the answer.
    server = OneAnswer(b'HTTP/1.1 %d X\r\n\r\n' % status, hold=4)
    assert exchange(server, 'DELETE', timeout=1).status == status


@pytest.mark.parametrize('answer, words', [
    (b'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{"a"', 'ended after 4 of 10 bytes'),
    (b'', 'closed without an answer'),
    (b'<html>proxy error</html>\r\n\r\n', 'does not start with an HTTP/1.x status line'),
    (b'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n', 'ended inside its header'),
    (b'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', 'invalid Content-Length'),
    (b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'invalid chunk size'),
    (b'HTTP/1.1 200 OK\r\nBroken header line\r\n\r\n', 'malformed header line'),
])
def test_a_broken_answer_means_the_request_may_have_been_processed(answer, words):
    with pytest.raises(_transport.MaybeSent, match=words):
        exchange(OneAnswer(answer), 'POST', body=b'{}')


def test_nothing_listening_means_not_sent():
    listener = socket.create_server(('127.0.0.1', 0))
    port = listener.getsockname()[1]
    listener.close()
    with pytest.raises(_transport.NotSent):
        _transport.exchange('POST', 'http://127.0.0.1:%d/api/v2/hosts/' % port, b'{}', {}, 2, None)


@pytest.mark.parametrize('value, words', [
    ('a\r\nX-Injected: 1', 'line break'),
    ('\u20ac', 'cannot carry'),
])
def test_a_header_that_cannot_be_sent_is_refused_before_connecting(value, words):
    with pytest.raises(_transport.BadRequest, match=words):
        _transport.exchange('GET', 'http://127.0.0.1:9/', None, {'Authorization': value}, 1, None)


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
    assert through.asked and set(through.asked) == {'CONNECT %s HTTP/1.1' % authority}


def test_no_proxy_sends_the_request_directly(service, proxy):
    bypassed = proxy(no_proxy='127.0.0.1,localhost')
    connect_as(service, service_auth='basic').request('GET', 'me')
    assert bypassed.asked == []


def test_a_proxy_that_refuses_the_tunnel_is_a_clear_error_and_nothing_is_sent(service, proxy):
    refusing = proxy(refuse=True)
    with pytest.raises(ConnectionFailure, match='proxy answered 403 to CONNECT'):
        connect_as(service, service_auth='basic', request_retries=0).request('POST', 'hosts', json_body={})
    assert len(refusing.asked) == 1
