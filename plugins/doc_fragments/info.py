# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # The filters every *_info module takes.
    DOCUMENTATION = r'''
options:
  id:
    description:
      - Only the object with this id (a positive integer).
    type: raw
  query:
    description:
      - >-
        More filters, as the service's query string takes them, for example C({"name__icontains": "web"}) or
        C({"order_by": "-id"}). Lists are sent comma-separated (for C(__in) lookups), booleans as C(true)/C(false).
    type: dict
notes:
  - Every page is read; all filters given must match.
'''
