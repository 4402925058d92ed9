from django.urls import path

from . import views

urlpatterns = [path("api/v2/settings/<str:category>/", views.CategoryView.as_view())]
