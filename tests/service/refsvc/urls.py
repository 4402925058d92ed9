from django.urls import include, path

from refsvc.svc.urls import urlpatterns  # noqa: F401
from refsvc.jobs.urls import urlpatterns as jobs_urlpatterns
from refsvc.resources.urls import urlpatterns as resources_urlpatterns
from refsvc.rbac.urls import urlpatterns as rbac_urlpatterns
from refsvc.workflows.urls import urlpatterns as workflows_urlpatterns
from refsvc.conf.urls import urlpatterns as conf_urlpatterns
from refsvc.adhoc.urls import urlpatterns as adhoc_urlpatterns
from refsvc.bulk.urls import urlpatterns as bulk_urlpatterns
from refsvc.wfjobs.urls import urlpatterns as wfjobs_urlpatterns
from refsvc.updates.urls import urlpatterns as updates_urlpatterns
from refsvc.config.urls import urlpatterns as config_urlpatterns

urlpatterns = urlpatterns + jobs_urlpatterns + resources_urlpatterns
urlpatterns = urlpatterns + rbac_urlpatterns + workflows_urlpatterns + conf_urlpatterns
urlpatterns = urlpatterns + adhoc_urlpatterns + bulk_urlpatterns + wfjobs_urlpatterns + updates_urlpatterns
urlpatterns = config_urlpatterns + urlpatterns + [path("sso/", include("refsvc.sso.urls"))]

handler404 = "refsvc.svc.views.not_found"
