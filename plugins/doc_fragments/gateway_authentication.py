# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # The modules of the platform gateway's authentication objects, after ansible.platform's.
    DOCUMENTATION = r'''
options: {}
notes:
  - The options, their defaults and their meaning are those of ansible.platform's module of the same name, as of
    its release 2.6.20250924 (commit 7ea604569395a5b8e89097ffd5dcc94c4f16ecaa; the same in 2.5.20250702). The
    fields the gateway keeps and the checks it makes are django-ansible-base's (C(ansible_base.authentication),
    2025.12.3) and the platform gateway's.
'''
