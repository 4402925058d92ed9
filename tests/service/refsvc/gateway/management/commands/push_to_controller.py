"""Write every organization, team and user of the gateway at the real controller behind it
(svcctl start --layout gateway --controller URL runs it once the controller answers)."""
from django.core.management.base import BaseCommand, CommandError

from refsvc.gateway import controller


class Command(BaseCommand):
    help = "write the gateway's organizations, teams and users at the controller behind it"
    # (the checks would import every URL module, and some say at import what they lack)
    requires_system_checks = []

    def handle(self, *args, **options):
        if not controller.enabled():
            raise CommandError("no controller behind this gateway (svcctl start --controller URL)")
        controller.push_all()
