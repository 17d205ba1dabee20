"""Every app spells its full paths (the spec's paths are flat: /api/v1, /openapi.json, /llms.txt)."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("pages.urls")),
    path("", include("api.urls")),
    path("", include("contact.urls")),
    path("admin/", admin.site.urls),
]
