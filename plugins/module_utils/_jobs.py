# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Jobs and other unified jobs (ad hoc commands): what a launch may carry, the
launch itself (never retried once it may have reached the service), waiting for
one to finish, and cancelling it."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import functools
import time
from collections import namedtuple

from ansible_collections.automation.service.plugins.module_utils._errors import (
    ApiError, ConfigError, NotFound, ServiceError,
)
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

# launch field -> the job template's flag that lets it be given at launch
PROMPTS = (
    ('limit', 'ask_limit_on_launch'),
    ('extra_vars', 'ask_variables_on_launch'),
    ('inventory', 'ask_inventory_on_launch'),
    ('credentials', 'ask_credential_on_launch'),
    ('job_tags', 'ask_tags_on_launch'),
    ('skip_tags', 'ask_skip_tags_on_launch'),
    ('verbosity', 'ask_verbosity_on_launch'),
    ('job_type', 'ask_job_type_on_launch'),
    ('scm_branch', 'ask_scm_branch_on_launch'),
    ('diff_mode', 'ask_diff_mode_on_launch'),
)
FINISHED = frozenset(('successful', 'failed', 'error', 'canceled'))
FAILED = frozenset(('failed', 'error', 'canceled'))
STDOUT_TAIL_LINES = 40

# A kind of unified job: its endpoint, its name in messages, the module and option
# that wait for it again, the key of the object in a module's result, the endpoint of
# the templates that launch it and their list of its runs, and ``tail(client, run)``
# when its output is read another way than from its stdout.
Kind = namedtuple('Kind', ['endpoint', 'label', 'wait_module', 'id_option', 'key', 'template_endpoint', 'runs', 'tail'],
                  defaults=(None, None, None))
JOB = Kind('jobs', 'Job', 'job_wait', 'job_id', 'job', 'job_templates', 'jobs')
AD_HOC_COMMAND = Kind('ad_hoc_commands', 'Ad hoc command', 'ad_hoc_command_wait', 'command_id', 'command')
WORKFLOW_JOB = Kind('workflow_jobs', 'Workflow job', None, 'workflow_job_id', 'job', 'workflow_job_templates',
                    'workflow_jobs')
PROJECT_UPDATE = Kind('project_updates', 'Project update', None, 'id', 'job')
INVENTORY_UPDATE = Kind('inventory_updates', 'Inventory update', None, 'id', 'job')


# awx.awx's messages when a job to cancel is missing or has finished (playbooks compare them).
CANCEL_MESSAGES = {
    'jobs': ('Unable to find job with id %s', 'Job is not running'),
    'ad_hoc_commands': ('Unable to find command with id %s', 'Ad Hoc Command is not running'),
}


class JobFailed(ServiceError):
    """The job finished, but not successfully; ``result`` holds its id, status and output."""

    def __init__(self, message, result):
        super(JobFailed, self).__init__(message)
        self.result = result


class JobTimeout(JobFailed):
    """The job was still running when the wait ran out."""


def not_prompted(launch_info, fields, prompts=None):
    """The names in ``fields`` that the template (GET /launch/) does not prompt for; extra_vars
    also go through an enabled survey (the service takes the survey's variables from them)."""
    flags = dict(prompts or PROMPTS)

    def prompted(name):
        survey = name == 'extra_vars' and launch_info.get('survey_enabled')
        return launch_info.get(flags[name], False) or survey

    return [name for name in fields if not prompted(name)]


def refuse_unprompted(template_name, launch_info, fields, kind='job template', prompts=None):
    """Refuse, before launching, the values the template does not prompt for: awx.awx's message and
    ``errors`` (playbooks compare them), then which flag would let each through."""
    refused = not_prompted(launch_info, fields, prompts)
    if not refused:
        return
    flags = dict(prompts or PROMPTS)
    them = 'it' if len(refused) == 1 else 'them'
    error = ConfigError(
        'Parameters specified which can not be passed into %s, see errors for details. %s %r does not prompt for %s '
        'at launch: the service would ignore %s. Leave %s out, or set %s on the %s.'
        % (kind, kind[0].upper() + kind[1:], template_name, ', '.join(refused), them, them,
           ', '.join(flags[name] for name in refused), kind))
    error.result = {'errors': ['The field %s was specified but the %s does not allow for it to be overridden' % (name, kind)
                               for name in refused]}
    raise error


def check_prompts(template_name, launch_info, fields):
    refuse_unprompted(template_name, launch_info, fields)
    if launch_info.get('inventory_needed_to_start') and 'inventory' not in fields:
        raise ConfigError('Job template %r has no inventory: give one with inventory.' % template_name)


