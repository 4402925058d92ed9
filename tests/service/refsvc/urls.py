from refsvc.svc.urls import urlpatterns  # noqa: F401

handler404 = "refsvc.svc.views.not_found"
