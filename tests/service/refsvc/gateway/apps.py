import importlib
import pkgutil

from django.apps import AppConfig

# django-oauth-toolkit 3's application columns that the platform's gateway does not answer (ready()).
NEWER_APPLICATION_FIELDS = ("hash_client_secret", "allowed_origins", "registration_source", "cimd_expires_at")


class GatewayConfig(AppConfig):
    name = "refsvc.gateway"
    label = "gateway"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # django-oauth-toolkit's data migrations rewrite the rows of the application and
        # token models, here django-ansible-base's, whose tables are made from their models
        # (settings.MIGRATION_MODULES) after the migrations: a gateway database is always new,
        # there are no rows to rewrite, and the historical models those migrations would
        # query lack the relations to the migrated apps. They are left out.
        from django.db.migrations import RunPython
        import oauth2_provider.migrations as dot_migrations

        for info in pkgutil.iter_modules(dot_migrations.__path__):
            module = importlib.import_module("oauth2_provider.migrations." + info.name)
            migration = getattr(module, "Migration", None)
            for operation in getattr(migration, "operations", []):
                if isinstance(operation, RunPython):
                    operation.code = RunPython.noop
                    operation.reverse_code = RunPython.noop

        # django-ansible-base 2025.12.3's token and application serializers list every column of
        # their models, django-oauth-toolkit's; the platform's published gateway schemas (2.6, 2.7)
        # list none of the columns the installed django-oauth-toolkit (3.4) added after
        # post_logout_redirect_uris (its migration 0007): token_checksum (0012, the token's lookup
        # hash), resource (0018, RFC 8707's resource indicators), and the application's
        # hash_client_secret (0009), allowed_origins (0010), registration_source (0019) and
        # cimd_expires_at (0020). The API neither takes nor shows them, nor does the activity stream's
        # record of a change (the token's checksum is a hash of the token).
        from ansible_base.oauth2_provider.models import OAuth2AccessToken, OAuth2Application
        from ansible_base.oauth2_provider.serializers.application import OAuth2ApplicationSerializer
        from ansible_base.oauth2_provider.serializers.token import OAuth2TokenSerializer

        for serializer, model, newer in (
            (OAuth2TokenSerializer, OAuth2AccessToken, ["token_checksum", "resource"]),
            (OAuth2ApplicationSerializer, OAuth2Application, list(NEWER_APPLICATION_FIELDS)),
        ):
            meta = serializer.Meta
            meta.fields = [f for f in meta.fields if f not in newer]
            model.activity_stream_excluded_field_names = list(model.activity_stream_excluded_field_names) + newer
        # An application's organization is required, as both schemas say (and ansible.platform's application module
        # asks for it); django-ansible-base 2025.12.3's model lets it be null, which makes it optional there.
        # (Declared here: DRF gives a nullable field of a unique_together a default, which no required field has.)
        from rest_framework.relations import PrimaryKeyRelatedField
        from refsvc.svc.models import Organization

        OAuth2ApplicationSerializer._declared_fields["organization"] = PrimaryKeyRelatedField(
            queryset=Organization.objects.all(), help_text="Organization containing this application.")

        # What single sign-on through the authenticators needs of the installed libraries.
        from refsvc.gateway.sso import adapt

        adapt()

        # A real controller behind the gateway gets the gateway's organizations, teams and users
        # as soon as they change (refsvc/gateway/controller.py).
        from django.conf import settings

        from refsvc.gateway import signals

        signals.connect_descriptions()
        signals.connect_authorship()
        # The "Platform Auditor" role assignments and the users' is_platform_auditor (refsvc/gateway/auditor.py).
        from refsvc.gateway import auditor

        auditor.connect()
        # Authenticator maps that grant roles check and grant them with the service's RBAC (refsvc/gateway/role_maps.py).
        from refsvc.gateway import role_maps

        role_maps.connect()
        if getattr(settings, "GATEWAY_CONTROLLER", None):
            signals.connect()

