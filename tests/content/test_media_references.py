"""Media files, images and references at import: what is published, and every rule's error
(file, line, target)."""

import math
from io import BytesIO

import pytest
from django.core.management import call_command
from PIL import Image, ImageChops, ImageStat

from portfolio.content.importer import import_content
from portfolio.content.media import VARIANT_WIDTHS, make_variants, measure, resized_chain
from portfolio.content.models import Article, MediaFile, Project, Site
from portfolio.content.rules import ContentInvalid
from tests.content_builder import article, project, write_content
from tests.media_content import MEDIA_FILES, png

from .helpers import database_state


def problems(content, files):
    """The import's error lines after writing `files` (None deletes a file); nothing written."""
    before = database_state()
    for rel, data in files.items():
        if data is None:
            (content / rel).unlink()
    write_content(content, {rel: data for rel, data in files.items() if data is not None})
    with pytest.raises(ContentInvalid) as failed:
        import_content(content, workers=1)
    assert database_state() == before
    return [str(error) for error in failed.value.errors]


def test_media_files_are_measured_and_hidden_files_skipped(media_site):
    sizes = {m.path: (m.width, m.height, m.variants) for m in MediaFile.objects.all()}
    assert sizes == {
        "site/card.png": (1200, 630, [480, 720, 1080]),
        "alpha/cover.png": (1600, 900, [480, 720, 1080, 1440]),
        "alpha/small.png": (300, 200, []),
        "diagram.svg": (320, 120, []),
    }


def turned(kind):
    """A 300x200 image whose EXIF orientation (6) shows it turned a quarter, 200x300."""
    buffer = BytesIO()
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.new("RGB", (300, 200), "#2563eb").save(buffer, kind, exif=exif)
    return buffer.getvalue()


def exif_after_data(raw):
    """A PNG with its eXIf chunk moved after the image data, where Pillow finds it only by
    reading every chunk."""
    chunks, position = [], 8
    while position < len(raw):
        length = int.from_bytes(raw[position : position + 4], "big")
        chunks.append(raw[position : position + 12 + length])
        position += 12 + length
    exif = next(chunk for chunk in chunks if chunk[4:8] == b"eXIf")
    chunks.remove(exif)
    chunks.insert(-1, exif)  # before IEND
    return raw[:8] + b"".join(chunks)


def test_images_turned_by_their_exif_orientation_are_measured_as_shown():
    png_turned = turned("PNG")
    assert png_turned.index(b"eXIf") < png_turned.index(b"IDAT")
    for raw, name in (
        (png_turned, "a.png"),
        (exif_after_data(png_turned), "b.png"),
        (turned("JPEG"), "c.jpg"),
        (turned("WEBP"), "d.webp"),
    ):
        assert measure(raw, name) == (200, 300, True), name
    assert measure(png(300, 200), "plain.png") == (300, 200, True)


def test_front_matter_images_are_resolved(media_site):
    image = Project.objects.get(slug="alpha-one").image
    assert image["src"] == "/media/alpha/cover.png"
    assert (image["width"], image["height"], image["alt"]) == (1600, 900, "The alpha cover")
    assert image["srcset"].endswith("/media/alpha/cover.png 1600w")
    site = Site.objects.get()
    assert site.image["src"] == "/media/site/card.png" and site.image["alt"] == "Test Portfolio"
    assert site.links == [{"name": "GitHub", "url": "https://github.com/example"}]


def test_body_images_get_size_alt_lazy_loading_and_variants(media_site):
    html = Project.objects.get(slug="alpha-one").body_html
    assert (
        '<img src="/media/alpha/small.png" alt="A small shot" width="300" height="200" loading="lazy" '
        'decoding="async" />'
    ) in html
    diagram = 'src="/media/diagram.svg" alt="Diagram" width="320" height="120" loading="lazy"'
    assert diagram in html
    big = Article.objects.get(slug="first-post").body_html
    assert 'height="900"' in big and 'width="1600"' in big
    assert 'srcset="/media/_v/' in big and 'sizes="(min-width: 46rem)' in big


