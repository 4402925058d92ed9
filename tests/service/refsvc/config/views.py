"""/api/v2/config/ (GET, POST, DELETE), config/subscriptions/ and config/attach/ as AWX
24.6.1 answers them.

AWX runs with the open licence: its licenser is chosen by whether
/var/lib/awx/.tower_version exists, which AWX's image never writes, and the open
licenser can only describe itself (it has no way to read a manifest or to ask Red
Hat for subscriptions). So on AWX:

- GET config/ shows the open licence (the base view);
- POST config/ checks a manifest's encoding and zip layout, then fails: the
  signature check needs Red Hat's candlepin CA, which AWX's image does not ship,
  and the open licenser could not read a manifest anyway. Without a manifest it
  answers the open licence and records the URL the request came to;
- DELETE config/ clears the stored licence (nothing the open licence shows);
- POST config/subscriptions/ never reaches Red Hat: "Invalid Subscription";
- POST config/attach/ needs a pool id; without stored subscription credentials it
  fails with a server error (500, Django's HTML page), with them as
  config/subscriptions/ does.

Writes are for superusers only; OPTIONS (and GET of config/) for every user.
"""
import base64
import binascii
import io
import json
import logging
import zipfile

from django.views.defaults import server_error
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.svc import runtime
from refsvc.svc.models import RuntimeSetting
from refsvc.svc.views import ApiMixin, ConfigView as BaseConfigView

logger = logging.getLogger("refsvc.config")

OPEN_LICENSE = {"license_type": "open", "valid_key": True, "subscription_name": "OPEN", "product_name": "AWX"}
LEGACY = "Legacy license submitted. A subscription manifest is now required."
# The files AWX's open licenser does not have.
CANDLEPIN_CA = "/etc/tower/candlepin-redhat-ca.crt"


def refused(message):
    return Response({"error": message}, status=status.HTTP_400_BAD_REQUEST)


class SuperuserWrites:
    """Every authenticated user may ask OPTIONS and HEAD (and GET where ``reads``
    says so); anything else is for superusers."""

    endpoint_access = "superuser"
    reads = ("OPTIONS", "HEAD")

    @property
    def endpoint_access_args(self):
        return {"reads": self.reads}


def check_manifest(data):
    """What AWX checks of a manifest before its signature: base64 (a decoding
    error is a ValueError, answered with its own text), a zip, the two files."""
    content = base64.b64decode(data)
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
    except zipfile.BadZipFile as exc:
        raise ValueError("Invalid manifest: a subscription manifest zip file is required.") from exc
    names = archive.namelist()
    if "consumer_export.zip" not in names or "signature" not in names:
        raise ValueError("Invalid manifest: missing required files.")
    archive.open("consumer_export.zip").read()
    archive.open("signature").read()
    # The signature is checked against Red Hat's CA, a file AWX's image does not have.
    raise FileNotFoundError(CANDLEPIN_CA)


def legacy_inside(manifest):
    """A manifest that decodes to JSON holding ``license_key`` is an old licence."""
    try:
        return "license_key" in json.loads(base64.b64decode(manifest))
    except Exception:  # noqa: BLE001 - anything else is looked at as a manifest
        return False


class ConfigView(SuperuserWrites, BaseConfigView):
    reads = ("GET", "OPTIONS", "HEAD")

    def post(self, request):
        data = request.data
        if not isinstance(data, dict):
            return refused("Invalid subscription data")
        if "license_key" in data:
            return refused(LEGACY)
        if "manifest" in data:
            if legacy_inside(data["manifest"]):
                return refused(LEGACY)
            try:
                check_manifest(data["manifest"])
            except (ValueError, binascii.Error) as exc:
                return refused(str(exc))
            except Exception:  # noqa: BLE001 - AWX answers every other failure alike
                logger.warning("Invalid manifest submitted.")
                return refused("Invalid manifest submitted.")
            return refused("Invalid License")
        runtime.store({"TOWER_URL_BASE": "%s://%s" % (request.scheme, request.get_host())})
        return Response(dict(OPEN_LICENSE))

    def delete(self, request):
        RuntimeSetting.objects.filter(key="LICENSE").delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


def stored_setting(key):
    row = RuntimeSetting.objects.filter(key=key).first()
    return row.value if row is not None else ""


class SubscriptionsView(SuperuserWrites, ApiMixin, APIView):
    def post(self, request):
        # AWX takes a password of $encrypted$ as the one it stored, then asks its
        # licenser, which (the open one) cannot ask Red Hat: every request ends in
        # the generic refusal, whatever the credentials.
        logger.warning("Invalid subscription submitted.")
        return refused("Invalid Subscription")


class AttachView(SuperuserWrites, ApiMixin, APIView):
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        if not data.get("pool_id"):
            return refused("No subscription pool ID provided.")
        if stored_setting("SUBSCRIPTIONS_USERNAME") and stored_setting("SUBSCRIPTIONS_PASSWORD"):
            logger.warning("Invalid subscription submitted.")
            return refused("Invalid Subscription")
        # Without stored credentials the real view reads a variable it never set
        # (UnboundLocalError): Django's plain 500 page.
        return server_error(request._request)