def start_update(path, kind, listing, settle=None, changes=True):
    """The POST of ``path`` (a project's or an inventory source's update/), sent once. A broken connection after
    sending is reported as such: the update may have started, and asking again could run it twice. ``settle``
    and ``changes``: as a Write's (waiting for the update, and judging by how it ended)."""
    def lost(exc):
        exc.reword('The %s may or may not have started: the connection broke after the request was sent (%s). Do '
                   'not simply run the task again, that could start a second one. Look for it first: GET /api/v2/%s'
                   '?order_by=-created (or the service UI).' % (kind.label.lower(), exc.message, listing))

    return Write('POST', path, {}, expect=(202,), makes=True, lost=lost, settle=settle, changes=changes)


def _named(result, kind):
    """``result`` with the object under the name of its kind (project_update, ...) instead of job."""
    result = dict(result)
    if 'job' in result:
        result[kind.endpoint[:-1]] = result.pop('job')
    return result


def run_update(api, start_path, kind, listing, what, changed_if=None):
    """The work of project_update and inventory_source_update: ask whether ``what`` (a project or an
    inventory source, named in messages) can update, start the update once and, with the module's wait
    option, wait for it (timeout and interval options); ``changed_if(update)``: whether the finished update
    changed something (default: it did; one that failed or is still running did too). Says what the module
    returns."""
    if api.params['wait'] and not 0 < api.params['interval'] < float('inf'):
        raise ConfigError('interval must be a number of seconds more than 0.')
    if not api.client.get(start_path).get('can_update'):
        raise ConfigError('%s cannot be updated.' % what)
    key = kind.endpoint[:-1]

    def waited(update):
        api.returns(id=update['id'], status=update.get('status'), **{key: update})
        if not api.params['wait']:
            return update
        done = wait(api.client, update['id'], api.params['timeout'], api.params['interval'], kind=kind,
                    shape=functools.partial(_named, kind=kind))
        api.returns(**done)
        return done[key]

    # Started, it changed something; unless the task waits for it and the finished update says (changed_if).
    judged = api.params['wait'] and changed_if is not None and not api.check_mode
    api.apply(Plan(None, [start_update(start_path, kind, listing, settle=waited,
                                       changes=(lambda done: done is None or changed_if(done)) if judged else True)]))


def once(path, body, what, look_for):
    """The POST of a launch, sent once. A broken connection after sending is reported as such: the work may
    have started, and sending again could run it twice."""
    def lost(exc):
        exc.reword('The launch of %s may or may not have happened: the connection broke after the request was '
                   'sent (%s). Do not simply run the task again, that could start it a second time. Look for it '
                   'first: %s.' % (what, exc.message, look_for))

    return Write('POST', path, body, expect=(201,), makes=True, lost=lost)


def launch(template_id, body, kind=JOB):
    """The launch of a template, sent once (see once())."""
    template = '%s %d' % (kind.template_endpoint[:-1].replace('_', ' '), template_id)
    follow = ('wait for it with automation.service.%s' % kind.wait_module if kind.wait_module
              else 'follow it at /api/v2/%s/<id>/' % kind.endpoint)
    return once('%s/%d/launch' % (kind.template_endpoint, template_id), body, template,
                'GET /api/v2/%s/%d/%s/?order_by=-created (or the service UI), then %s'
                % (kind.template_endpoint, template_id, kind.runs, follow))


def stdout_tail(client, job_id, lines=STDOUT_TAIL_LINES, kind=JOB):
    """The last ``lines`` lines of the job's output ('' when it cannot be read)."""
    try:
        response = client.send('GET', '%s/%d/stdout' % (kind.endpoint, job_id), params={'format': 'txt'},
                               headers={'Accept': 'text/plain'})
    except ServiceError:
        return ''
    if response.status != 200:
        return ''
    return '\n'.join(response.text.splitlines()[-lines:])


def result_of(job, tail=None, key='job'):
    """The fields a module returns about ``job`` (the whole object under ``key``)."""
    data = dict((name, job.get(name)) for name in ('id', 'status', 'elapsed', 'started', 'finished'))
    data[key] = job
    if tail is not None:
        data['stdout'] = tail
    return data


# awx.awx's names of the kinds in its timeout message (playbooks compare it)
MONITORED = {'jobs': 'Job', 'workflow_jobs': 'Workflow Job', 'ad_hoc_commands': 'Ad Hoc Command'}


