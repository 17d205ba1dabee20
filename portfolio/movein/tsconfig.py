"""An Astro content config (`src/content.config.ts`, `src/content/config.ts`) read as text: which
collections it defines and where each one's files are. No JavaScript runs: the file is cut into
tokens in one pass (strings, template literals, names, punctuation; comments dropped), and the
few shapes a content config is written in are looked for among the tokens:

    const blog = defineCollection({ loader: glob({ base: "./content/posts", pattern: "**/*.md" }) });
    export const collections = { blog, posts: legacy, "notes": defineCollection({ type: "content" }) };

A `base` may be a string, a template literal (`./${BLOG_PATH}`) or a name, read from the file's
own `const NAME = "..."` or from an `export const NAME = "..."` of a module it imports by name
(`import { CONTENT_DIR } from "./consts"`: the caller reads the module's text, from SOURCE only);
what cannot be read so is None, and `unread` says why. An astro.config's `i18n` (its locales) is
read from its tokens in the same way: i18n(); and so are the options that place its pages
(`base`, `trailingSlash`, `build.format`): config_options().
"""

import re
from dataclasses import dataclass

# One token: a comment (dropped), a string, a template literal (its `${...}` kept as written, to
# one level of braces), a name, a number or one character of punctuation. Each alternative
# consumes at least one character and none can backtrack past its own closing quote: one pass.
TOKEN = re.compile(
    r"""(?P<comment>//[^\n]*+|/\*(?:[^*]|\*(?!/))*+(?:\*/)?)"""
    r"""|(?P<string>"(?:[^"\\\n]|\\.)*+"?|'(?:[^'\\\n]|\\.)*+'?)"""
    r"""|(?P<template>`(?:[^`\\]|\\.)*+`?)"""
    r"""|(?P<name>[A-Za-z_$][\w$]*+)"""
    r"""|(?P<space>\s++)"""
    r"""|(?P<other>.)""",
    re.S,
)
PLACEHOLDER = re.compile(r"\$\{\s*([A-Za-z_$][\w$]*)\s*\}")
CONFIG_MAX = 1_000_000
# How many modules a config's imports are read from (a real one imports a few; each is read whole).
MODULES_MAX = 20


@dataclass
class Collection:
    name: str
    loader: str | None  # "glob", another loader's name ("file", a package's), or None: legacy
    base: str | None = None  # the glob loader's folder, relative to the project's root
    pattern: str | None = None  # the glob loader's pattern
    unread: str = ""  # what of it could not be read (a base written as a call, a name imported)


def tokens(text):
    """[(kind, text)] of `text`, comments and spaces left out."""
    found = []
    for match in TOKEN.finditer(text[:CONFIG_MAX]):
        kind = match.lastgroup
        if kind not in ("comment", "space"):
            found.append((kind, match[0]))
    return found


def collections(text, module=None):
    """{name: Collection} of every collection the config exports. `module(specifier)` gives the
    text of a module the config imports from, as (text, None), or (None, why it is not read)."""
    toks = tokens(text)
    closing = _closings(toks)
    imported, unread = _imported(toks, closing, module) if module else ({}, {})
    constants = _constants(toks, imported)
    defined = {}  # {variable name: Collection} of `const x = defineCollection(...)`
    exported = {}  # {collection name: Collection}
    index = -1
    while index + 1 < len(toks):
        index += 1
        kind, word = toks[index]
        if kind != "name" or word != "defineCollection" or index + 1 not in closing:
            continue  # not a call, or one never closed
        end = closing[index + 1]
        resume = end  # each token is read by one call's scan: linear (a call inside is not one)
        collection = _collection(toks[index + 2 : end], constants, closing, index + 2, unread)
        before = [_at(toks, index - 3), _at(toks, index - 2), _at(toks, index - 1)]
        if before[2] == "=" and before[0] in ("const", "let", "var"):
            defined[before[1]] = collection
        elif before[2] == ":" and before[1]:
            collection.name = _unquote(before[1])
            exported[collection.name] = collection
        index = resume
    for index, (_, word) in enumerate(toks):
        if word == "collections" and _at(toks, index + 1) == "=" and _at(toks, index + 2) == "{":
            end = closing.get(index + 2, len(toks))
            for key, value in _members(toks, index + 3, end, closing):
                if value in defined:
                    exported[key] = Collection(**{**defined[value].__dict__, "name": key})
    if not exported:  # a config that does not export them as read here: name them as defined
        for name, collection in defined.items():
            exported[name] = Collection(**{**collection.__dict__, "name": name})
    return exported


