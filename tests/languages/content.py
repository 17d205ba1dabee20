"""A multilingual content folder: the standard test site in English (the default) with French,
Persian (right to left) and Japanese (CJK) translations, a draft translation and a scheduled one."""

from tests.content_builder import write_content

LANGUAGES = """languages:
  - code: en
  - code: fr
    title: "Portfolio de test"
    description: "Un portfolio pour les tests."
  - code: fa
    name: "فارسی"
  - code: ja
"""

FR_FIRST = """---
title: "Premier article"
aliases: [ancien-premier, "/fr/posts/premier/"]
description: "Le premier, en français."
tags: [introduction, méta]
---
Le corps en **français**. Voir [le projet](../projects/alpha-one.md) et [un autre](same-day.md).
"""
FA_FIRST = """---
title: "نخستین نوشته"
description: "نخستین نوشته به فارسی."
tags: [معرفی]
---
متن به فارسی، از راست به چپ.
"""
JA_FIRST = """---
title: "最初の記事"
description: "日本語の最初の記事。"
---
日本語の本文です。
"""
FR_DRAFT = """---
title: "Brouillon secret"
description: "Une traduction en brouillon."
draft: true
---
Ne pas publier.
"""
FR_SCHEDULED = """---
title: "Article futur"
description: "Daté après la construction."
date: 2999-01-01
---
Plus tard.
"""
FR_PROJECT = """---
title: "Alpha Un"
tagline: "Une accroche"
---
Le projet en français.
"""
FA_PROJECT = """---
title: "آلفا یک"
description: "پروژه به فارسی"
---
پروژه.
"""
FR_PAGE = """---
title: "À propos"
description: "Qui je suis."
---
Une page.
"""
ABOUT = """---
title: "About"
description: "Who I am."
---
A page.
"""

STACK_FR = """currentFocus: "Tout tester"
models:
  - name: "Hébergé"
    type: subscription
    description: "Un modèle hébergé"
"""

FILES = {
    "stack.fr.yaml": STACK_FR,
    "articles/first-post.fr.md": FR_FIRST,
    "articles/first-post.fa.md": FA_FIRST,
    "articles/first-post.ja.md": JA_FIRST,
    "articles/same-day.fr.md": FR_DRAFT,
    "articles/crlf-post.fr.md": FR_SCHEDULED,
    "projects/alpha-one.fr.md": FR_PROJECT,
    "projects/alpha-one.fa.md": FA_PROJECT,
    "pages/about.md": ABOUT,
    "pages/about.fr.md": FR_PAGE,
}


def write_multilingual(folder):
    """The standard test content, with site.yaml's languages and the translations above."""
    return add_languages(write_content(folder))


def add_languages(folder):
    """Add site.yaml's languages and the translations above to a content folder."""
    site = folder / "site.yaml"
    site.write_text(site.read_text(encoding="utf-8") + LANGUAGES, encoding="utf-8")
    for rel, text in FILES.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    return folder


# More French translations, for the lists' pages (tests/languages/test_lists.py): three projects,
# two articles sharing the tag "introduction".
MORE = {
    "projects/beta_two.fr.md": '---\ntitle: "Bêta Deux"\n---\nDeux.\n',
    "projects/gamma.fr.md": '---\ntitle: "Gamma fr"\n---\nTrois.\n',
    "articles/unicode-post.fr.md": '---\ntitle: "Unicode fr"\ntags: [introduction]\n---\nTexte.\n',
}


def add_more(folder):
    """Add the translations of MORE to a multilingual content folder."""
    for rel, text in MORE.items():
        (folder / rel).write_text(text, encoding="utf-8")
    return folder
