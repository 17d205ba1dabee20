"""References from content to media files and to other items: resolved and recorded while a
file is parsed, checked against the whole imported site before anything is written.

In a markdown body (body_links.py, a treeprocessor of portfolio.content.markdown):

- `../media/alpha/shot.png` (relative to the file, as editors and code hosts preview it) or
  `/media/alpha/shot.png` is a media file, published at `/media/alpha/shot.png`; an <img> of it
  gets its width, height, lazy loading and, for a large raster image, `srcset` and `sizes`;
- `../articles/other.md`, `other.md`, `../pages/about.md` (an item's or a standalone page's
  file) becomes its page's address (`/about` for a page), and
  `/projects/<slug>`, `/articles/<slug>` are kept as written;
- anything absolute (`https://`, `mailto:`), fragments and other site paths (`/stack`) are left
  alone; but an image from another host (`![](https://host/x.png)`, or an <img> in raw HTML,
  which is published as written) is recorded as a reference to its host, which site.yaml's
  `imageHosts` must list (the pages' Content-Security-Policy allows no other).

Front matter `image` (projects, articles, site.yaml) names a media file too. A reference to a
media file, item or page that does not exist, or to a draft, is an import error naming the
file, the line and the target. The references are stored (models.Reference) so that deleting or
drafting a target, or changing a media file, is caught or re-rendered even when the referencing
file did not change. A draft's own references are not checked: a draft is never published.
"""

import hashlib
import re

from .body_links import IMAGE_HOST
from .models import ITEM_MODELS, Project, Reference, Site
from .rules import ContentError, ContentInvalid

# --- one file ----------------------------------------------------------------------------------


def key_line(text, key):
    """The line of a top-level YAML key, for messages (1 when not found)."""
    found = re.search(rf"^{re.escape(key)}\s*:", text, re.MULTILINE)
    return text.count("\n", 0, found.start()) + 1 if found else 1


def resolve_file(rel, raw, fields, body, content_hash, media_index):
    """Resolve a parsed file's references: render its body (if any, unless a draft) with links
    and images rewritten, and its contents; turn `image`/`imageAlt` into the stored image, and
    record the references in fields["references"]. The returned content hash also covers the
    bytes of the media files it uses, so that the build re-renders its page when one of them
    changes. `media_index`: {path under media/: Media} of the import.
    Returns (fields, content hash); raises ContentInvalid."""
    from . import markdown

    text = raw.decode("utf-8-sig", "replace").replace("\r\n", "\n")
    draft = fields.get("draft", False)
    references, errors = [], []
    image = fields.pop("image", None)
    alt = fields.pop("imageAlt", "") or fields.get("title", "")
    if image is not None:
        media = media_index.get(image)
        fields["image"] = media.as_image(alt) if media else {}
        if image and not draft:
            references.append((key_line(text, "image"), "media/" + image, image))
    if body is not None:
        if draft:  # never published, so never shown: rendered by the edit that publishes it
            fields["body"], fields["body_html"], fields["contents"] = body, "", []
        else:
            first_line = text[: len(text) - len(body)].count("\n") + 1
            context = markdown.Context(rel, first_line, media_index, opens_page=not fields.get("image"))
            rendered = markdown.render(body, context)
            fields["body"], fields["body_html"], fields["contents"] = body, rendered.html, rendered.contents
            references += rendered.references
            errors += rendered.errors
    if errors:
        raise ContentInvalid(errors)
    fields["references"] = references
    media_used = {target.removeprefix("media/") for _, target, _ in references if target.startswith("media/")}
    used = sorted(media_index[path].content_hash for path in media_used if path in media_index)
    if used:
        content_hash = hashlib.sha256("\0".join([content_hash, *used]).encode()).hexdigest()
    return fields, content_hash


# --- the whole import --------------------------------------------------------------------------


