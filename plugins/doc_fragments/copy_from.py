# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # awx.awx's copy_from, for the resources the service copies (POST <resource>/<id>/copy/).
    DOCUMENTATION = r'''
options:
  copy_from:
    description:
      - When the object named does not exist, it is first made as a copy of this one (by name or id), then the other
        options are applied to the copy. The task returns C(copied) (whether a copy was made, as awx.awx) and the id of
        the object copied as C(copied_from).
      - The copy keeps what the service keeps at copy (a job template's credentials, labels and survey, an
        inventory's hosts and groups, a workflow's nodes). When the object exists, the option is not used and the
        task warns.
    type: str
'''
