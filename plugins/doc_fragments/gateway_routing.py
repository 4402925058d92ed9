# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # The modules of the platform gateway's routing objects, after ansible.platform's.
    DOCUMENTATION = r'''
options:
  name:
    description:
      - The name of the object, unique among those of its kind at the gateway; or the id of an existing one.
    type: str
    required: true
  new_name:
    description:
      - A new name for the object (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  state:
    description:
      - V(present) creates or updates the object, V(absent) deletes it.
      - V(exists) creates the object when it is missing and leaves one found as it is.
      - V(enforced) is V(present), and the fields this module has an option for that are not given go back to the
        gateway's defaults (as its OPTIONS says them; see the notes).
    type: str
    choices: [present, absent, exists, enforced]
    default: present
notes:
  - B(Needs an Automation Platform gateway) (2.5 to 2.7). On AWX 24, which has no gateway, the task fails before it
    reads or writes anything, and says so.
  - The options, their defaults and their meaning are those of ansible.platform's module of the same name, as of
    its release 2.6.20250924 (commit 7ea604569395a5b8e89097ffd5dcc94c4f16ecaa). Options left out are not sent; the
    gateway keeps what it has, or gives a new object its own default (with O(state=enforced), see the notes, an
    existing object goes back to those defaults).
  - An object another one refers to (an HTTP port or a service cluster a route uses, a service type a cluster is
    of) is given by name or id.
'''

    # The options routes, services and UI plugin routes share: where the gateway sends the traffic it takes.
    TRAFFIC = r'''
options:
  http_port:
    description:
      - The gateway's port the object is served on (M(automation.service.http_port)), by name or id. Needed to
        create one.
    type: str
  service_cluster:
    description:
      - The cluster the gateway forwards the traffic to (M(automation.service.service_cluster)), by name or id.
        Needed to create one.
    type: str
  is_service_https:
    description:
      - Whether the cluster's nodes answer over HTTPS.
    type: bool
    default: false
  service_port:
    description:
      - The port of the cluster's nodes the traffic goes to. Needed to create one.
    type: int
  node_tags:
    description:
      - Tags separated by commas; only the cluster's nodes with one of them get the traffic.
    type: str
  request_timeout_seconds:
    description:
      - How long, in seconds, the gateway waits for the whole answer to a request it forwards; unset, the gateway's
        default.
      - Automation Platform 2.7 and later (their published API schema); a gateway that does not take it (2.6 and
        earlier) fails the task before anything is written, rather than leave it unset unsaid. Asked of the
        gateway when the object is new (the OPTIONS of its list), else read from the object.
    type: int
  idle_timeout_seconds:
    description:
      - How long, in seconds, the gateway keeps a forwarded connection that carries nothing; unset, the gateway's
        default.
      - Automation Platform 2.7 and later, as O(request_timeout_seconds).
    type: int
'''

    # The options routes and services share, which a UI plugin route's gateway sets itself.
    FORWARDED = r'''
options:
  service_path:
    description:
      - The path on the cluster's nodes the traffic goes to. Needed to create one.
    type: str
  enable_gateway_auth:
    description:
      - Whether the gateway adds its token to the requests it forwards. The gateway's default for a new one is
        V(true).
    type: bool
  is_internal_route:
    description:
      - Whether only the platform's services may use it.
    type: bool
  enable_mtls:
    description:
      - Whether the gateway asks the clients of it for a certificate (mutual TLS), an option of ansible.platform 2.7; the
        gateway's default for a new one is V(false).
    type: bool
'''