def _collection(toks, constants, closing, offset, unread):
    """The Collection a `defineCollection(...)`'s arguments describe (its name set by the caller);
    `unread`: {imported name: why its value is not known}."""
    for index, (_, word) in enumerate(toks):
        if word == "loader" and _at(toks, index + 1) == ":":
            call = _at(toks, index + 2)
            if call != "glob" or _at(toks, index + 3) != "(" or _at(toks, index + 4) != "{":
                return Collection("", call or "?", unread=f"its loader {call}() is not glob()")
            end = closing.get(offset + index + 4, offset + len(toks)) - offset
            options = dict(_members(toks, index + 5, end, {}, values=True))
            base, pattern = options.get("base"), options.get("pattern")
            collection = Collection("", "glob")
            collection.base = _value(base, constants)
            collection.pattern = _value(pattern, constants) if pattern else "**/*.md"
            if collection.base is None:
                why = next((unread[name] for name in _names(base) if name in unread), None)
                collection.unread = f"its glob() base {_written(base)} " + (
                    why or "cannot be read without running it"
                )
            return collection
    return Collection("", None)


def i18n(text):
    """(defaultLocale, {path: language code}) of an astro.config's `i18n: { defaultLocale,
    locales }`: a locale written as a string is its own path and code, one written as
    `{ path: "french", codes: ["fr", "fr-CA"] }` has its path and its first code ("", {} without)."""
    toks = tokens(text)
    closing = _closings(toks)
    for index, (_, word) in enumerate(toks):
        if word == "i18n" and _at(toks, index + 1) == ":" and _at(toks, index + 2) == "{":
            end = closing.get(index + 2, len(toks))
            options = dict(_members(toks, index + 3, end, closing, values=True))
            default = _value(options.get("defaultLocale"), {}) or ""
            return default, _locales(options.get("locales") or [])
    return "", {}


def config_options(text, names):
    """{name: value} of the options `names` (`base`, `build.format`: a member of a nested object)
    that an astro.config's own object writes (`defineConfig({...})`, `export default {...}`, or
    the `const config = {...}` either one names), each a string or a `const` of the file (`base`
    alone: the `const base` it names); None for one written otherwise (`process.env.BASE`, a
    call), which cannot be read without running the file. An option not written is absent."""
    toks = tokens(text)
    closing = _closings(toks)
    start = _config_object(toks, closing)
    if start is None:
        return {}
    constants = _constants(toks)
    found = {}
    for name in names:
        *outer, key = name.split(".")
        members, at, brackets = toks, start, closing
        for part in outer:  # `build: { format }`: the nested object's own members
            value = dict(_members(members, at + 1, brackets[at], brackets, values=True)).get(part) or []
            members, at, brackets = value, 0, _closings(value)
            if _at(members, 0) != "{" or 0 not in brackets:
                if value:  # `build: settings`: whatever it holds is not read
                    found[name] = None
                break
        else:
            written = dict(_members(members, at + 1, brackets[at], brackets, values=True))
            if key in written:
                found[name] = _value(written[key], constants)
            elif (key, key) in _members(members, at + 1, brackets[at], brackets):  # `{ base }`
                found[name] = constants.get(key)
    return found


