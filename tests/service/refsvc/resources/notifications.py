"""Notification configuration and messages, checked as the real service checks them."""

# The parameters of each notification type (OPTIONS of notification_templates/).
INIT_PARAMETERS = {'awssns': {'aws_access_key_id': {'default': '', 'type': 'string'},
            'aws_region': {'default': '', 'type': 'string'},
            'aws_secret_access_key': {'default': '', 'type': 'password'},
            'aws_session_token': {'default': '', 'type': 'password'},
            'sns_topic_arn': {'default': '', 'type': 'string'}},
 'email': {'host': {'type': 'string'},
           'password': {'type': 'password'},
           'port': {'type': 'int'},
           'recipients': {'type': 'list'},
           'sender': {'type': 'string'},
           'timeout': {'default': 30, 'type': 'int'},
           'use_ssl': {'type': 'bool'},
           'use_tls': {'type': 'bool'},
           'username': {'type': 'string'}},
 'grafana': {'grafana_key': {'type': 'password'}, 'grafana_url': {'type': 'string'}},
 'irc': {'nickname': {'type': 'string'},
         'password': {'type': 'password'},
         'port': {'type': 'int'},
         'server': {'type': 'string'},
         'targets': {'type': 'list'},
         'use_ssl': {'type': 'bool'}},
 'mattermost': {'mattermost_no_verify_ssl': {'type': 'bool'}, 'mattermost_url': {'type': 'string'}},
 'pagerduty': {'client_name': {'type': 'string'},
               'service_key': {'type': 'string'},
               'subdomain': {'type': 'string'},
               'token': {'type': 'password'}},
 'rocketchat': {'rocketchat_no_verify_ssl': {'type': 'bool'}, 'rocketchat_url': {'type': 'string'}},
 'slack': {'channels': {'type': 'list'}, 'token': {'type': 'password'}},
 'twilio': {'account_sid': {'type': 'string'},
            'account_token': {'type': 'password'},
            'from_number': {'type': 'string'},
            'to_numbers': {'type': 'list'}},
 'webhook': {'disable_ssl_verification': {'default': False, 'type': 'bool'},
             'headers': {'type': 'object'},
             'http_method': {'default': 'POST', 'type': 'string'},
             'password': {'default': '', 'type': 'password'},
             'url': {'type': 'string'},
             'username': {'default': '', 'type': 'string'}}}

TYPE_MAP = {"string": (str,), "int": (int,), "bool": (bool,), "list": (list,), "password": (str,), "object": (dict,)}
ENCRYPTED = "$encrypted$"


def display(ntype, config):
    shown = dict(config or {})
    for field, params in INIT_PARAMETERS.get(ntype, {}).items():
        if params["type"] == "password" and shown.get(field) not in (None, ""):
            shown[field] = ENCRYPTED
    return shown


def check_configuration(ntype, config, stored=None):
    """(errors, configuration to store). `stored`: the current configuration of an existing template."""
    config = dict(config)
    missing, wrong_type, errors, keep = [], [], [], []
    for field, params in INIT_PARAMETERS.get(ntype, {}).items():
        if field not in config:
            if "default" in params:
                config[field] = params["default"]
            else:
                missing.append(field)
                continue
        value = config[field]
        if type(value) not in TYPE_MAP[params["type"]]:
            wrong_type.append((field, params["type"]))
            continue
        if params["type"] == "list" and len(value) < 1:
            errors.append("No values specified for field '{}'".format(field))
            continue
        if params["type"] == "password" and value == ENCRYPTED and stored is not None:
            keep.append(field)
        if field == "http_method" and value.lower() not in ("put", "post"):
            errors.append("HTTP method must be either 'POST' or 'PUT'.")
    if missing:
        errors.append("Missing required fields for Notification Configuration: {}.".format(missing))
    for field, ftype in wrong_type:
        errors.append("Configuration field '{}' incorrect type, expected {}.".format(field, ftype))
    if errors:
        return errors, None
    for field in keep:
        config[field] = (stored or {}).get(field, "")
    return [], config


def check_messages(messages, ntype):
    if messages is None:
        return []
    errors = []

    def check(event, msgs):
        for kind in msgs:
            if kind not in ("message", "body"):
                errors.append("Message type '{}' invalid, must be either 'message' or 'body'".format(kind))
                continue
            message = msgs[kind]
            if message is None:
                continue
            if not isinstance(message, str):
                errors.append("Expected string for '{}', found {}, ".format(kind, type(message)))
                continue
            if kind == "message" and "\n" in message:
                errors.append("Messages cannot contain newlines (found newline in {} event)".format(event))

    if not isinstance(messages, dict):
        return ["Expected dict for 'messages' field, found {}".format(type(messages))]
    for event, msgs in messages.items():
        if event not in ("started", "success", "error", "workflow_approval"):
            errors.append("Event '{}' invalid, must be one of 'started', 'success', 'error', or 'workflow_approval'".format(event))
            continue
        if msgs is None:
            continue
        if not isinstance(msgs, dict):
            errors.append("Expected dict for event '{}', found {}".format(event, type(msgs)))
            continue
        if event == "workflow_approval":
            for sub, submsgs in msgs.items():
                if sub not in ("running", "approved", "timed_out", "denied"):
                    errors.append("Workflow Approval event '{}' invalid, must be one of 'running', 'approved', 'timed_out', or 'denied'".format(sub))
                    continue
                if submsgs is None:
                    continue
                if not isinstance(submsgs, dict):
                    errors.append("Expected dict for workflow approval event '{}', found {}".format(sub, type(submsgs)))
                    continue
                check(event, submsgs)
        else:
            check(event, msgs)
    return errors
