"""How requests authenticate in the gateway layout (to the gateway and to the controller
behind it alike): a personal token of the gateway (django-ansible-base's OAuth2
authentication, which looks the token up by its hash), the gateway's session, and Basic
while the gateway's setting GATEWAY_BASIC_AUTH_ENABLED is on."""
from ansible_base.oauth2_provider.authentication import LoggedOAuth2Authentication

from refsvc.svc import runtime
from refsvc.svc.auth import BasicAuthentication, RecordsLastUse

WWW_AUTHENTICATE = 'Bearer realm="api"'


class GatewayTokenAuthentication(RecordsLastUse, LoggedOAuth2Authentication):
    kind = "bearer"

    def authenticate_header(self, request):
        return WWW_AUTHENTICATE


class GatewayBasicAuthentication(BasicAuthentication):
    def authenticate(self, request):
        if not runtime.get("GATEWAY_BASIC_AUTH_ENABLED"):
            return None
        return super().authenticate(request)

    def authenticate_header(self, request):
        return WWW_AUTHENTICATE
