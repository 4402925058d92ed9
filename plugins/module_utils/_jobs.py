# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Jobs: what a launch may carry, the launch itself (never retried once it may
have reached the service), and waiting for a job to finish."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

from ansible_collections.automation.service.plugins.module_utils._errors import (
    ApiError, ConfigError, OutcomeUnknown, ServiceError,
)

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
)
FINISHED = frozenset(('successful', 'failed', 'error', 'canceled'))
FAILED = frozenset(('failed', 'error', 'canceled'))
STDOUT_TAIL_LINES = 40


class JobFailed(ServiceError):
    """The job finished, but not successfully; ``result`` holds its id, status and output."""

    def __init__(self, message, result):
        super(JobFailed, self).__init__(message)
        self.result = result


class JobTimeout(JobFailed):
    """The job was still running when the wait ran out."""


def not_prompted(launch_info, fields):
    """The names in ``fields`` that the template (GET /launch/) does not prompt for."""
    flags = dict(PROMPTS)
    return [name for name in fields if not launch_info.get(flags[name], False)]


def check_prompts(template_name, launch_info, fields):
    refused = not_prompted(launch_info, fields)
    if refused:
        flags = dict(PROMPTS)
        raise ConfigError(
            'Job template %r does not prompt for %s at launch: the service would ignore %s. '
            'Leave %s out, or set %s on the job template.'
            % (template_name, ', '.join(refused), 'it' if len(refused) == 1 else 'them',
               'it' if len(refused) == 1 else 'them', ', '.join(flags[name] for name in refused)))
    if launch_info.get('inventory_needed_to_start') and 'inventory' not in fields:
        raise ConfigError('Job template %r has no inventory: give one with inventory.' % template_name)


class Kind:
    """What differs between the kinds of runs a module launches or waits for."""

    def __init__(self, label, endpoint, template_endpoint, runs, waiter, tail=None):
        self.label = label                          # 'Job'
        self.endpoint = endpoint                    # where the run is read: 'jobs'
        self.template_endpoint = template_endpoint  # where it is launched from: 'job_templates'
        self.runs = runs                            # the template's list of its runs: 'jobs'
        self.waiter = waiter                        # how to wait for it again, for messages
        self.tail = tail                            # tail(client, run) -> the last lines of its output


def launch(client, template_id, body, kind=None):
    """POST the launch once. A broken connection after sending is reported as
    such: the job may exist, and launching again could run it twice."""
    kind = kind or JOB
    path = '%s/%d/launch' % (kind.template_endpoint, template_id)
    try:
        return client.request('POST', path, json_body=body, expect=(201,))
    except OutcomeUnknown as exc:
        raise OutcomeUnknown(
            'The launch of %s %d may or may not have happened: the connection broke after the '
            'request was sent (%s). Do not simply run the task again, that could start a second run. Look for '
            'it first: GET /api/v2/%s/%d/%s/?order_by=-created (or the service UI), then %s.'
            % (kind.template_endpoint[:-1].replace('_', ' '), template_id, exc, kind.template_endpoint,
               template_id, kind.runs, kind.waiter))


def stdout_tail(client, job_id, lines=STDOUT_TAIL_LINES):
    """The last ``lines`` lines of the job's output ('' when it cannot be read)."""
    try:
        response = client.send('GET', 'jobs/%d/stdout' % job_id, params={'format': 'txt'},
                               headers={'Accept': 'text/plain'})
    except ServiceError:
        return ''
    if response.status != 200:
        return ''
    return '\n'.join(response.text.splitlines()[-lines:])


def result_of(job, tail=None):
    """The fields a module returns about ``job``."""
    data = dict((key, job.get(key)) for key in ('id', 'status', 'elapsed', 'started', 'finished'))
    data['job'] = job
    if tail is not None:
        data['stdout'] = tail
    return data


def job_tail(client, job):
    return stdout_tail(client, job['id'])


JOB = Kind('Job', 'jobs', 'job_templates', 'jobs', 'wait for it with automation.service.job_wait', job_tail)


def wait(client, job_id, timeout, interval, sleep=time.sleep, clock=time.time, kind=None):
    """Poll the job every ``interval`` seconds until it finishes; returns result_of() the job
    with the tail of its output. Raises JobTimeout after ``timeout`` seconds (None: no limit)
    and JobFailed when the job did not succeed. ``kind`` waits for another kind of run."""
    kind = kind or JOB
    if interval <= 0:
        raise ConfigError('interval must be more than 0 seconds.')
    deadline = None if timeout is None else clock() + timeout
    while True:
        job = get_job(client, job_id, kind)
        if job.get('status') in FINISHED:
            break
        if deadline is not None and clock() >= deadline:
            raise JobTimeout('%s %d is still %s after waiting %s seconds (timeout); it goes on running on the '
                             'service. To wait for it again, %s and id %d.'
                             % (kind.label, job_id, job.get('status'), timeout, kind.waiter, job_id), result_of(job))
        sleep(interval if deadline is None else min(interval, max(0.0, deadline - clock())))
    result = result_of(job, kind.tail(client, job) if kind.tail else None)
    if job['status'] in FAILED:
        message = '%s %d %s (%s).' % (kind.label, job_id, job['status'], job.get('job_explanation') or 'see its output')
        if result.get('stdout'):
            message += ' Last lines of its output:\n%s' % result['stdout']
        raise JobFailed(message, result)
    return result


def get_job(client, job_id, kind=None):
    """The job, or a clear error when there is none with that id."""
    kind = kind or JOB
    try:
        return client.get('%s/%d' % (kind.endpoint, job_id))
    except ApiError as exc:
        if exc.status == 404:
            raise ConfigError('There is no %s %d (or it is not visible to this user).' % (kind.label.lower(), job_id))
        raise
