"""The documents of the read API v1, field for field as the spec lists them.

Plain serializers with every field declared, so each class reads like the spec's table and
drf-spectacular marks every field required except the optional `url`s. They only ever write:
nothing is parsed. Absolute URIs are `base_url + path`, where the view puts base_url (SITE_URL or
site.yaml's url) in the context: never the request's host, which is `testserver` when
django-distill freezes the files.
"""

from rest_framework import serializers

from portfolio.content.models import DailyDriver, Project, StackModel


class SiteURLField(serializers.Field):
    """An absolute URI on the site. `path` may hold one `{}`, filled with the field's source value
    (`SiteURLField("/projects/{}", source="slug")`); without a source the path is fixed."""

    def __init__(self, path, **kwargs):
        self.path = path
        kwargs.setdefault("source", "*")
        super().__init__(**kwargs)

    def to_representation(self, value):
        path = self.path if self.source == "*" else self.path.format(value)
        return self.context["base_url"] + path


class URITemplateField(serializers.CharField):
    """An address with a literal `{slug}` placeholder (RFC 6570), which is not itself a URI."""


class OmitEmptyURLMixin:
    """`url` is optional in the content: absent there means absent here (never null or "")."""

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not data.get("url"):
            data.pop("url", None)
        return data


class StringListField(serializers.ListField):
    child = serializers.CharField()


# --- projects ----------------------------------------------------------------------------------


class ProjectListItemSerializer(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    tagline = serializers.CharField()
    description = serializers.CharField()
    github = serializers.URLField()
    status = serializers.ChoiceField(choices=Project.Status.choices)
    stack = StringListField()
    featured = serializers.BooleanField()
    date = serializers.DateField()
    url = SiteURLField("/projects/{}", source="slug")
    apiUrl = SiteURLField("/api/v1/projects/{}", source="slug")

    # What the list needs from the database (Project.objects.values(*LIST_FIELDS)).
    LIST_FIELDS = ["slug", "title", "tagline", "description", "github", "status", "stack", "featured", "date"]


class ProjectDetailSerializer(ProjectListItemSerializer):
    body = serializers.CharField()
    caseStudy = serializers.DictField(child=serializers.CharField(), source="case_study")


class ProjectListSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    projects = ProjectListItemSerializer(many=True)


# --- articles ----------------------------------------------------------------------------------


class ArticleListItemSerializer(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    date = serializers.DateField()
    tags = StringListField()
    url = SiteURLField("/articles/{}", source="slug")
    apiUrl = SiteURLField("/api/v1/articles/{}", source="slug")

    LIST_FIELDS = ["slug", "title", "description", "date", "tags"]


class ArticleDetailSerializer(ArticleListItemSerializer):
    body = serializers.CharField()


class ArticleListSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    articles = ArticleListItemSerializer(many=True)


# --- stack -------------------------------------------------------------------------------------


class StackModelSerializer(OmitEmptyURLMixin, serializers.Serializer):
    """A model of the stack profile. `url` is present only when the content gives one."""

    name = serializers.CharField()
    type = serializers.ChoiceField(choices=StackModel.Type.choices)
    description = serializers.CharField()
    url = serializers.URLField(required=False)

    class Meta:
        ref_name = "Model"


class DailyDriverSerializer(OmitEmptyURLMixin, serializers.Serializer):
    """A tool of the stack profile. `url` is present only when the content gives one."""

    tool = serializers.CharField()
    role = serializers.CharField()
    url = serializers.URLField(required=False)
    status = serializers.ChoiceField(choices=DailyDriver.Status.choices)


class StackSerializer(serializers.Serializer):
    lastUpdated = serializers.DateField(source="last_updated")
    currentFocus = serializers.CharField(source="current_focus")
    models = StackModelSerializer(many=True)
    dailyDrivers = DailyDriverSerializer(many=True, source="daily_drivers")
    url = SiteURLField("/stack")


# --- the index document ------------------------------------------------------------------------
# Built by api.views.index_document as a plain dict; these classes give it its exact shape.


class CollectionEndpointsSerializer(serializers.Serializer):
    """`item` and `itemJson` are URI templates: `{slug}` stands for an item's slug."""

    list = serializers.URLField()
    listJson = serializers.URLField()
    item = URITemplateField()
    itemJson = URITemplateField()


class ArticleEndpointsSerializer(CollectionEndpointsSerializer):
    note = serializers.CharField()


class SingleEndpointSerializer(serializers.Serializer):
    get = serializers.URLField()
    getJson = serializers.URLField()


class EndpointsSerializer(serializers.Serializer):
    projects = CollectionEndpointsSerializer()
    articles = ArticleEndpointsSerializer()
    stack = SingleEndpointSerializer()
    index = SingleEndpointSerializer()


class HumanPagesSerializer(serializers.Serializer):
    home = serializers.URLField()
    projects = serializers.URLField()
    articles = serializers.URLField()
    stack = serializers.URLField()
    contact = serializers.URLField()
    feed = serializers.URLField()
    sitemap = serializers.URLField()


class ContactSerializer(serializers.Serializer):
    formPage = serializers.URLField()
    post = serializers.URLField()
    note = serializers.CharField()


class ApiIndexSerializer(serializers.Serializer):
    name = serializers.CharField()
    version = serializers.ChoiceField(choices=["v1"])
    description = serializers.CharField()
    site = serializers.URLField()
    documentation = serializers.URLField()
    openapi = serializers.URLField()
    llmsTxt = serializers.URLField()
    pathNote = serializers.CharField()
    endpoints = EndpointsSerializer()
    humanPages = HumanPagesSerializer()
    contact = ContactSerializer()


class ErrorSerializer(serializers.Serializer):
    """The body of a 404 or 405 from the authoring server (static hosts send their own pages)."""

    detail = serializers.CharField()
