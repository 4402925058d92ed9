# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Typed exceptions of the HTTP and auth layer.

Nothing in module_utils calls ``fail_json``: it raises one of these, and the
module turns it into ``fail_json`` while the lookup turns it into ``AnsibleError``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ServiceError(Exception):
    """Base class of every error this collection raises on purpose."""

    def __init__(self, message):
        super(ServiceError, self).__init__(message)
        self.message = message

    def __str__(self):
        return self.message

    def reword(self, message):
        """Say ``message`` instead: the error in the words of the module that met it."""
        self.message = message


class ConfigError(ServiceError):
    """The options do not make sense; raised before any request is sent."""


class MissingRequirement(ConfigError):
    """A Python package the collection needs is not installed for this interpreter."""


class ConnectionFailure(ServiceError):
    """The service could not be reached, or TLS verification failed."""


class OutcomeUnknown(ConnectionFailure):
    """A request that changes state may or may not have been processed."""


class AuthError(ServiceError):
    """The service did not accept the credentials of the named method."""

    def __init__(self, message, method=None):
        super(AuthError, self).__init__(message)
        self.method = method


class ApiError(ServiceError):
    """The service answered with an error status."""

    def __init__(self, message, status=None, detail=None, method=None, url=None, total_results=None):
        super(ApiError, self).__init__(message)
        # A look-up's count goes into the failed result, as awx.awx returns it.
        self.result = {} if total_results is None else {'total_results': total_results}
        self.status = status
        self.detail = detail
        self.method = method
        self.url = url


class NotFound(ApiError):
    """A referenced object does not exist."""


class MultipleFound(ApiError):
    """A lookup that must find one object found several."""