def wait(client, job_id, timeout, interval, sleep=time.sleep, clock=time.time, kind=JOB, output=None, again=None,
         monitoring=None, shape=None):
    """Poll the job (or other ``kind`` of unified job) every ``interval`` seconds until it
    finishes; returns result_of() the job with the tail of its output. Raises JobTimeout after
    ``timeout`` seconds (None: no limit) and JobFailed when the job did not succeed.
    ``output(client, job_id)`` reads the output (the job's stdout by default), ``again`` says
    how to follow it later; ``monitoring`` what awx.awx's timeout message names (``Job - 5``; by default the
    kind and the job's name, as awx.awx's launch modules name it). ``shape(result)`` puts the result in the
    form the module returns it, the result JobFailed carries too: the task's own result is merged under it
    where the failure is reported (ApiTask.execute)."""
    shape = shape or (lambda result: result)
    if interval <= 0:
        raise ConfigError('interval must be more than 0 seconds.')
    read_output = output or functools.partial(stdout_tail, kind=kind)
    if again is None:
        again = ('Wait for it again with automation.service.%s and %s %d.' % (kind.wait_module, kind.id_option, job_id)
                 if kind.wait_module else 'Follow it at GET /api/v2/%s/%d/ (or the service UI).' % (kind.endpoint, job_id))
    deadline = None if timeout is None else clock() + timeout
    while True:
        job = get_job(client, job_id, kind)
        if job.get('status') in FINISHED:
            break
        if deadline is not None and clock() >= deadline:
            named = monitoring or '%s - %s' % (MONITORED.get(kind.endpoint, kind.label), job.get('name'))
            raise JobTimeout('Monitoring of %s aborted due to timeout: %s %d is still %s after waiting %s seconds; it '
                             'goes on running on the service. %s'
                             % (named, kind.label, job_id, job.get('status'), timeout, again),
                             shape(result_of(job, key=kind.key)))
        sleep(interval if deadline is None else min(interval, max(0.0, deadline - clock())))
    tail = kind.tail(client, job) if kind.tail and not output else read_output(client, job_id)
    result = result_of(job, tail, kind.key)
    if job['status'] in FAILED:
        raise JobFailed('%s %d %s (%s). Last lines of its output:\n%s'
                        % (kind.label, job_id, job['status'], job.get('job_explanation') or 'see its output', result['stdout']),
                        shape(result))
    return shape(result)


def get_job(client, job_id, kind=JOB):
    """The job, or a clear error when there is none with that id."""
    try:
        return client.get('%s/%d' % (kind.endpoint, job_id))
    except ApiError as exc:
        if exc.status == 404:
            # awx.awx's words (playbooks compare them): "job", "project_update", "ad hoc command"...
            name = 'ad hoc command' if kind is AD_HOC_COMMAND else kind.endpoint.rstrip('s')
            raise ConfigError('Unable to wait on %s %d; that ID does not exist.' % (name, job_id))
        raise


def cancel(api, job_id, fail_if_not_running, kind=JOB, interval=None, timeout=None, sleep=time.sleep, clock=time.time):
    """Ask the service to cancel the job (or other ``kind``) when it can still be canceled;
    with ``interval``, then poll until it can no longer be (``timeout`` seconds at most,
    0 or None: no limit). Sets the task's id, status and changed."""
    api.returns(id=job_id)
    not_found, not_running = CANCEL_MESSAGES.get(kind.endpoint, ('%s %%s was not found.' % kind.label,
                                                                 '%s is not running' % kind.label))
    job = api.get_one(kind.endpoint, id=job_id)
    if job is None:
        raise NotFound(not_found % job_id)
    api.returns(status=job.get('status'))
    path = '%s/%s/cancel/' % (kind.endpoint, job_id)
    if not api.client.get(path).get('can_cancel'):
        if fail_if_not_running:
            raise ServiceError(not_running)     # its status is in the result
        return
    api.apply(Plan(None, [Write('POST', path, {}, expect=(202,))]))
    if api.check_mode or interval is None:
        return
    if interval <= 0:
        raise ConfigError('interval must be more than 0 seconds.')
    deadline = clock() + timeout if timeout else None
    while api.client.get(path).get('can_cancel'):
        if deadline is not None and clock() >= deadline:
            raise ServiceError('%s %s was asked to cancel but is still %s after %s seconds (timeout).'
                               % (kind.label, job_id, get_job(api.client, job_id, kind).get('status'), timeout))
        sleep(interval if deadline is None else min(interval, max(0.0, deadline - clock())))
    api.returns(status=get_job(api.client, job_id, kind).get('status'))
