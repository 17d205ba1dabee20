"""What a shared link and a search engine read of a page: the social image (Open Graph and
Twitter cards) and the schema.org JSON-LD (templates/includes/social.html shows both)."""

from portfolio.content.models import Article, Project

from .cards import card_of, has_own_image


def social_image(site, item=None):
    """The item's own image, else its generated card (pages/cards.py), else (a page of no item) the
    site's: {src, width, height, alt} or None. Only a raster image (PNG, JPEG...) can be a social
    image: the platforms do not show SVG, so an item whose image is an SVG gets a card."""
    if isinstance(item, Project | Article):
        return item.image if has_own_image(item) else card_of(item)
    image = getattr(site, "image", None)
    return image if image and image.get("raster") else None


def structured_data(site, base_url, path, item=None):
    """The page's JSON-LD: the site and its owner (a schema.org Person, with the profiles of
    site.yaml's `links` as sameAs) on every page, and the article (BlogPosting) or project
    (SoftwareSourceCode) a detail page shows."""
    if not site:
        return None
    owner = {"@type": "Person", "@id": f"{base_url}/#owner", "name": site.author, "url": f"{base_url}/"}
    if site.links:
        owner["sameAs"] = [link["url"] for link in site.links]
    website = {
        "@type": "WebSite",
        "@id": f"{base_url}/#website",
        "url": f"{base_url}/",
        "name": site.title,
        "description": site.description,
        "author": {"@id": owner["@id"]},
    }
    graph = [website, owner]
    author = {"@type": "Person", "@id": owner["@id"], "name": site.author}
    url = f"{base_url}{path}"
    if isinstance(item, Article):
        graph.append({
            "@type": "BlogPosting",
            "@id": f"{url}#article",
            "headline": item.title,
            "description": item.description,
            "datePublished": item.date.isoformat(),
            "author": author,
            "url": url,
            "mainEntityOfPage": url,
            "isPartOf": {"@id": website["@id"]},
            "keywords": item.tags,
        })  # fmt: skip
    elif isinstance(item, Project):
        graph.append({
            "@type": "SoftwareSourceCode",
            "@id": f"{url}#project",
            "name": item.title,
            "description": item.description,
            "abstract": item.tagline,
            "codeRepository": item.github,
            "dateCreated": item.date.isoformat(),
            "author": author,
            "url": url,
            "keywords": item.stack,
        })  # fmt: skip
    image = social_image(site, item)
    if image and len(graph) > 2:
        graph[2]["image"] = f"{base_url}{image['src']}"
    if site.image:
        owner["image"] = f"{base_url}{site.image['src']}"
    return {"@context": "https://schema.org", "@graph": graph}
