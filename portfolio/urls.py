"""Every app spells its full paths (the spec's paths are flat: /api/v1, /openapi.json, /llms.txt)."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("pages.urls")),
    path("", include("api.urls")),
    path("", include("contact.urls")),
    path("admin/", admin.site.urls),
]

# The same page the static export freezes as 404.html (the "pages:not-found" route).
handler404 = "pages.views.not_found"