def test_only_an_image_opening_a_body_without_a_page_image_is_fetched_first(media_site):
    """The page's first picture: fetched at once and first, every other body image lazily."""
    small = "![S](../media/alpha/small.png)"
    write_content(
        media_site,
        {
            "articles/opening.md": article("Opening", body=f"Intro.\n\n{small}\n\n{small}\n"),
            "articles/later.md": article("Later", body=f"One.\n\nTwo.\n\n{small}\n"),
        },
    )
    import_content(media_site, workers=1)
    opening = Article.objects.get(slug="opening").body_html
    assert opening.count('fetchpriority="high"') == 1 and opening.count('loading="lazy"') == 1
    assert opening.index('fetchpriority="high"') < opening.index('loading="lazy"')
    assert 'fetchpriority="high"' in Article.objects.get(slug="first-post").body_html  # its first line
    for late in (
        Article.objects.get(slug="later"),
        Project.objects.get(slug="alpha-one"),
    ):  # third; a page image
        assert "fetchpriority" not in late.body_html and 'loading="lazy"' in late.body_html


def test_item_links_become_addresses_and_the_rest_is_left_alone(media_site):
    alpha = Project.objects.get(slug="alpha-one")
    assert 'href="/articles/first-post#top"' in alpha.body_html
    assert 'href="/articles/same-day"' in alpha.body_html
    assert 'href="https://example.org/x.md"' in alpha.body_html
    assert 'href="mailto:a@example.org"' in alpha.body_html
    assert 'href="/articles/same-day"' in Article.objects.get(slug="first-post").body_html
    assert "(../articles/first-post.md#top)" in alpha.body  # the API's body is the markdown as written


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"articles/bad.md": article("Bad", body="Text.\n\n![x](../media/nope.png)\n")},
            "articles/bad.md: line 8: references '../media/nope.png', but media/nope.png does not exist",
        ),
        (
            {"articles/bad.md": article("Bad", body="One.\n\nTwo [x](../projects/nope.md).\n")},
            "articles/bad.md: line 8: references '../projects/nope.md', but projects/nope.md does not exist",
        ),
        (
            {"articles/bad.md": article("Bad", body="[x](/articles/secret-draft)\n")},
            "articles/bad.md: line 6: references '/articles/secret-draft', but articles/secret-draft.md is a "
            "draft (a link would leak it)",
        ),
        (
            {"projects/bad.md": project("Bad", body="[x](../notes.txt)\n")},
            "projects/bad.md: line 10: '../notes.txt': expected a media file",
        ),
        (
            {"articles/bad.md": article("Bad", extra="image: alpha/none.png\nimageAlt: x\n")},
            "articles/bad.md: line 5: references 'alpha/none.png', but media/alpha/none.png does not exist",
        ),
        (
            {"articles/bad.md": article("Bad", extra="image: alpha/cover.png\n")},
            "articles/bad.md: imageAlt: required with image",
        ),
        (
            {"articles/bad.md": article("Bad", extra="imageAlt: Lonely\n")},
            "articles/bad.md: imageAlt: expected only with image",
        ),
        (
            {"articles/bad.md": article("Bad", extra="image: ../secret.png\nimageAlt: x\n")},
            "articles/bad.md: image: expected a path under media/",
        ),
        ({"media/bad name.png": png(10, 10)}, "media/bad name.png: file name: expected names of letters"),
        ({"media/_v/x.png": png(10, 10)}, "media/_v/: file name: expected names of letters"),
        ({"media/broken.png": b"not a png"}, "media/broken.png: image: expected a PNG image; Pillow"),
        (
            {"media/cut.png": png(300, 200)[:-30]},
            "media/cut.png: image: expected a PNG image Pillow can read; image file is truncated",
        ),
        (
            {"media/blank.svg": b"<svg></svg>"},
            "media/blank.svg: image: expected an SVG with width and height",
        ),
    ],
)
def test_bad_references_and_media_are_errors(media_site, files, expected):
    assert any(line.startswith(expected) for line in problems(media_site, files)), expected


