from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from refsvc.svc.models import OAuth2AccessToken, OAuth2RefreshToken


class Command(BaseCommand):
    help = "Revoke OAuth2 access tokens (of one user, or of everyone); --all also revokes refresh tokens."

    def add_arguments(self, parser):
        parser.add_argument("--user", dest="user", help="revoke only this user's tokens")
        parser.add_argument("--all", dest="all", action="store_true", help="also revoke refresh tokens")
        parser.add_argument("--revoke_refresh", dest="all", action="store_true", help=parser.SUPPRESS if hasattr(parser, "SUPPRESS") else None)

    def handle(self, *args, **options):
        tokens = OAuth2AccessToken.objects.all()
        refresh = OAuth2RefreshToken.objects.filter(revoked__isnull=True)
        if options["user"]:
            try:
                user = User.objects.get(username=options["user"])
            except User.DoesNotExist:
                raise CommandError("A user with that username does not exist.")
            tokens = tokens.filter(user=user)
            refresh = refresh.filter(user=user)
        count = 0
        for token in tokens:
            token.revoke()
            count += 1
        if options["all"]:
            for token in refresh:
                token.revoke()
        self.stdout.write("Revoked %d access token(s)." % count)
