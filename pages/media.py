"""/media/<path>: the content folder's media files and their resized variants (/media/_v/...),
served by the authoring server and frozen by the static export through the same view. Only what
the importer published is served: not a hidden file of media/, not a stale variant."""

from django.conf import settings
from django.http import Http404
from django.views import View
from django.views.static import serve as serve_file

from portfolio.content.media import FOLDER, VARIANTS_FOLDER, published_variant, variant_files
from portfolio.content.models import MediaFile

VARIANTS_PREFIX = VARIANTS_FOLDER + "/"


class MediaView(View):
    def get(self, request, path):
        found = self.source(path)
        if found is None:
            raise Http404("No such media file")
        return serve_file(request, found.name, document_root=found.parent)

    @staticmethod
    def source(path):
        """The file served at /media/<path>, or None: a published file, or a variant of one."""
        if path.startswith(VARIANTS_PREFIX):
            return published_variant(path[len(VARIANTS_PREFIX) :])
        if MediaFile.objects.filter(path=path).exists():
            return settings.CONTENT_DIR / FOLDER / path
        return None


def published_media():
    """Every path under /media/ the export writes (django-distill's distill_func)."""
    yield from MediaFile.objects.values_list("path", flat=True)
    yield from (VARIANTS_PREFIX + name for name in sorted(variant_files()))
