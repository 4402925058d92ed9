"""OAuth2 applications at /api/v2/applications/ and their tokens at
/api/v2/applications/<id>/tokens/. The client secret is shown once, in the
creation response; a public client has none."""
import re
from urllib.parse import urlparse, urlsplit

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import URLValidator
from django.db import transaction
from oauthlib.common import generate_token
from rest_framework import generics, serializers, status
from rest_framework.response import Response

from . import access
from .filters import FieldLookupBackend
from .models import OAuth2AccessToken, OAuth2Application
from .serializers import HIDDEN_TOKEN, ResourceSerializer, TokenSerializer
from .views import ApiMixin, create_token

# The grant types AWX 24.6.1 offers (its OPTIONS of applications/): no implicit grant.
GRANT_TYPES = [("authorization-code", "Authorization code"), ("password", "Resource owner password-based")]


# django-oauth-toolkit 1.7.1 (AWX 24.6.1's) checks the redirect URIs in
# Application.clean(): each must be a URI without fragment whose scheme is in
# ALLOWED_REDIRECT_URI_SCHEMES, which AWX leaves at the toolkit's default.
ALLOWED_REDIRECT_URI_SCHEMES = ("http", "https")
REDIRECT_GRANT_TYPES = ("authorization-code", "implicit", "openid-hybrid")


class RedirectURIValidator(URLValidator):
    """django-oauth-toolkit 1.7.1's URIValidator: any scheme, dotless host names."""

    dotless_domain_re = r"(?!-)[A-Z\d-]{1,63}(?<!-)"
    host_re = "|".join((r"(?:" + URLValidator.host_re, URLValidator.ipv4_re, URLValidator.ipv6_re, dotless_domain_re + ")"))
    regex = re.compile(r"^(?:[a-z][a-z0-9\.\-\+]*)://" + host_re + r"(?::\d{2,5})?" + r"(?:[/?#][^\s]*)?", re.IGNORECASE)

    def __init__(self):
        super().__init__(schemes=WildcardSet())


class WildcardSet(set):
    def __contains__(self, item):
        return True


def redirect_uris_error(uris, grant):
    """The message of the toolkit's Application.clean() for these URIs, or None."""
    uris = uris.strip().split()
    if not uris:
        if grant in REDIRECT_GRANT_TYPES:
            return "redirect_uris cannot be empty with grant_type %s" % grant
        return None
    validator = RedirectURIValidator()
    for uri in uris:
        try:
            validator(uri)
        except DjangoValidationError as exc:
            return exc.messages[0]
        if urlsplit(uri).fragment:
            return "Redirect URIs must not contain fragments"
        scheme = urlparse(uri).scheme
        if scheme not in ALLOWED_REDIRECT_URI_SCHEMES:
            return "Unauthorized redirect scheme: %s" % scheme
    return None


class ApplicationSerializer(ResourceSerializer):
    type_name = "o_auth2_application"
    url_base = "applications"
    modified = serializers.DateTimeField(source="updated", read_only=True)
    client_id = serializers.CharField(read_only=True)
    client_secret = serializers.SerializerMethodField()
    client_type = serializers.ChoiceField(choices=[("confidential", "Confidential"), ("public", "Public")])
    authorization_grant_type = serializers.ChoiceField(choices=GRANT_TYPES)
    redirect_uris = serializers.CharField(required=False, allow_blank=True, default="")
    description = serializers.CharField(required=False, allow_blank=True, allow_null=True, default="")

    class Meta:
        model = OAuth2Application
        fields = ResourceSerializer.base_fields + (
            "name", "description", "client_id", "client_secret", "client_type", "redirect_uris",
            "authorization_grant_type", "skip_authorization", "organization",
        )
        extra_kwargs = {"organization": {"required": True, "allow_null": False}, "name": {"required": True, "allow_blank": False}}

    def get_client_secret(self, obj):
        return getattr(obj, "_svc_secret", None) or HIDDEN_TOKEN

    def to_representation(self, obj):
        data = super().to_representation(obj)
        if obj.client_type == "public":
            data.pop("client_secret", None)
        return data

    def get_related(self, obj):
        base = self.get_url(obj)
        return {"organization": "/api/v2/organizations/%d/" % obj.organization_id, "tokens": base + "tokens/",
                "activity_stream": base + "activity_stream/"}

    def get_summary_fields(self, obj):
        org = obj.organization
        tokens = OAuth2AccessToken.objects.filter(application=obj)
        return {
            "organization": {"id": org.id, "name": org.name, "description": org.description},
            "user_capabilities": {"edit": True, "delete": True},
            "tokens": {"count": tokens.count(), "results": [{"id": t.id, "token": HIDDEN_TOKEN, "scope": t.scope} for t in tokens[:10]]},
        }

    def validate_description(self, value):
        return value or ""

    def validate(self, attrs):
        grant = attrs.get("authorization_grant_type", getattr(self.instance, "authorization_grant_type", None))
        uris = attrs.get("redirect_uris", getattr(self.instance, "redirect_uris", ""))
        error = redirect_uris_error(uris or "", grant)
        if error:
            raise serializers.ValidationError({"__all__": [error]})
        self.unique_error(OAuth2Application, ("name", "organization"), attrs, "Application with this Name and Organization already exists.")
        return attrs

    def create(self, validated_data):
        secret = generate_token() if validated_data.get("client_type") == "confidential" else ""
        app = OAuth2Application(client_secret=secret, **validated_data)
        app.save()
        app._svc_secret = secret
        return app


class ApplicationList(ApiMixin, generics.ListCreateAPIView):
    model = OAuth2Application
    serializer_class = ApplicationSerializer
    filter_backends = [FieldLookupBackend]
    search_fields = ("name", "description")

    def get_queryset(self):
        return access.visible(OAuth2Application, self.request.user).select_related("organization")

    def perform_create(self, serializer):
        self.check_access("add", OAuth2Application, serializer.validated_data)
        serializer.save(user=self.request.user)


class ApplicationDetail(ApiMixin, generics.RetrieveUpdateDestroyAPIView):
    model = OAuth2Application
    serializer_class = ApplicationSerializer

    def get_queryset(self):
        return access.visible(OAuth2Application, self.request.user).select_related("organization")

    def perform_update(self, serializer):
        self.check_access("change", serializer.instance)
        serializer.save()

    def perform_destroy(self, instance):
        self.check_access("delete", instance)
        instance.delete()


class ApplicationTokenList(ApiMixin, generics.ListCreateAPIView):
    """Tokens of one application; POST mints one for the requesting user."""

    model = OAuth2AccessToken
    serializer_class = TokenSerializer
    filter_backends = [FieldLookupBackend]

    def get_parent(self):
        return generics.get_object_or_404(access.visible(OAuth2Application, self.request.user), pk=self.kwargs["pk"])

    def get_queryset(self):
        tokens = access.visible(OAuth2AccessToken, self.request.user).filter(application=self.get_parent())
        return tokens.select_related("user", "application")

    def can_write_metadata(self, request, method):
        return bool(request.user and request.user.is_authenticated)

    def create(self, request, *args, **kwargs):
        app = self.get_parent()
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        self.check_access("mint", OAuth2AccessToken, {"user": request.user})
        with transaction.atomic():
            token = create_token(request.user, serializer.validated_data["scope"], serializer.validated_data.get("description"), app)
        data = TokenSerializer(token, context=self.get_serializer_context()).data
        return Response(data, status=status.HTTP_201_CREATED, headers={"Location": data["url"]})
