"""OAuth2 in the auth layer against the live reference service: a token by
password grant (cached, refreshed, obtained again when revoked) and the
messages for expired, revoked, read-scoped, refused and wrongly configured tokens.

Request and password-check counts come from the service's own request log.
"""

import os
import time
import uuid

import pytest

from ansible_collections.automation.service.plugins.module_utils._errors import AuthError

from .helpers import connect_as, mint_token

TOKEN_POST = ('POST', '/api/o/token/')


def me(client):
    return client.get('me')['results'][0]['username']


def grant_options(app, **given):
    options = {'service_client_id': app['client_id'], 'service_client_secret': app.get('client_secret')}
    options.update(given)
    return options


def token_posts(entries):
    return [e for e in entries if (e['method'], e['path']) == TOKEN_POST]


@pytest.fixture(scope='module')
def app(service):
    return service.create_application()


def test_auto_picks_password_grant_and_caches_the_token(service, app, isolated_cache):
    mark = service.mark()
    client = connect_as(service, **grant_options(app))
    assert me(client) == service.admin_username
    entries = service.since(mark)
    assert len(token_posts(entries)) == 1
    assert [e['auth'] for e in entries if e['path'] == '/api/v2/me/'] == ['bearer']
    # the client secret and the user's password are checked once, by the grant
    assert sum(e['password_checks'] for e in entries) == 2
    # the next task reuses the cached token: one request, no password check
    mark = service.mark()
    assert me(connect_as(service, **grant_options(app))) == service.admin_username
    entries = service.since(mark)
    assert len(entries) == 1 and entries[0]['auth'] == 'bearer' and entries[0]['password_checks'] == 0
    for name in os.listdir(str(isolated_cache)):
        text = open(os.path.join(str(isolated_cache), name)).read()
        assert service.admin_password not in text and app['client_secret'] not in text


def test_public_client_sends_its_id_in_the_body(service):
    public = service.create_application(client_type='public')
    assert me(connect_as(service, service_client_id=public['client_id'])) == service.admin_username


def test_token_near_expiry_is_refreshed(service_factory):
    svc = service_factory(ACCESS_TOKEN_EXPIRE_SECONDS=31)  # stale for the client 30 s early
    application = svc.create_application()
    connect_as(svc, **grant_options(application))
    time.sleep(1.2)
    mark = svc.mark()
    assert me(connect_as(svc, **grant_options(application))) == svc.admin_username
    posts = token_posts(svc.since(mark))
    # one refresh grant: only the client secret is checked, not the user's password
    assert len(posts) == 1 and posts[0]['password_checks'] == 1


def test_revoked_cached_token_is_obtained_again(service, app):
    name, password = service.new_user()
    connect_as(service, service_username=name, service_password=password, **grant_options(app))
    service.manage('revoke_oauth2_tokens', '--user', name, '--all')
    mark = service.mark()
    client = connect_as(service, service_username=name, service_password=password, **grant_options(app))
    assert me(client) == name
    entries = service.since(mark)
    assert [(e['method'], e['path'], e['status']) for e in entries] == [
        ('GET', '/api/v2/me/', 401), ('POST', '/api/o/token/', 200), ('GET', '/api/v2/me/', 200)]


def test_wrong_client_secret(service, app):
    with pytest.raises(AuthError, match='client secret .service_client_secret. is wrong'):
        connect_as(service, **grant_options(app, service_client_secret='wrong'))


def test_wrong_user_password(service, app):
    with pytest.raises(AuthError, match='rejected the username or password of user'):
        connect_as(service, **grant_options(app, service_password='wrong'))


def test_application_without_password_grant(service):
    code_app = service.create_application(grant='authorization-code', redirect_uris='https://client.example.com/cb')
    with pytest.raises(AuthError, match='does not allow the password grant'):
        connect_as(service, **grant_options(code_app))


def test_external_user_refused_names_the_setting(service, app):
    name, password = service.new_user()
    service.make_external(name)
    with pytest.raises(AuthError, match='ALLOW_OAUTH2_FOR_EXTERNAL_USERS'):
        connect_as(service, service_username=name, service_password=password, **grant_options(app))


def test_expired_token_dict_says_expired(service_factory):
    svc = service_factory(ACCESS_TOKEN_EXPIRE_SECONDS=1)
    token = mint_token(svc)
    time.sleep(1.5)
    client = connect_as(svc, service_username=None, service_password=None, service_token=token)
    mark = svc.mark()
    with pytest.raises(AuthError, match='it expired at'):
        client.get('me')
    assert len(svc.since(mark)) == 1


def test_revoked_token_dict_says_revoked(service):
    token = mint_token(service)
    connect_as(service, service_auth='basic').request('DELETE', 'tokens/%d' % token['id'])
    client = connect_as(service, service_username=None, service_password=None, service_token=token)
    mark = service.mark()
    with pytest.raises(AuthError, match='it was revoked'):
        client.get('me')
    assert len(service.since(mark)) == 1


def test_read_scoped_application_token_writing(service, app):
    client = connect_as(service, service_auth='basic')
    token = client.request('POST', 'applications/%d/tokens' % app['id'], json_body={'scope': 'read'})
    reader = connect_as(service, service_username=None, service_password=None, service_token=token)
    with pytest.raises(Exception, match='The token has read scope'):
        reader.request('POST', 'organizations', json_body={'name': 'never-' + uuid.uuid4().hex[:6]})