def _config_object(toks, closing):
    """The index of the `{` that opens an astro.config's object, or None."""
    named = None
    for index, (_, word) in enumerate(toks):
        call = word == "defineConfig" and _at(toks, index + 1) == "("
        if call or (word == "default" and _at(toks, index - 1) == "export"):
            at = index + (2 if call else 1)
            if _at(toks, at) == "{" and at in closing:
                return at
            if _kind(toks, at) == "name" and _at(toks, at + 1) != "(":
                named = toks[at][1]  # `defineConfig(config)`, `export default config`
    if named is None:
        return None
    for index, (_, word) in enumerate(toks):
        if word in ("const", "let", "var") and _at(toks, index + 1) == named and _at(toks, index + 2) == "=":
            at = index + 3
            if _at(toks, at) == "defineConfig" and _at(toks, at + 1) == "(":
                at += 2
            return at if _at(toks, at) == "{" and at in closing else None
    return None


def _locales(written):
    """{path: code} of a `locales` array's tokens (each a string or a `{ path, codes }`)."""
    found, closing, index = {}, _closings(written), 1
    if _at(written, 0) != "[":
        return found
    while index < closing.get(0, 0):
        kind, word = written[index]
        if kind == "string":
            found[_unquote(word)] = _unquote(word)
        elif word == "{" and index in closing:
            members = dict(_members(written, index + 1, closing[index], closing, values=True))
            path = _value(members.get("path"), {})
            codes = [_unquote(w) for k, w in members.get("codes") or [] if k == "string"]
            if path and codes:
                found[path] = codes[0]
            index = closing[index]
        elif word in "([" and index in closing:  # not a locale: skipped whole
            index = closing[index]
        index += 1
    return found


def _members(toks, start, end, closing, values=False):
    """(key, value) of each member of the object literal toks[start:end] at its top level: the
    value a name (`blog: posts`, `blog` alone) or, with `values`, the tokens up to the next comma."""
    index = start
    while index < end:
        kind, word = toks[index]
        if kind in ("name", "string") and _at(toks, index + 1) == ":":
            key = _unquote(word)
            value_start, depth, index = index + 2, 0, index + 2
            while index < end and not (depth == 0 and toks[index][1] == ","):
                depth += toks[index][1] in "([{"
                depth -= toks[index][1] in ")]}"
                index += 1
            value = toks[value_start:index]
            if values:
                yield key, value
            elif len(value) == 1 and value[0][0] == "name":
                yield key, value[0][1]
        elif kind == "name" and _at(toks, index + 1) in (",", "}", None) and not values:
            yield word, word
        elif word in "([{":
            index = closing.get(index, index)
        index += 1


def _value(written, constants):
    """The text a base or pattern's tokens name, or None."""
    if not written or len(written) != 1:
        return None
    kind, word = written[0]
    if kind == "string":
        return _unquote(word)
    if kind == "name":
        return constants.get(word)
    if kind == "template":
        inside = word[1:-1]
        missing = [name for name in PLACEHOLDER.findall(inside) if name not in constants]
        if missing or "${" in PLACEHOLDER.sub("", inside):
            return None
        return PLACEHOLDER.sub(lambda m: constants[m[1]], inside)
    return None


def _imported(toks, closing, module):
    """({local name: text}, {local name: why not}) of the names the file imports from a module:
    each an `export const NAME = "text"` (or a template of the module's earlier constants) there."""
    values, unread, read = {}, {}, {}
    for local, (name, specifier) in _imports(toks, closing).items():
        if specifier not in read and len(read) >= MODULES_MAX:
            read[specifier] = ({}, f"one module more than the {MODULES_MAX} read: not read")
        if specifier not in read:
            text, why = module(specifier)
            read[specifier] = (exported_constants(text), None) if why is None else ({}, why)
        exported, why = read[specifier]
        if name in exported:
            values[local] = exported[name]
        else:
            unread[local] = f"is imported from {specifier!r}, " + (
                why or f"where {name} is not an `export const` of a string"
            )
    return values, unread


