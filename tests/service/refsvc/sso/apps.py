from django.apps import AppConfig


class SsoConfig(AppConfig):
    name = "refsvc.sso"
    label = "sso"
    verbose_name = "Single sign-on"
