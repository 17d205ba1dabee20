"""How drf-spectacular reads the API (settings.REST_FRAMEWORK's DEFAULT_SCHEMA_CLASS): each view's
`operation` (api.openapi.Operation) and the two fields of api/serializers.py whose type their
class does not say. Imported only when /openapi.json is made (see api/openapi.py)."""

from django.core.exceptions import ImproperlyConfigured
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.openapi import AutoSchema as SpectacularSchema
from drf_spectacular.plumbing import build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from portfolio.content.rules import SLUG_RE

from .serializers import ErrorSerializer

NOT_FOUND_DESCRIPTION = (
    "No published item has this slug (an unknown slug, or a draft article). The authoring server "
    "answers with this JSON body; static hosts answer with their own 404 page."
)


class AutoSchema(SpectacularSchema):
    """drf-spectacular's schema of a view, with the id, tag, parameters and responses its
    `operation` declares. Every documented view declares one: a view without it fails here."""

    @property
    def operation(self):
        if self.view.operation is None:
            name = type(self.view).__name__
            raise ImproperlyConfigured(f"{name} declares no `operation` (an api.openapi.Operation)")
        return self.view.operation

    def get_operation_id(self):
        return self.operation.operation_id

    def get_tags(self):
        return [self.operation.tag]

    def get_override_parameters(self):
        operation = self.operation
        if not operation.slug_of:
            return []
        description = f"The {operation.slug_of}'s content-collection id (its file name without `.md`)."
        return [
            OpenApiParameter(
                "slug",
                str,
                OpenApiParameter.PATH,
                required=True,
                pattern=SLUG_RE.pattern,
                description=description,
            )
        ]

    def get_response_serializers(self):
        operation = self.operation
        responses = {200: OpenApiResponse(self.view.serializer_class, operation.ok)}
        if operation.slug_of:
            responses[404] = OpenApiResponse(ErrorSerializer, NOT_FOUND_DESCRIPTION)
        return responses


class SiteURLFieldSchema(OpenApiSerializerFieldExtension):
    """serializers.SiteURLField: an absolute URI."""

    target_class = "api.serializers.SiteURLField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        return build_basic_type(OpenApiTypes.URI)


class URITemplateFieldSchema(OpenApiSerializerFieldExtension):
    """serializers.URITemplateField: an RFC 6570 template, which is not itself a URI."""

    target_class = "api.serializers.URITemplateField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "format": "uri-template"}
