# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Workflow jobs: what a workflow launch may carry, waiting for the workflow
job, and finding one of its nodes (by identifier) and the job or approval it started."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

from ansible_collections.automation.service.plugins.module_utils import _jobs
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError

# launch field -> the workflow job template's flag that lets it be given at launch
PROMPTS = (
    ('inventory', 'ask_inventory_on_launch'),
    ('limit', 'ask_limit_on_launch'),
    ('scm_branch', 'ask_scm_branch_on_launch'),
    ('extra_vars', 'ask_variables_on_launch'),
    ('labels', 'ask_labels_on_launch'),
    ('job_tags', 'ask_tags_on_launch'),
    ('skip_tags', 'ask_skip_tags_on_launch'),
)


def check_prompts(template_name, launch_info, fields):
    """Refuse, before launching, the values the workflow does not prompt for (extra_vars also go
    through a survey)."""
    _jobs.refuse_unprompted(template_name, launch_info, fields, 'workflow job template', PROMPTS)


def failed_nodes_tail(client, workflow_job):
    """Which nodes failed, and the last lines of the output of the last failed job."""
    nodes = list(client.iterate('workflow_jobs/%d/workflow_nodes' % workflow_job['id']))
    lines, last_job = [], None
    for node in nodes:
        run = (node.get('summary_fields') or {}).get('job') or {}
        if run.get('status') in _jobs.FAILED:
            lines.append('node %s: %s %d %s' % (node.get('identifier'), run.get('type', 'job'), run['id'], run['status']))
            if run.get('type', 'job') == 'job':
                last_job = run['id']
    if last_job is not None:
        tail = _jobs.stdout_tail(client, last_job)
        if tail:
            lines.append('Last lines of job %d:\n%s' % (last_job, tail))
    return '\n'.join(lines)


WORKFLOW_JOB = _jobs.WORKFLOW_JOB._replace(tail=failed_nodes_tail)
APPROVAL = _jobs.Kind('workflow_approvals', 'Workflow approval', None, 'workflow_job_id', 'job')


def kind_of(node):
    """The kind of run a node started: a job, or a workflow approval."""
    run = (node.get('summary_fields') or {}).get('job') or {}
    if run.get('type') == 'workflow_approval' or '/workflow_approvals/' in (node.get('related') or {}).get('job', ''):
        return APPROVAL
    return _jobs.JOB


def find_node(nodes, name):
    """The node known as ``name``: its identifier, else (as awx.awx looks nodes up) the name of
    what it runs. None when no node is known so."""
    for node in nodes:
        if node.get('identifier') == name:
            return node
    named = [n for n in nodes if ((n.get('summary_fields') or {}).get('unified_job_template') or {}).get('name') == name]
    if len(named) > 1:
        raise ConfigError('More than one node of the workflow runs %r: name the node by its identifier.' % name)
    return named[0] if named else None


def wait_for_node(client, workflow_job_id, name, timeout, interval, sleep=time.sleep, clock=time.time,
                  monitoring='Workflow Node'):
    """Poll until the node ``name`` of the workflow job has started its job or approval; returns
    the node. Fails when there is no such node, when it will not run, or after ``timeout`` seconds.
    A workflow job's nodes are made at launch: a node it lacks never comes, so that fails at once
    where awx.awx waits for the timeout; both messages hold awx.awx's words, naming ``monitoring``
    (``Workflow Node`` or ``Workflow Approval``)."""
    if interval <= 0:
        raise ConfigError('interval must be more than 0 seconds.')
    awx_words = 'Monitoring of %s - %s aborted due to timeout' % (monitoring, name)
    deadline = None if timeout is None else clock() + timeout
    while True:
        workflow_job = _jobs.get_job(client, workflow_job_id, WORKFLOW_JOB)
        nodes = list(client.iterate('workflow_jobs/%d/workflow_nodes' % workflow_job_id))
        node = find_node(nodes, name)
        if node is None:
            known = ', '.join(sorted(str(n.get('identifier')) for n in nodes))
            raise ConfigError('%s: workflow job %d has no node %r (its nodes: %s).'
                              % (awx_words, workflow_job_id, name, known or 'none'))
        if node.get('job'):
            return node
        if node.get('do_not_run') or workflow_job.get('status') in _jobs.FINISHED:
            raise _jobs.JobFailed('Node %r of workflow job %d will not run: the workflow took another path (workflow job %s).'
                                  % (name, workflow_job_id, workflow_job.get('status')),
                                  dict(workflow_job_id=workflow_job_id, node=node))
        if deadline is not None and clock() >= deadline:
            raise _jobs.JobTimeout('%s: node %r of workflow job %d has not started after waiting %s seconds; '
                                   'the workflow job is %s.' % (awx_words, name, workflow_job_id, timeout,
                                                                workflow_job.get('status')),
                                   dict(workflow_job_id=workflow_job_id, node=node))
        sleep(interval if deadline is None else min(interval, max(0.0, deadline - clock())))


def remaining(timeout, started, clock=time.time):
    return None if timeout is None else max(0.0, timeout - (clock() - started))
