// /search?q=...: the build's Pagefind index (portfolio/export/search_index.py), searched in the
// browser. The index is cut into bundles that /pagefind/bundles.json lists: the first holds
// Pagefind's script and WebAssembly, the others are merged into it (Pagefind's mergeIndex).
// Results are built as elements and text, never innerHTML: the excerpt is cut from the page's
// plain text (Pagefind's `content`) and only the matched words become <mark> elements.
(() => {
  "use strict";
  const form = document.querySelector("[data-search-form]");
  if (!form) return;
  const input = form.elements.q;
  const status = document.querySelector("[data-search-status]");
  const list = document.querySelector("[data-search-results]");
  const more = document.querySelector("[data-search-more]");
  const BUNDLES = "/pagefind/bundles.json";
  const BUNDLE = /^\/pagefind\/[a-z0-9-]+\/$/;
  const PAGE = 10; // results shown at a time
  // The page's words in its language (portfolio/jinja2.py script_words: data-words on the form, by
  // the English text; none on an English page): the English here is the fallback. %(name)s takes
  // a value; a plural is [its form for 1, its form for more].
  const SAID = (() => {
    try {
      return JSON.parse(form.getAttribute("data-words") || "{}");
    } catch (error) {
      return {};
    }
  })();
  function tr(text, values = {}, plural = null, count = 1) {
    let said = SAID[text] || (count === 1 ? text : plural || text);
    if (Array.isArray(said)) said = said[count === 1 ? 0 : 1];
    return said.replace(/%\((\w+)\)s/g, (whole, name) => (name in values ? String(values[name]) : whole));
  }
  const UNAVAILABLE = tr("Search is not available: this site's search index could not be read.");
  // The authoring server before any build: its list of bundles is empty (pages/views.py).
  const NO_INDEX = tr("No search index yet: run make build once, then search again (make build updates it).");
  let pagefind = null; // a promise of Pagefind's module, bundles merged
  let latest = 0; // the newest search: an older one's answer is dropped
  let results = [];
  let shown = 0;

  function load() {
    pagefind =
      pagefind ||
      fetch(BUNDLES)
        .then((response) => {
          if (!response.ok) throw new Error(`${BUNDLES}: ${response.status}`);
          return response.json();
        })
        .then(async ({ bundles }) => {
          if (Array.isArray(bundles) && !bundles.length) throw new NoIndex();
          if (!Array.isArray(bundles) || !bundles.every((b) => BUNDLE.test(b))) {
            throw new Error(`${BUNDLES}: not a list of bundles`);
          }
          const module = await import(`${bundles[0]}pagefind.js`);
          await Promise.all(bundles.slice(1).map((bundle) => module.mergeIndex(bundle)));
          return module;
        });
    return pagefind;
  }

  class NoIndex extends Error {}

  function unavailable(error) {
    return error instanceof NoIndex ? NO_INDEX : UNAVAILABLE;
  }

  function say(text) {
    if (status.textContent !== text) status.textContent = text;
  }

  function remember(term) {
    const query = term ? `?${new URLSearchParams({ q: term })}` : "";
    if (location.search !== query) history.replaceState(null, "", location.pathname + query);
  }

  async function search(term, debounce) {
    const run = ++latest;
    term = term.trim();
    remember(term);
    if (!term) {
      results = [];
      list.replaceChildren();
      more.hidden = true;
      say("");
      return;
    }
    let found;
    try {
      const module = await load();
      found = debounce ? await module.debouncedSearch(term, {}, 250) : await module.search(term);
    } catch (error) {
      if (run === latest) say(unavailable(error));
      return;
    }
    if (found === null || run !== latest) return; // a newer search is on its way
    results = found.results;
    shown = 0;
    list.replaceChildren();
    const count = results.length;
    say(
      count
        ? tr("%(count)s result for “%(term)s”", { count, term }, "%(count)s results for “%(term)s”", count)
        : tr("No results for “%(term)s”", { term }),
    );
    await showMore(run, false);
  }

  async function showMore(run, focus) {
    const next = results.slice(shown, shown + PAGE);
    shown += next.length;
    more.disabled = true;
    const data = await Promise.all(next.map((result) => result.data()));
    if (run !== latest) return;
    const items = data.map(item).filter(Boolean);
    list.append(...items);
    more.disabled = false;
    more.hidden = shown >= results.length;
    if (focus && items.length) items[0].querySelector("a").focus();
  }

  function element(name, className) {
    const node = document.createElement(name);
    if (className) node.className = className;
    return node;
  }

  // Pagefind names a page by its file (/articles/x.html); the site's address is /articles/x.
  function address(url) {
    const path = String(url || "").replace(/(?:\/index)?\.html(?=#|$)/, "") || "/";
    return path.startsWith("/") && !path.startsWith("//") ? path : null;
  }

  // The page's tags, from its `tags` metadata (templates/includes/tags.html writes a JSON list).
  function tagsOf(data) {
    try {
      const tags = JSON.parse((data.meta && data.meta.tags) || "[]");
      return Array.isArray(tags) ? tags.map(String) : [];
    } catch (error) {
      return [];
    }
  }

  function kind(path) {
    if (path.startsWith("/articles/")) return tr("Article");
    if (path.startsWith("/projects/")) return tr("Project");
    return tr("Page");
  }

  function item(data) {
    const path = address(data.url);
    if (!path) return null;
    const entry = element("li", "search-result");
    const heading = element("h2");
    const link = element("a");
    link.href = path;
    const title = (data.meta && data.meta.title) || path;
    link.textContent = title;
    heading.append(link);
    const tags = tagsOf(data);
    const excerpt = element("p", "search-excerpt");
    excerpt.append(...excerptOf(data, title, tags));
    const meta = element("p", "meta");
    meta.textContent = kind(path);
    entry.append(heading, excerpt, meta);
    if (tags.length) {
      const list = element("ul", "tags");
      list.setAttribute("aria-label", tr("Tags"));
      for (const name of tags) {
        const tag = element("li");
        tag.textContent = name;
        list.append(tag);
      }
      entry.append(list);
    }
    return entry;
  }

  // One excerpt of whole sentences of the page's text around its first match, "…" where it is
  // cut. Pagefind's `content` is the page's text (its title and tags read as sentences too: those
  // are shown apart, so a match in them does not start the excerpt) and `locations` the matched
  // words' places in it, counted by spaces. Built as text and <mark> elements, never as markup.
  const WORDS = 32; // about two lines
  const END = /[.!?…:]["”’)]*$/; // a word that ends a sentence

  function excerptOf(data, title, tags) {
    const words = String(data.content || "").split(" ");
    const sentences = []; // [first word, word after the last]
    let first = 0;
    words.forEach((word, at) => {
      if (END.test(word) || at === words.length - 1) {
        sentences.push([first, at + 1]);
        first = at + 1;
      }
    });
    const apart = new Set([title, ...tags].map((text) => text.toLowerCase().replace(/[.!?…:]+$/, "")));
    const body = sentences.filter(
      ([from, to]) => !apart.has(words.slice(from, to).join(" ").toLowerCase().replace(/[.!?…:]+$/, "")),
    );
    if (!body.length) return [];
    const matched = new Set(data.locations || []);
    const start = body.findIndex(([from, to]) => words.slice(from, to).some((_, n) => matched.has(from + n)));
    let at = start < 0 ? 0 : start;
    // A match late in a long sentence: start the excerpt a few words before it instead.
    let [from, to] = body[at];
    const hit = start < 0 ? from : [...matched].filter((n) => n >= from && n < to).sort((a, b) => a - b)[0];
    const cutBefore = hit - from > WORDS / 2 ? hit - 6 : from;
    const chosen = [];
    let count = 0;
    while (at < body.length && count < WORDS) {
      [from, to] = body[at];
      const begin = chosen.length ? from : cutBefore;
      const take = Math.min(to, begin + WORDS - count);
      chosen.push([begin, take]);
      count += take - begin;
      at += 1;
    }
    const nodes = [];
    const [head] = chosen;
    if (head[0] !== body[0][0]) nodes.push(document.createTextNode("… "));
    chosen.forEach(([begin, end], index) => {
      for (let n = begin; n < end; n++) {
        if (n > begin || index > 0) nodes.push(document.createTextNode(" "));
        nodes.push(...highlighted(words[n], matched.has(n)));
      }
    });
    const [, last] = chosen[chosen.length - 1];
    if (last !== body[body.length - 1][1]) nodes.push(document.createTextNode(" …"));
    return merged(nodes);
  }

  // A matched word marked without its punctuation: "sqlite." is <mark>sqlite</mark>.
  function highlighted(word, match) {
    if (!match) return [document.createTextNode(word)];
    const [, before, core, after] = word.match(/^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/u);
    const mark = element("mark");
    mark.textContent = core || word;
    return [before, mark, after]
      .filter(Boolean)
      .map((part) => (typeof part === "string" ? document.createTextNode(part) : part));
  }

  // Neighbouring text nodes as one (screen readers read a paragraph, not word by word).
  function merged(nodes) {
    const out = [];
    for (const node of nodes) {
      const last = out[out.length - 1];
      if (node.nodeType === Node.TEXT_NODE && last && last.nodeType === Node.TEXT_NODE) {
        last.textContent += node.textContent;
      } else {
        out.push(node);
      }
    }
    return out;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    search(input.value, false);
  });
  input.addEventListener("input", () => search(input.value, true));
  more.addEventListener("click", () => showMore(latest, true));

  const term = new URLSearchParams(location.search).get("q") || "";
  input.value = term;
  if (term) {
    // The footer waits for the first results: hidden, it is not moved down by their arrival. It
    // shows again a frame after they are drawn, where they left it.
    document.body.classList.add("search-pending");
    search(term, false).finally(() =>
      requestAnimationFrame(() => requestAnimationFrame(() => document.body.classList.remove("search-pending"))),
    );
  } else load().catch((error) => say(unavailable(error))); // fetched while the visitor types
})();
