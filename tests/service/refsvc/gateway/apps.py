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

        # django-ansible-base 2025.12.3's token serializer lists every column of the token
        # model; django-oauth-toolkit 3 added token_checksum (the token's lookup hash, set
        # when the token is saved), which the API neither takes nor shows, and resource (its
        # RFC 8707 resource indicators).
        from ansible_base.oauth2_provider.serializers.token import OAuth2TokenSerializer

        # Likewise its application serializer: the columns django-oauth-toolkit added after
        # post_logout_redirect_uris and algorithm (its migrations 0009 hash_client_secret, 0010
        # allowed_origins, 0018 resource, 0019 registration_source, 0020 cimd_expires_at) are in
        # neither the platform's 2.6 nor its 2.7 schema of OAuth2Application or OAuth2Token: its
        # gateway has an older django-oauth-toolkit. The columns keep their defaults.
        from ansible_base.oauth2_provider.serializers.application import OAuth2ApplicationSerializer

        for serializer, newer in ((OAuth2TokenSerializer, ("token_checksum", "resource")),
                                  (OAuth2ApplicationSerializer, NEWER_APPLICATION_FIELDS)):
            meta = serializer.Meta
            meta.fields = [f for f in meta.fields if f not in newer]
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
