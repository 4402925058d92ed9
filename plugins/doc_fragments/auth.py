# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # The connection options declared in module_utils/_options.py (OPTIONS, DEFAULTS): their types, aliases,
    # choices, environment variables and defaults here are checked against that declaration by a unit test.
    DOCUMENTATION = r'''
requirements:
  - requests (in the Python that runs C(ansible-playbook); on a remote host that runs the module, there too)
options:
  service_url:
    description:
      - Base URL of the service, for example V(https://svc.example.com). A bare host name gets V(https://).
      - A path prefix (a service behind a reverse proxy under a sub-path) is kept.
      - Behind an Automation Platform 2.5 to 2.7 platform gateway, the gateway's URL (see O(service_layout)).
      - If not set, the environment variables E(SERVICE_URL), E(CONTROLLER_HOST), E(TOWER_HOST), E(GATEWAY_HOSTNAME),
        E(AAP_HOSTNAME) are used, in that order, then the key C(host) of O(service_config_file).
      - The aliases C(aap_hostname) and C(gateway_hostname), E(GATEWAY_HOSTNAME) and E(AAP_HOSTNAME) are the names of
        ansible.platform (C(aap_hostname) and E(AAP_HOSTNAME) those of awx.awx's development branch too).
    type: str
    aliases: [controller_host, aap_hostname, gateway_hostname]
  service_layout:
    description:
      - Where the service serves its API. V(awx) is AWX 24 (C(/api/v2/), its login at C(/api/login/)).
        V(gateway) is an Automation Platform 2.5 to 2.7 platform gateway in front of the controller, with the
        controller's API at C(/api/controller/v2/), the gateway's own at C(/api/gateway/v1/), where the session
        login (C(login/), cookie C(gateway_sessionid)), C(me/) and personal tokens (C(tokens/)) are.
      - V(auto) (the default) sends requests as AWX 24 lays them out; the first 404 to one of them asks C(GET /api/)
        once, without credentials, and sends the request again where the layout says; a gateway
        answers with its C(apis), AWX with its C(current_version). The answer is kept in the session cache for a day
        (per O(service_url), for every user and auth method), so later tasks and forks do not ask again; a task that
        gets a 404 with a layout from the cache asks once more, in case the service at that URL changed. An answer
        that is neither is taken as V(awx).
      - Endpoints such as C(hosts) go to the controller's API of the layout; absolute paths and the C(related)
        links the service returns are used as they are, except that on a gateway a path starting C(/api/v2/) goes to
        C(/api/controller/v2/).
      - Environment variable E(SERVICE_LAYOUT).
    type: str
    choices: [auto, awx, gateway]
  service_auth:
    description:
      - How to authenticate. V(auto) (the default) picks, in order, V(token) when O(service_token) is set,
        V(session) when O(service_session_id) is set, V(sso) when O(service_sso_backend) is set, V(token) by password
        grant when O(service_client_id) is set with a username and password, and V(session) for a username and
        password.
      - V(session) logs in once through C(/api/login/) (on a platform gateway C(/api/gateway/v1/login/)) and reuses
        the session across tasks through the session cache; V(basic) sends the password with every request (a
        platform gateway may have Basic turned off); V(token) sends O(service_token) as a bearer token.
      - V(sso) logs in through the service's single sign-on (C(/sso/login/<backend>/)) with the identity provider
        user O(service_username) and password O(service_password). It follows the redirects to the identity
        provider, fills in its login form (and one-time-code and consent pages), comes back to the service, and
        caches the session like V(session). No browser and no JavaScript; a page that needs JavaScript fails
        with its URL. With O(service_session_id) it uses that session as it is. Not supported through a platform
        gateway yet.
      - Environment variable E(SERVICE_AUTH).
    type: str
    choices: [auto, session, basic, token, sso]
  service_username:
    description:
      - Username of the service user.
      - With O(service_auth=sso), the user at the identity provider.
      - Environment variables E(SERVICE_USERNAME), E(CONTROLLER_USERNAME), E(TOWER_USERNAME), E(GATEWAY_USERNAME),
        E(AAP_USERNAME).
    type: str
    aliases: [controller_username, aap_username, gateway_username]
  service_password:
    description:
      - Password of O(service_username).
      - Environment variables E(SERVICE_PASSWORD), E(CONTROLLER_PASSWORD), E(TOWER_PASSWORD), E(GATEWAY_PASSWORD),
        E(AAP_PASSWORD).
    type: str
    aliases: [controller_password, aap_password, gateway_password]
  service_token:
    description:
      - OAuth2 bearer token, as a string or as the dictionary the P(automation.service.token#module) module returns.
      - On a platform gateway, a token the gateway made (its personal tokens); it works for the gateway's API and
        the controller's behind it.
      - Environment variables E(SERVICE_TOKEN), E(CONTROLLER_OAUTH_TOKEN), E(TOWER_OAUTH_TOKEN), E(GATEWAY_API_TOKEN),
        E(AAP_TOKEN), E(CONTROLLER_TOKEN), E(AAP_OAUTH_TOKEN).
      - The aliases C(controller_token) and C(aap_oauth_token), E(CONTROLLER_TOKEN) and E(AAP_OAUTH_TOKEN) are
        ansible.eda's names.
    type: raw
    aliases: [controller_oauthtoken, aap_token, gateway_token, controller_token, aap_oauth_token]
  service_client_id:
    description:
      - Client id of an OAuth2 application whose grant type is C(password). With O(service_username) and
        O(service_password) (and O(service_client_secret) for a confidential application) the collection obtains a
        token by password grant at C(/api/o/token/) (on a platform gateway C(/api/gateway/v1/o/token/), with an
        application of the gateway) and sends it as a bearer token.
      - O(service_auth=auto) chooses this when no O(service_token), O(service_session_id) or O(service_sso_backend)
        is set; with O(service_auth=token) it is used when O(service_token) is not set.
      - The token is kept in the session cache until shortly before it expires, then refreshed with its refresh
        token, or obtained again with the password when the service rejects it (revoked).
      - Environment variable E(SERVICE_CLIENT_ID).
    type: str
  service_client_secret:
    description:
      - Client secret of the OAuth2 application O(service_client_id), shown once when the application was
        created. Not needed for a public application.
      - Environment variable E(SERVICE_CLIENT_SECRET).
    type: str
  service_sso_backend:
    description:
      - Single sign-on backend name, as in the service's C(/sso/login/<backend>/), for example V(oidc) or V(saml).
      - Behind a platform gateway, the authenticator to log in through, among the enabled ones its login page
        lists, named by its slug, its name, or its type (V(oidc), V(saml), as on AWX 24) when only one
        authenticator of that type is enabled.
      - Used with O(service_auth=sso), and chosen by O(service_auth=auto) when set.
      - Environment variable E(SERVICE_SSO_BACKEND).
    type: str
  service_sso_idp:
    description:
      - Name of the SAML identity provider (the C(idp) parameter of C(/sso/login/saml/)), for backends that
        need one.
      - Not used behind a platform gateway, where each SAML authenticator names its identity provider.
      - Environment variable E(SERVICE_SSO_IDP).
    type: str
  service_sso_otp:
    description:
      - One-time code for an identity provider that asks for one after the password (multi-factor login).
      - Needed only when no cached session can be reused.
      - Environment variable E(SERVICE_SSO_OTP).
    type: str
  service_sso_allow_insecure_idp:
    description:
      - With O(service_auth=sso), allow filling the identity provider's login or one-time-code form when that form
        or its page is on plain C(http://), so that anyone on the network can read the password. For test
        identity providers only.
      - Whatever this says, the password and one-time code go only to the identity provider the service's own
        C(/sso/login/<backend>/) (a platform gateway's authenticator's login URL) redirected to (its scheme,
        host and port), and never through a form sent with GET (in the URL).
      - Defaults to V(false). Environment variable E(SERVICE_SSO_ALLOW_INSECURE_IDP).
    type: bool
  service_session_id:
    description:
      - A session cookie from a login made elsewhere (a browser, for example), used as it is and checked with
        C(/api/v2/me/).
      - Give it as C(NAME=VALUE), as the browser shows the cookie; a bare value works when the service names its
        session cookie before a login.
      - Environment variable E(SERVICE_SESSION_ID).
    type: str
  session_cache:
    description:
      - Reuse sessions across tasks and forks through files in the user's cache directory
        (C($XDG_CACHE_HOME/automation.service), else C(~/.cache/automation.service); E(SERVICE_CACHE_DIR)
        overrides it). Files are readable by their owner only.
      - Defaults to V(true). Environment variable E(SERVICE_SESSION_CACHE).
    type: bool
  validate_certs:
    description:
      - Verify the service's TLS certificate. Defaults to V(true); turn it off only for testing.
      - Environment variables E(SERVICE_VERIFY_SSL), E(CONTROLLER_VERIFY_SSL), E(TOWER_VERIFY_SSL),
        E(GATEWAY_VERIFY_SSL), E(AAP_VALIDATE_CERTS).
    type: bool
    aliases: [aap_validate_certs, gateway_validate_certs]
  ca_path:
    description:
      - PEM bundle of the CA certificates to trust, in place of the system's bundle.
      - Its aliases are ansible.platform's names; unlike ansible.platform, the bundle is read where the task runs
        (the controller, or the remote host that runs the module), and E(REQUESTS_CA_BUNDLE) is not read.
      - Environment variable E(SERVICE_CA_PATH).
    type: path
    aliases: [aap_ca_bundle, gateway_ca_bundle, ansible_platform_ca_bundle]
  request_timeout:
    description:
      - Seconds to wait for each answer. Defaults to V(10).
      - Environment variables E(SERVICE_REQUEST_TIMEOUT), E(CONTROLLER_REQUEST_TIMEOUT), E(TOWER_REQUEST_TIMEOUT),
        E(GATEWAY_REQUEST_TIMEOUT), E(AAP_REQUEST_TIMEOUT).
    type: float
    aliases: [aap_request_timeout, gateway_request_timeout]
  allow_insecure_http:
    description:
      - Allow sending a password, token or session over plain C(http://). Defaults to V(false).
      - Environment variable E(SERVICE_ALLOW_INSECURE_HTTP).
    type: bool
  request_retries:
    description:
      - How often to retry a request that can safely be sent again (GET, HEAD, OPTIONS, PUT, PATCH, DELETE) when the
        connection fails or the service answers 429, 502, 503 or 504. Waits grow exponentially with jitter, and a
        C(Retry-After) header is honoured.
      - A POST is retried only when the connection could not be made at all or the service answered 429 (it says it
        did not process the request); a POST whose answer is lost fails with a message saying the outcome is unknown.
      - Unset by default, so that time alone bounds the retries of a request that never reached the service and of
        one answered 429, 502, 503 or 504 (see O(request_retry_max_seconds)), and a service that restarts (an
        upgrade, a pod moved) is waited for instead of failing the task. When set, it bounds the number of retries
        too. A request whose answer was lost (no answer within O(request_timeout), a connection broken after
        sending) is sent again at most this many times, 3 when unset. Environment variable
        E(SERVICE_REQUEST_RETRIES).
    type: int
  request_retry_max_seconds:
    description:
      - Stop retrying once this many seconds have passed since the first attempt. Defaults to V(60).
      - Environment variable E(SERVICE_REQUEST_RETRY_MAX_SECONDS).
    type: float
  max_requests_in_flight:
    description:
      - The most requests to one service that the tasks running on the controller have in flight at once, counting
        together the forks of a run, the C(async) jobs forked from them, and every other run of the same user that
        shares the session cache directory. A request waits for its turn before it is sent, so a loop of hundreds
        of C(async) items never overwhelms the service.
      - Tasks that run as a module (on a remote host, or with C(become)) are not counted.
      - V(0) sets no bound. Defaults to V(4). Environment variable E(SERVICE_MAX_REQUESTS_IN_FLIGHT).
    type: int
  loop_reads:
    description:
      - Let the items of a C(loop) (and the C(async) items forked from one worker) share what they read. An
        object found by name is not asked for again, the names a loop resolves for every item (an inventory, an
        organization) are read once, and when a loop asks for many objects of one kind in one scope (the hosts
        of an inventory), the whole list is read at the largest page size and answers the following items.
      - A list is read only once it costs no more requests than the single look-ups already made; a name that
        a list held does not have is read once more from the service. A write of the task updates what it holds.
        Nothing is shared between tasks, hosts or plays, so a change made elsewhere is seen by the next task;
        during the loop, what the loop read stands. See the performance guide.
      - Tasks that run as a module (on a remote host, or with C(become)) share nothing.
      - With it, a plain C(loop) of M(automation.service.host) tasks that creates many hosts in one inventory
        creates them through the service's bulk endpoint, 100 a request, each item still reporting its own host
        (see the performance guide for the rule and what differs from one write per host).
      - Defaults to V(true). Environment variable E(SERVICE_LOOP_READS).
    type: bool
  service_config_file:
    description:
      - A YAML, JSON or INI file (as C(tower_cli.cfg)) with keys C(host), C(username), C(password),
        C(oauth_token), C(verify_ssl), C(request_timeout), C(ca_path), C(auth), C(session_id), C(session_cache),
        C(layout).
      - Its values are used for options set neither in the task nor in the environment.
      - Environment variables E(SERVICE_CONFIG_FILE), E(CONTROLLER_CONFIG_FILE), E(TOWER_CONFIG_FILE).
    type: path
    aliases: [controller_config_file]
notes:
  - Secrets (passwords, tokens, session ids) never appear in the task's output.
  - Needs the Python package C(requests) where the task runs, on the controller (the Python that runs
    ansible-playbook) or on the remote host that runs the module.
'''

    PLUGINS = r'''
options:
  service_url:
    env:
      - name: SERVICE_URL
      - name: CONTROLLER_HOST
      - name: TOWER_HOST
      - name: GATEWAY_HOSTNAME
      - name: AAP_HOSTNAME
    vars:
      - name: automation_service_url
  service_layout:
    env:
      - name: SERVICE_LAYOUT
    vars:
      - name: automation_service_layout
  service_auth:
    env:
      - name: SERVICE_AUTH
    vars:
      - name: automation_service_auth
  service_username:
    env:
      - name: SERVICE_USERNAME
      - name: CONTROLLER_USERNAME
      - name: TOWER_USERNAME
      - name: GATEWAY_USERNAME
      - name: AAP_USERNAME
    vars:
      - name: automation_service_username
  service_password:
    env:
      - name: SERVICE_PASSWORD
      - name: CONTROLLER_PASSWORD
      - name: TOWER_PASSWORD
      - name: GATEWAY_PASSWORD
      - name: AAP_PASSWORD
    vars:
      - name: automation_service_password
  service_token:
    env:
      - name: SERVICE_TOKEN
      - name: CONTROLLER_OAUTH_TOKEN
      - name: TOWER_OAUTH_TOKEN
      - name: GATEWAY_API_TOKEN
      - name: AAP_TOKEN
      - name: CONTROLLER_TOKEN
      - name: AAP_OAUTH_TOKEN
    vars:
      - name: automation_service_token
  service_client_id:
    env:
      - name: SERVICE_CLIENT_ID
  service_client_secret:
    env:
      - name: SERVICE_CLIENT_SECRET
  service_sso_backend:
    env:
      - name: SERVICE_SSO_BACKEND
    vars:
      - name: automation_service_sso_backend
  service_sso_idp:
    env:
      - name: SERVICE_SSO_IDP
    vars:
      - name: automation_service_sso_idp
  service_sso_otp:
    env:
      - name: SERVICE_SSO_OTP
    vars:
      - name: automation_service_sso_otp
  service_sso_allow_insecure_idp:
    env:
      - name: SERVICE_SSO_ALLOW_INSECURE_IDP
    vars:
      - name: automation_service_sso_allow_insecure_idp
  service_session_id:
    env:
      - name: SERVICE_SESSION_ID
    vars:
      - name: automation_service_session_id
  session_cache:
    env:
      - name: SERVICE_SESSION_CACHE
    ini:
      - section: automation_service
        key: session_cache
  validate_certs:
    env:
      - name: SERVICE_VERIFY_SSL
      - name: CONTROLLER_VERIFY_SSL
      - name: TOWER_VERIFY_SSL
      - name: GATEWAY_VERIFY_SSL
      - name: AAP_VALIDATE_CERTS
    ini:
      - section: automation_service
        key: validate_certs
    vars:
      - name: automation_service_validate_certs
  ca_path:
    env:
      - name: SERVICE_CA_PATH
    ini:
      - section: automation_service
        key: ca_path
    vars:
      - name: automation_service_ca_path
  request_timeout:
    env:
      - name: SERVICE_REQUEST_TIMEOUT
      - name: CONTROLLER_REQUEST_TIMEOUT
      - name: TOWER_REQUEST_TIMEOUT
      - name: GATEWAY_REQUEST_TIMEOUT
      - name: AAP_REQUEST_TIMEOUT
    ini:
      - section: automation_service
        key: request_timeout
  allow_insecure_http:
    env:
      - name: SERVICE_ALLOW_INSECURE_HTTP
  request_retries:
    env:
      - name: SERVICE_REQUEST_RETRIES
  request_retry_max_seconds:
    env:
      - name: SERVICE_REQUEST_RETRY_MAX_SECONDS
  max_requests_in_flight:
    env:
      - name: SERVICE_MAX_REQUESTS_IN_FLIGHT
  loop_reads:
    env:
      - name: SERVICE_LOOP_READS
  service_config_file:
    env:
      - name: SERVICE_CONFIG_FILE
      - name: CONTROLLER_CONFIG_FILE
      - name: TOWER_CONFIG_FILE
    ini:
      - section: automation_service
        key: config_file
'''
