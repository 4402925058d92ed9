from django.urls import path

from . import views

urlpatterns = [
    path("api/v2/config/", views.ConfigView.as_view()),
    path("api/v2/config/subscriptions/", views.SubscriptionsView.as_view()),
    path("api/v2/config/attach/", views.AttachView.as_view()),
]
