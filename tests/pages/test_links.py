"""Every link that llms.txt and the sitemaps give into the site leads to a page the site serves."""

import re
import xml.etree.ElementTree as ET

from llms_txt import parse_llms_file

from tests.content_builder import SITE_URL


def site_path(url):
    assert url.startswith(SITE_URL + "/"), url
    return url.removeprefix(SITE_URL)


def llms_links(client):
    body = client.get("/llms.txt").content.decode()
    urls = [link.url for links in parse_llms_file(body).sections.values() for link in links]
    # The notes name the JSON twin of each project and article, and the API's URLs.
    urls += [url.rstrip(".,:;") for url in re.findall(rf"{re.escape(SITE_URL)}/[^\s)]*", body)]
    return {url for url in urls if "{slug}" not in url}


def sitemap_links(client):
    ns = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
    index = ET.fromstring(client.get("/sitemap-index.xml").content)
    sections = [loc.text for loc in index.iter(ns + "loc")]
    urls = set(sections)
    for section in sections:
        urls |= {loc.text for loc in ET.fromstring(client.get(site_path(section)).content).iter(ns + "loc")}
    return urls


def assert_served(client, url):
    assert client.get(site_path(url)).status_code == 200, url


def test_every_llms_txt_link_is_served(imported, client):
    links = llms_links(client)
    assert len(links) > 20
    for url in links:
        assert_served(client, url)


def test_every_sitemap_link_is_served(imported, client):
    links = sitemap_links(client)
    assert len(links) == 4 + 6 + 4 + 4 + 6  # sections, pages, projects, articles, /tags and 5 tags
    for url in links:
        assert_served(client, url)