def _imports(toks, closing):
    """{local name: (exported name, module specifier)} of the file's `import { A, B as C } from
    "./x"` (a default import, `import * as`, and `import type` bring no constant)."""
    found, index = {}, 0
    while index < len(toks):
        word = toks[index][1]
        end = closing.get(index + 1)
        if word != "import" or _at(toks, index + 1) != "{" or end is None:
            index += 1
            continue
        if _at(toks, end + 1) == "from" and _kind(toks, end + 2) == "string":
            specifier = _unquote(toks[end + 2][1])
            names = [word for _, word in toks[index + 2 : end] if word != "type"]
            for part in " ".join(names).split(","):
                words = part.split()
                if len(words) == 1 or (len(words) == 3 and words[1] == "as"):
                    found[words[-1]] = (words[0], specifier)
        index = end + 1
    return found


def exported_constants(text):
    """{NAME: text} of a module's `export const NAME = "text"` (its other constants may build them)."""
    toks = tokens(text)
    constants = _constants(toks)
    return {
        toks[index + 1][1]: constants[toks[index + 1][1]]
        for index, (_, word) in enumerate(toks)
        if word == "const" and _at(toks, index - 1) == "export" and _at(toks, index + 1) in constants
    }


def _constants(toks, imported=None):
    """{NAME: text} of the file's `const NAME = "text"` (and of templates built from earlier ones
    or from the names it imports)."""
    found = dict(imported or {})
    for index, (_, word) in enumerate(toks):
        if word == "const" and _at(toks, index + 2) == "=" and _kind(toks, index + 1) == "name":
            following = _at(toks, index + 4)
            if following in (";", None, "export", "const", "let", "import") or following == "as":
                value = _value(toks[index + 3 : index + 4], found)
                if value is not None:
                    found[toks[index + 1][1]] = value
    return found


def _names(written):
    """The names a value's tokens use: itself, or a template's `${NAME}`s."""
    for kind, word in written or []:
        if kind == "name":
            yield word
        elif kind == "template":
            yield from PLACEHOLDER.findall(word)


def _closings(toks):
    """{index of an opening bracket: index of its closing one}, by one pass with a stack."""
    stack, found = [], {}
    pairs = {")": "(", "]": "[", "}": "{"}
    for index, (kind, word) in enumerate(toks):
        if kind != "other":
            continue
        if word in "([{":
            stack.append((word, index))
        elif word in pairs:
            while stack and stack[-1][0] != pairs[word]:
                stack.pop()  # an unbalanced bracket: skipped
            if stack:
                found[stack.pop()[1]] = index
    return found


def _at(toks, index):
    return toks[index][1] if 0 <= index < len(toks) else None


def _kind(toks, index):
    return toks[index][0] if 0 <= index < len(toks) else None


def _unquote(word):
    if len(word) >= 2 and word[0] in "\"'`" and word[-1] == word[0]:
        return re.sub(r"\\(.)", r"\1", word[1:-1])
    return word


def _written(toks):
    return " ".join(word for _, word in toks or [])[:80] or "(none)"


def glob_pattern(pattern):
    """A compiled regular expression matching the paths (relative, with `/`) a glob pattern of
    Astro's glob() loader (micromatch) takes: `**`, `*`, `?`, `[...]`, `[^...]`, `{a,b}`."""
    out, index, depth = [], 0, 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**/", index):
            out.append("(?:[^/]*/)*")
            index += 3
            continue
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = pattern.find("]", index + 2)
            if end == -1:
                out.append(re.escape(char))
            else:
                inside = pattern[index + 1 : end]
                negated = inside[:1] in "!^"
                inside = inside[1:] if negated else inside
                out.append("[" + ("^/" if negated else "") + inside.replace("\\", "\\\\") + "]")
                index = end
        elif char == "{":
            out.append("(?:")
            depth += 1
        elif char == "}" and depth:
            out.append(")")
            depth -= 1
        elif char == "," and depth:
            out.append("|")
        else:
            out.append(re.escape(char))
        index += 1
    out.append(")" * depth)
    try:
        return re.compile("".join(out))
    except re.error:
        return re.compile(r"[^/]*(?:/[^/]*)*\.(?:md|mdx|markdown)")