def test_removing_or_drafting_a_target_fails_the_unchanged_referencing_file(media_site):
    assert problems(media_site, {"articles/same-day.md": None}) == [
        "articles/first-post.md: line 9: references 'same-day.md', but articles/same-day.md does not exist",
        "projects/alpha-one.md: line 19: references '/articles/same-day', "
        "but articles/same-day.md does not exist",
    ]
    drafted = article("Same day published", date="2026-04-04", draft="true")
    assert problems(media_site, {"articles/same-day.md": drafted})[0].endswith(
        "but articles/same-day.md is a draft (a link would leak it)"
    )
    write_content(media_site, {"articles/same-day.md": MEDIA_FILES["articles/same-day.md"]})
    assert problems(media_site, {"media/alpha/small.png": None}) == [
        "projects/alpha-one.md: line 15: references '../media/alpha/small.png', but media/alpha/small.png "
        "does not exist"
    ]


def test_a_changed_image_re_renders_what_shows_it(media_site):
    before = Project.objects.get(slug="alpha-one")
    write_content(media_site, {"media/alpha/small.png": png(200, 100)})
    result = import_content(media_site, workers=1)
    after = Project.objects.get(slug="alpha-one")
    assert 'height="100"' in after.body_html and 'width="200"' in after.body_html
    assert after.content_hash != before.content_hash  # so the build renders its page again
    assert result.updated == 1


def test_variants_are_made_once_and_cached(media_site, settings, tmp_path):
    settings.MEDIA_CACHE_DIR = cache = tmp_path / "own-cache"
    import_content(media_site, workers=2, full=True)  # two images: made on two processes
    made = {path.name: path.stat().st_mtime_ns for path in cache.iterdir()}
    assert len(made) == 7  # the cover's 4 widths and the card's 3
    call_command("import_content", "--path", str(media_site), verbosity=0)
    import_content(media_site, workers=2, full=True)
    assert {path.name: path.stat().st_mtime_ns for path in cache.iterdir()} == made
    (cache / sorted(made)[0]).unlink()  # a lost cache file is made again
    import_content(media_site, workers=1)
    assert sorted(path.name for path in cache.iterdir()) == sorted(made)
    # Each image row names its variants' key, which the view finds them by; a key made by other
    # code (another VARIANT_VERSION) is named again by the next import, the files unchanged.
    keys = dict(MediaFile.objects.values_list("path", "variant_key"))
    assert {name.split("-")[0] for name in made} == {key for key in keys.values() if key}
    MediaFile.objects.update(variant_key="stale")
    import_content(media_site, workers=1)
    assert dict(MediaFile.objects.values_list("path", "variant_key")) == keys


def psnr(image, reference):
    rms = ImageStat.Stat(ImageChops.difference(image, reference)).rms
    mse = sum(value * value for value in rms) / len(rms)
    return 10 * math.log10(255 * 255 / mse) if mse else math.inf


def test_variants_resized_in_a_chain_look_like_direct_resizes_and_do_not_depend_on_the_cache(tmp_path):
    photo = Image.effect_mandelbrot((1600, 1000), (-2.2, -1.2, 0.8, 1.2), 60).convert("RGB")
    chain = dict(resized_chain(photo, {480: "", 720: ""}))
    assert sorted(chain) == sorted(VARIANT_WIDTHS)  # down to the smallest wanted, via the larger
    for width, image in chain.items():
        assert image.size == (width, round(1000 * width / 1600))
        assert psnr(image, photo.resize(image.size, Image.Resampling.LANCZOS)) > 40

    photo.save(source := tmp_path / "photo.png")
    every = [(width, f"{width}.webp") for width in VARIANT_WIDTHS]
    for folder, missing in (("all", every), ("one", every[:1])):
        (tmp_path / folder).mkdir()
        assert make_variants((str(source), missing, str(tmp_path / folder))) == (len(missing), None)
    assert (tmp_path / "one" / "480.webp").read_bytes() == (tmp_path / "all" / "480.webp").read_bytes()


def test_a_missing_target_is_named_as_the_author_wrote_it(media_site):
    """markdown-it percent-encodes a non-ASCII address (`%C3%A9t%C3%A9`): the message and the
    line are the author's `été`."""
    body = "One.\n\nTwo ![x](../media/photos/été.png)\n"
    write_content(media_site, {"articles/accents.md": article("Accents", body=body)})
    with pytest.raises(ContentInvalid) as caught:
        import_content(media_site, workers=1)
    assert [str(error) for error in caught.value.errors] == [
        "articles/accents.md: line 8: references '../media/photos/été.png', "
        "but media/photos/été.png does not exist"
    ]
