"""Every app spells its full paths (the spec's paths are flat: /api/v1, /openapi.json, /llms.txt)."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from pages.views import search_index_file

# pages.urls last: its last route, a standalone page at /<slug>, would answer any one-segment
# address of the apps after it (/contact).
urlpatterns = [
    path("", include("api.urls")),
    path("", include("contact.urls")),
    path("admin/", admin.site.urls),
    path("", include("pages.urls")),
]

# The authoring server answers /pagefind/ from the last build's search index (never exported: a
# build writes its own), so /search finds what that build published.
urlpatterns.append(path("pagefind/<path:path>", search_index_file))

if settings.BROWSER_RELOAD:  # the authoring server's live reload (never exported: not a distill_path)
    urlpatterns.append(path("__reload__/", include("django_browser_reload.urls")))

# The same page the static export freezes as 404.html (the "pages:not-found" route).
handler404 = "pages.views.not_found"
