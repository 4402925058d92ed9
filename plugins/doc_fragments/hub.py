# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # What every Automation Hub module shares: ansible.hub's connection options (declared in
    # module_utils/_options.py, HUB_OPTIONS, HUB_ENVIRONMENT, HUB_ALIASES; a unit test checks them against this),
    # each the Hub's name of a shared connection option of the fragment auth, and where the Hub's API is.
    # A Hub module lists this fragment before automation.service.auth and automation.service.attributes: its
    # validate_certs (with ansible.hub's alias) and its action_group (with the group hub) are the ones documented.
    DOCUMENTATION = r'''
options:
  ah_host:
    description:
      - ansible.hub's name of O(service_url), the URL of the Automation Hub (a standalone Hub), or of the platform
        gateway in front of it.
      - Given in the task, it is taken over O(service_url); else the environment variable E(AH_HOST), then those
        of O(service_url).
      - Unlike ansible.hub, there is no default host; only the Hub modules read E(AH_HOST) and the other E(AH_*)
        variables.
    type: str
    aliases: [ah_hostname]
  ah_username:
    description:
      - ansible.hub's name of O(service_username). Given in the task, it is taken over O(service_username); else
        the environment variable E(AH_USERNAME), then those of O(service_username).
    type: str
  ah_password:
    description:
      - ansible.hub's name of O(service_password). Given in the task, it is taken over O(service_password); else
        the environment variable E(AH_PASSWORD), then those of O(service_password).
    type: str
  ah_token:
    description:
      - ansible.hub's name of O(service_token), the Hub's API token, as a string or as the dict the
        M(automation.service.ah_token) module returns (its C(token) is used).
      - On a standalone Hub it is sent as C(Authorization) C(Token) (galaxy-ng's token); behind a platform gateway,
        the token is the gateway's (made with M(automation.service.token)), sent as a bearer token.
      - Given in the task, it is taken over O(service_token); else the environment variable E(AH_API_TOKEN), then
        those of O(service_token).
    type: raw
  ah_path_prefix:
    description:
      - Where a standalone Hub serves its API, C(/api/<ah_path_prefix>/) (galaxy-ng's C(GALAXY_API_PATH_PREFIX)).
        A value starting with C(/api/) is the whole path.
      - Behind a platform gateway, the Hub's API is where the gateway says (C(/api/galaxy/)), whatever is given.
      - If not set, the environment variable E(GALAXY_API_PATH_PREFIX), else V(galaxy).
    type: str
  validate_certs:
    description:
      - Verify the service's TLS certificate. Defaults to V(true); turn it off only for testing.
      - Environment variables E(AH_VERIFY_SSL) (for the Hub modules only), E(SERVICE_VERIFY_SSL),
        E(CONTROLLER_VERIFY_SSL), E(TOWER_VERIFY_SSL), E(GATEWAY_VERIFY_SSL), E(AAP_VALIDATE_CERTS).
      - The alias C(ah_verify_ssl) is ansible.hub's name.
    type: bool
    aliases: [aap_validate_certs, gateway_validate_certs, ah_verify_ssl]
attributes:
  action_group:
    description: >-
      Use C(group/automation.service.api) in C(module_defaults) to set the connection options once, or
      C(group/automation.service.hub) (ansible.hub's group, the Hub modules alone) for ansible.hub's C(ah_*) options.
    support: full
    membership:
      - automation.service.api
      - automation.service.hub
notes:
  - B(Needs Automation Hub) - a standalone Hub (galaxy-ng), or the Hub behind an Automation Platform 2.5 to 2.7
    platform gateway, whose API the gateway serves at C(/api/galaxy/). On AWX 24, which has none, the task fails
    before it writes anything, and says so.
  - Where the Hub is, is found once and kept in the session cache with the service's layout - a gateway lists its
    APIs at C(GET /api/); a standalone Hub answers C(GET /api/) with a 404, and its C(/api/<ah_path_prefix>/) in
    its own way.
  - On a standalone Hub, a username and password are sent with every request (Basic authentication; O(service_auth)
    V(auto) picks it there) and a token in the C(Token) scheme. Behind a gateway, every method the gateway takes
    works (see O(service_auth)). The environment variable E(AH_REQUEST_TIMEOUT) is read before those of
    O(request_timeout).
  - The options, their aliases and defaults are those of ansible.hub's module of the same name, as of its release
    1.0.0; the differences are said in the module's notes.
'''
