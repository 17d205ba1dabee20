"""/media/<path>: the content folder's media files and their resized variants (/media/_v/...),
served by the authoring server and frozen by the static export through the same view. Only what
the importer published is served: not a hidden file of media/, not a stale variant."""

from django.conf import settings
from django.http import Http404
from django.views.static import serve as serve_file

from portfolio.content.media import FOLDER, VARIANTS_FOLDER, variant_files
from portfolio.content.models import MediaFile

VARIANTS_PREFIX = VARIANTS_FOLDER + "/"


def serve(request, path):
    if path.startswith(VARIANTS_PREFIX):
        found = variant_files().get(path[len(VARIANTS_PREFIX) :])
        if found is None:
            raise Http404("No such media variant")
        return serve_file(request, found.name, document_root=found.parent)
    if not MediaFile.objects.filter(path=path).exists():
        raise Http404("No such media file")
    return serve_file(request, path, document_root=settings.CONTENT_DIR / FOLDER)


def published_media():
    """Every path under /media/ the export writes (django-distill's distill_func)."""
    yield from MediaFile.objects.values_list("path", flat=True)
    yield from (VARIANTS_PREFIX + name for name in sorted(variant_files()))
