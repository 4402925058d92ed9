# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # awx.awx's custom_virtualenv, taken so that its playbooks run, and ignored.
    DOCUMENTATION = r'''
options:
  custom_virtualenv:
    description:
      - Taken for awx.awx's playbooks and ignored, with a warning when given. The service shows this field but no
        longer takes it (execution environments replaced custom virtualenvs).
    type: str
'''
