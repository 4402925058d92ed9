from django.core.management.base import BaseCommand

from refsvc.svc import runtime


class Command(BaseCommand):
    help = "Show or set how /sso/login/<backend>/ answers: get (the real service) or post (social-auth-app-django 6+)."

    def add_arguments(self, parser):
        parser.add_argument("variant", nargs="?", choices=["get", "post"])

    def handle(self, *args, variant=None, **options):
        if variant:
            runtime.store({"SSO_LOGIN_VARIANT": variant})
        self.stdout.write(runtime.load()["SSO_LOGIN_VARIANT"])