class ReferenceChecker:
    """Checks every reference against the site as this import leaves it, then stores them.

    `parsed(found)` for each file parsed; `problems()` once all are in; `write()` in the
    import's transaction. Targets that vanish (deleted, drafted, or a media file removed) are
    looked up among the stored references of files that did not change."""

    def __init__(self, media, deleted_files, deleted_media):
        self.media = media  # {path: Media}
        self.deleted = set(deleted_files)
        self.references = {}  # {rel: [(line, target, written)]} of the parsed files
        self.published = {}  # {"articles/slug": bool} of the parsed items
        self.vanished = {"media/" + path for path in deleted_media}
        self.vanished |= {rel.removesuffix(".md") for rel in deleted_files if rel.endswith(".md")}
        self.image_hosts = None  # site.yaml's imageHosts when this import parses it

    def parsed(self, found):
        if found.fields is None:
            return  # same bytes as stored: its stored references stand
        if found.rel == "site.yaml":
            self.image_hosts = set(found.fields.get("imageHosts", []))
        target = found.rel.removesuffix(".md")
        if found.rel.endswith(".md"):
            self.published[target] = not found.fields.get("draft", False)
            if found.fields.get("draft"):
                self.vanished.add(target)
        self.references[found.rel] = found.fields.get("references", [])

    def problems(self):
        checked = [(rel, *ref) for rel, refs in self.references.items() for ref in refs]
        hosts = self.allowed_hosts()
        vanished = sorted(self.vanished | self.removed_hosts(hosts))
        stored = Reference.objects.filter(target__in=vanished) if vanished else []
        checked += [
            (ref.source, ref.line, ref.target, ref.written)
            for ref in stored
            if ref.source not in self.references and ref.source not in self.deleted
        ]
        items = {target for _, _, target, _ in checked if not target.startswith(("media/", IMAGE_HOST))}
        status = self.item_status(items)
        problems = []
        for rel, line, target, written in checked:
            if target.startswith(IMAGE_HOST):
                host = target.removeprefix(IMAGE_HOST)
                if host not in hosts:
                    problems.append(
                        ContentError(
                            rel,
                            f"line {line}",
                            f"shows an image from {host} ({written[:200]!r}), which site.yaml's imageHosts "
                            "does not list: add the host there, or copy the image under media/",
                        )
                    )
            elif target.startswith("media/"):
                if target[6:] not in self.media:
                    problems.append(problem(rel, line, written, f"{target} does not exist"))
            elif status.get(target) is None:
                problems.append(problem(rel, line, written, f"{target}.md does not exist"))
            elif status[target] is False:
                problems.append(problem(rel, line, written, f"{target}.md is a draft (a link would leak it)"))
        return problems

    def allowed_hosts(self):
        """The image hosts site.yaml lists after this import."""
        if self.image_hosts is not None:
            return self.image_hosts
        return set(Site.objects.values_list("image_hosts", flat=True).first() or [])

    def removed_hosts(self, hosts):
        """The image references of hosts an edit of site.yaml took off its list: files that did
        not change may still show their images."""
        if self.image_hosts is None:
            return set()
        used = (
            Reference.objects.filter(target__startswith=IMAGE_HOST)
            .order_by()
            .values_list("target", flat=True)
        )
        return {target for target in used.distinct() if target.removeprefix(IMAGE_HOST) not in hosts}

    def item_status(self, targets):
        """{target: True (published), False (draft) or None (no such item)} after this import."""
        status = dict.fromkeys(targets)
        for collection, model in ITEM_MODELS.items():
            slugs = [t.split("/", 1)[1] for t in targets if t.startswith(collection + "/")]
            for start in range(0, len(slugs), 500):
                rows = model.objects.filter(slug__in=slugs[start : start + 500])
                if model is not Project:  # articles and pages may be drafts
                    for slug, draft in rows.values_list("slug", "draft"):
                        status[f"{collection}/{slug}"] = not draft
                else:
                    for slug in rows.values_list("slug", flat=True):
                        status[f"{collection}/{slug}"] = True
        for target in targets:
            if target in self.published:
                status[target] = self.published[target]
            elif target + ".md" in self.deleted:
                status[target] = None
        return status

    def write(self):
        """Replace the stored references of every parsed or deleted file (in the transaction)."""
        sources = sorted(self.deleted | set(self.references))
        for start in range(0, len(sources), 500):
            Reference.objects.filter(source__in=sources[start : start + 500]).delete()
        Reference.objects.bulk_create(
            (
                Reference(source=rel, line=line, target=target, written=written[:1000])
                for rel, refs in self.references.items()
                for line, target, written in refs
            ),
            batch_size=500,
        )


def problem(rel, line, written, what):
    return ContentError(rel, f"line {line}", f"references {written!r}, but {what}")


def referencing(media_paths):
    """The files that reference any of these media files (to render them again)."""
    targets = ["media/" + path for path in media_paths]
    return (
        set(Reference.objects.filter(target__in=targets).values_list("source", flat=True))
        if targets
        else set()
    )
