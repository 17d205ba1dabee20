"""The catalogs of the site's own words (locale/<language>/LC_MESSAGES/django.po and .mo).

    .venv/bin/python tools/messages.py            # update every .po from the sources, compile the .mo
    .venv/bin/python tools/messages.py --check    # exit 1 when a .po is not up to date
    .venv/bin/python tools/messages.py --add nl   # a new language's catalog (then translate it)

Django's makemessages does not read Jinja2 templates, so this finds the words itself, with the
parsers of the languages they are written in, never with a regular expression:

- templates/ and contact/jinja2/: Jinja2's own parser; the calls `_("...")`, `gettext("...")`,
  `ngettext("...", "...", n)` and `script_words("...", ("singular", "plural"), ...)` (the
  scripts' words, portfolio/jinja2.py), each with literal strings;
- pages/, contact/, api/ and portfolio/: Python's `ast`; the calls `gettext`, `ngettext`, `_`
  and their `_lazy` forms, with literal strings.

Each .po keeps the translations it has for the words still in use, gets the new words with an
empty translation (an empty or missing translation shows the English), and loses the words no
longer used; then GNU gettext's `msgfmt --check-format` compiles it, checking that every translation
keeps the placeholders (%(name)s) of its English. Both the .po and the .mo are committed: a
checkout builds without gettext installed. docs/languages.md says how to add a language.
"""

import argparse
import ast
import shutil
import subprocess
import sys
from pathlib import Path

import jinja2
from jinja2 import nodes

BASE = Path(__file__).resolve().parent.parent
LOCALE = BASE / "locale"
TEMPLATE_DIRS = [BASE / "templates", BASE / "contact" / "jinja2"]
TEMPLATE_SUFFIXES = {".html", ".txt", ".xml", ".md"}
PYTHON_DIRS = [BASE / "pages", BASE / "contact", BASE / "api", BASE / "portfolio"]
SINGULAR = {"_", "gettext", "gettext_lazy"}
PLURAL = {"ngettext", "ngettext_lazy"}

# Each language's plural rule, in gettext's form (the GNU gettext manual's table).
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "ja": "nplurals=1; plural=0;",
    "zh_Hans": "nplurals=1; plural=0;",
    "fa": "nplurals=2; plural=(n > 1);",
}


