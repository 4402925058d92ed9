#!/usr/bin/env python3
"""Wire the real AWX test bed's single sign-on to the project's test identity providers.

    realawx_sso.py prepare --dir DIR --url SERVICE_URL --ca AWX_CA
        certificates, users and configs for the identity providers (tests/idp),
        for a service at SERVICE_URL; prints the file of the identity providers'
        CA, which the AWX must trust (tests/realawx/realawx start, REALAWX_EXTRA_CA)
    realawx_sso.py start --dir DIR --url SERVICE_URL --ca AWX_CA
        starts the identity providers and sets the AWX's OIDC and SAML settings
        through its settings API, as an administrator would (SERVICE_ADMIN_USERNAME,
        SERVICE_ADMIN_PASSWORD); prints the SSO_* export lines and SERVICE_CA_PATH
        (the AWX's CA and the identity providers')
    realawx_sso.py stop --dir DIR

The settings are AWX 24.6.1's (awx/sso/conf.py): SOCIAL_AUTH_OIDC_* for the
OpenID Connect provider, SOCIAL_AUTH_SAML_* for the SAML one, whose attributes
are the standard OIDs the test SAML provider sends.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / 'tests' / 'idp'))

import idpctl  # noqa: E402  pylint: disable=wrong-import-position


def settings(wiring: dict) -> dict:
    """The AWX settings, by category, that point its SSO at the test identity providers."""
    saml = wiring['saml']
    contact = {'givenName': 'Operators', 'emailAddress': 'ops@example.test'}
    return {
        'oidc': {
            'SOCIAL_AUTH_OIDC_KEY': wiring['oidc']['key'],
            'SOCIAL_AUTH_OIDC_SECRET': wiring['oidc']['secret'],
            'SOCIAL_AUTH_OIDC_OIDC_ENDPOINT': wiring['oidc']['endpoint'],
            'SOCIAL_AUTH_OIDC_VERIFY_SSL': True,
        },
        'saml': {
            'SOCIAL_AUTH_SAML_SP_ENTITY_ID': saml['sp_entity_id'],
            'SOCIAL_AUTH_SAML_SP_PUBLIC_CERT': saml['sp_cert'],
            'SOCIAL_AUTH_SAML_SP_PRIVATE_KEY': saml['sp_key'],
            'SOCIAL_AUTH_SAML_ORG_INFO': {'en-US': {'name': 'awx', 'displayname': 'AWX', 'url': saml['sp_entity_id']}},
            'SOCIAL_AUTH_SAML_TECHNICAL_CONTACT': contact,
            'SOCIAL_AUTH_SAML_SUPPORT_CONTACT': contact,
            'SOCIAL_AUTH_SAML_SECURITY_CONFIG': {'wantAssertionsSigned': True, 'wantMessagesSigned': True,
                                                 'requestedAuthnContext': False},
            'SOCIAL_AUTH_SAML_ENABLED_IDPS': {saml['idp_name']: {
                'entity_id': saml['entity_id'],
                'url': saml['url'],
                'x509cert': saml['x509cert'],
                'attr_user_permanent_id': 'urn:oid:0.9.2342.19200300.100.1.1',
                'attr_username': 'urn:oid:0.9.2342.19200300.100.1.1',
                'attr_email': 'urn:oid:0.9.2342.19200300.100.1.3',
                'attr_first_name': 'urn:oid:2.5.4.42',
                'attr_last_name': 'urn:oid:2.5.4.4',
            }},
        },
    }


def cmd_prepare(args) -> int:
    args.dir.mkdir(parents=True, exist_ok=True)
    # idpctl wants the service's CA as DIR/ca.pem: the SAML provider fetches the
    # service's metadata with it, and the bundle it writes starts with it.
    shutil.copyfile(args.ca, args.dir / 'ca.pem')
    idpctl.prepare(args.dir, args.url.rstrip('/'))
    print(args.dir / 'idp' / 'ca.pem')
    return 0


def cmd_start(args) -> int:
    idpctl.start(args.dir)
    wiring = json.loads((args.dir / 'sso.json').read_text())
    auth = (os.environ['SERVICE_ADMIN_USERNAME'], os.environ['SERVICE_ADMIN_PASSWORD'])
    with requests.Session() as http:
        http.auth = auth
        for category, values in settings(wiring).items():
            # verify per request: a session's own would lose to REQUESTS_CA_BUNDLE
            answer = http.patch(f'{args.url.rstrip("/")}/api/v2/settings/{category}/', json=values, timeout=60,
                                verify=str(args.ca))
            if answer.status_code != 200:
                # The answer names the setting it refuses; it holds no secret of ours
                # beyond what we sent, so only its keys are shown.
                try:
                    keys = sorted(answer.json())
                except ValueError:
                    keys = []
                print(f'realawx_sso: the AWX refused the {category} settings ({answer.status_code}): {keys}',
                      file=sys.stderr)
                return 1
    print('\n'.join(idpctl.exports(args.dir)))
    return 0


def cmd_stop(args) -> int:
    idpctl.stop(args.dir)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest='command', required=True)
    for name in ('prepare', 'start', 'stop'):
        p = sub.add_parser(name)
        p.add_argument('--dir', type=Path, required=True)
        if name != 'stop':
            p.add_argument('--url', required=True)
            p.add_argument('--ca', type=Path, required=True)
    args = parser.parse_args()
    return {'prepare': cmd_prepare, 'start': cmd_start, 'stop': cmd_stop}[args.command](args)


if __name__ == '__main__':
    sys.exit(main())
