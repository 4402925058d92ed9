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
        options are applied to the copy. The task returns the id of the object copied as C(copied_from), and
        C(copied) as awx.awx does, V(true) when a copy was made and V(false) when the object existed.
      - The copy keeps what the service keeps at copy (a job template's credentials, labels and survey, an
        inventory's hosts and groups, a workflow's nodes). When the object exists, the option is not used and the
        task warns.
      - The copy is made only once every name the task gives for the object itself (its references, credentials,
        labels, instance groups) is found; a name that is not found fails the task and no copy is left behind.
    type: str
'''