def find_words():
    """{(msgid, msgid_plural or None): [places]} of every word of the templates and the code."""
    words = {}

    # Where a word is said: its files, not their lines (xgettext's --add-location=file), so that a
    # line moved elsewhere in a template leaves the catalogs as they are.
    def found(key, place):
        places = words.setdefault(key, [])
        if place not in places:
            places.append(place)

    env = jinja2.Environment(extensions=["jinja2.ext.i18n"])
    for folder in TEMPLATE_DIRS:
        for path in sorted(folder.rglob("*")):
            if path.suffix not in TEMPLATE_SUFFIXES:
                continue
            tree = env.parse(path.read_text(encoding="utf-8"))
            place = path.relative_to(BASE)
            for call in tree.find_all(nodes.Call):
                if not isinstance(call.node, nodes.Name):
                    continue
                for key in template_call(call.node.name, call.args):
                    found(key, str(place))
    for folder in PYTHON_DIRS:
        for path in sorted(folder.rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            place = path.relative_to(BASE)
            for call in ast.walk(tree):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
                    for key in python_call(call.func.id, call.args):
                        found(key, str(place))
    return dict(sorted(words.items()))


def gettext_call(name, args, text):
    """The words of a call `name(*args)` of gettext's functions; `text(node)`: a node's literal
    string, or None."""
    if name in SINGULAR and args and text(args[0]) is not None:
        yield text(args[0]), None
    elif name in PLURAL and len(args) >= 2 and text(args[0]) is not None and text(args[1]) is not None:
        yield text(args[0]), text(args[1])


def template_call(name, args):
    def text(node):
        return node.value if isinstance(node, nodes.Const) and isinstance(node.value, str) else None

    if name == "script_words":
        for arg in args:
            if text(arg) is not None:
                yield text(arg), None
            elif isinstance(arg, nodes.Tuple) and len(arg.items) == 2 and None not in map(text, arg.items):
                yield text(arg.items[0]), text(arg.items[1])
    else:
        yield from gettext_call(name, args, text)


def python_call(name, args):
    def text(node):
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    yield from gettext_call(name, args, text)


# .po files: the subset this tool writes (no msgctxt), read back the same way.


def quote(text):
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    lines = escaped.split("\n")
    parts = [line + "\\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    if len(parts) == 1:
        return f'"{parts[0]}"'
    return '""\n' + "\n".join(f'"{part}"' for part in parts)


def unquote(text):
    out, chars = [], iter(text[1:-1])
    for char in chars:
        if char == "\\":
            char = next(chars)
            out.append({"n": "\n", "t": "\t"}.get(char, char))
        else:
            out.append(char)
    return "".join(out)


def read_po(path):
    """{(msgid, msgid_plural): [msgstr, ...]} of a .po file (its header under ("", None))."""
    entries, entry, field = {}, None, None

    def close():
        if entry is not None:
            entries[(entry["msgid"], entry.get("msgid_plural"))] = [
                entry[name] for name in sorted(k for k in entry if k.startswith("msgstr"))
            ]

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            entry[field] += unquote(line)
            continue
        keyword, _, value = line.partition(" ")
        if keyword == "msgid":
            close()
            entry = {}
        field = keyword
        entry[field] = unquote(value)
    close()
    return entries


def po_text(language, words, translations):
    """The .po file of `language`: `words`, each with its translation in `translations`."""
    plural_forms = PLURAL_FORMS.get(language, PLURAL_FORMS["en"])
    header = (
        f"Project-Id-Version: portfolio\nLanguage: {language}\nMIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n"
        f"Plural-Forms: {plural_forms}\n"
    )
    nplurals = int(plural_forms.split(";")[0].split("=")[1])
    out = [
        "# The site's own words (docs/languages.md). Written by tools/messages.py: edit the",
        "# translations (msgstr), then run it again; an empty msgstr shows the English.",
        'msgid ""',
        f"msgstr {quote(header)}",
    ]
    for (msgid, plural), places in words.items():
        out.append("")
        out += [f"#: {place}" for place in places]
        if "%(" in msgid or (plural and "%(" in plural):
            out.append("#, python-format")
        out.append(f"msgid {quote(msgid)}")
        old = translations.get((msgid, plural), [])
        if plural is None:
            out.append(f"msgstr {quote(old[0] if old else '')}")
        else:
            out.append(f"msgid_plural {quote(plural)}")
            for n in range(nplurals):
                out.append(f"msgstr[{n}] {quote(old[n] if n < len(old) else '')}")
    return "\n".join(out) + "\n"


def write_po(path, language, words, translations):
    """Write the .po file if it changed; whether it did."""
    text = po_text(language, words, translations)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return True
    return False


def compile_po(po, mo):
    """Compile `po` into `mo` by GNU msgfmt (checking that each translation keeps its format strings)."""
    subprocess.run(["msgfmt", "--check-format", "--check-domain", "-o", str(mo), str(po)], check=True)


def catalogs():
    return sorted(LOCALE.glob("*/LC_MESSAGES/django.po"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if out of date")
    parser.add_argument(
        "--add", metavar="LANGUAGE", help="start the catalog of a language (locale name: zh_Hans)"
    )
    options = parser.parse_args(argv)
    words = find_words()
    pos = catalogs()
    if options.add:
        pos.append(LOCALE / options.add / "LC_MESSAGES" / "django.po")
    stale = []
    for po in pos:
        language = po.parent.parent.name
        translations = read_po(po) if po.exists() else {}
        if options.check:
            if not po.exists() or po.read_text(encoding="utf-8") != po_text(language, words, translations):
                stale.append(f"{po.relative_to(BASE)}: not up to date with the sources")
            continue
        if write_po(po, language, words, translations):
            print(f"updated {po.relative_to(BASE)}")
        if shutil.which("msgfmt") is None:
            print("msgfmt (GNU gettext) is missing: the .mo files were not compiled", file=sys.stderr)
            return 1
        compile_po(po, po.with_suffix(".mo"))
    for problem in stale:
        print(problem, file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
