"""The service's URLs: those of each of its apps (the ``refsvc.*`` entries of
INSTALLED_APPS with a urls module), in the order of INSTALLED_APPS, then single sign-on
under sso/. An app that serves endpoints is listed in INSTALLED_APPS and nowhere else."""
from importlib import import_module
from importlib.util import find_spec

from django.conf import settings
from django.urls import include, path

urlpatterns = []
for _app in settings.INSTALLED_APPS:
    if _app.startswith("refsvc.") and _app != "refsvc.sso" and find_spec(_app + ".urls") is not None:
        urlpatterns += import_module(_app + ".urls").urlpatterns
urlpatterns += [path("sso/", include("refsvc.sso.urls"))]

handler404 = "refsvc.svc.views.not_found"
