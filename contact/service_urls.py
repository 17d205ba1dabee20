"""The production contact service's whole urlconf (CONTACT_SERVICE=1, see portfolio/settings.py):
POST /api/contact, the thank-you page (the site serves it too; here it needs no site content), and
the admin to read messages when CONTACT_SERVICE_ADMIN=1 (static files:
WhiteNoise). Nothing else of the site is reachable through it; other answers keep the JSON shape."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from . import views

contact_patterns = (
    [
        path("api/contact", views.contact_post, name="api"),
        path("api/contact/challenge", views.challenge_get, name="challenge"),
        path("contact/thanks", views.thanks_page, name="thanks"),
    ],
    "contact",
)

handler400 = views.bad_request
handler403 = views.forbidden
handler404 = views.not_found
handler500 = views.server_error

urlpatterns = [path("", include(contact_patterns))]

if settings.CONTACT_SERVICE_ADMIN:
    urlpatterns.append(path("admin/", admin.site.urls))
