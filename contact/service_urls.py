"""The production contact service's whole urlconf (CONTACT_SERVICE=1, see portfolio/settings.py):
POST /api/contact, plus the admin to read messages when CONTACT_SERVICE_ADMIN=1. Nothing else of
the site is reachable through it."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from . import views

contact_patterns = ([path("api/contact", views.contact_post, name="api")], "contact")

urlpatterns = [path("", include(contact_patterns))]

if settings.CONTACT_SERVICE_ADMIN:
    urlpatterns.append(path("admin/", admin.site.urls))
