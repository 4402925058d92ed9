"""Bulk data for the benchmark and the request-count tests.

    svcctl manage bench_seed --inventory NAME --hosts N [--prefix P] [--organization ORG]

Makes (or reuses) the inventory NAME in the organization (default "Default") and
makes sure it holds hosts P0 .. P(N-1) (default prefix "<NAME>-host-"). Rows are
inserted in bulk, so 10,000 hosts take about a second. Prints the inventory id.
"""
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from refsvc.svc.models import Host, Inventory, Organization


class Command(BaseCommand):
    help = "Make an inventory holding N hosts, in bulk (for benchmarks and tests)."

    def add_arguments(self, parser):
        parser.add_argument("--inventory", required=True)
        parser.add_argument("--hosts", type=int, default=0)
        parser.add_argument("--prefix", default=None)
        parser.add_argument("--organization", default="Default")

    def handle(self, *args, **options):
        try:
            organization = Organization.objects.get(name=options["organization"])
        except Organization.DoesNotExist:
            raise CommandError("No organization named %r." % options["organization"])
        owner = User.objects.filter(is_superuser=True).order_by("id").first()
        prefix = options["prefix"] if options["prefix"] is not None else options["inventory"] + "-host-"
        count = options["hosts"]
        width = len(str(max(count - 1, 0)))
        with transaction.atomic():
            inventory, _ = Inventory.objects.get_or_create(
                name=options["inventory"], organization=organization, defaults={"created_by": owner}
            )
            wanted = ["%s%0*d" % (prefix, width, i) for i in range(count)]
            have = set(Host.objects.filter(inventory=inventory, name__in=wanted).values_list("name", flat=True)) if count <= 900 else set(
                Host.objects.filter(inventory=inventory, name__startswith=prefix).values_list("name", flat=True)
            )
            Host.objects.bulk_create(
                [Host(name=name, inventory=inventory, created_by=owner) for name in wanted if name not in have],
                batch_size=500,
            )
        self.stdout.write(str(inventory.id))
