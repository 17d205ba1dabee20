// /search?q=...: the build's Pagefind index (portfolio/export/search_index.py), searched in the
// browser. The index is cut into bundles that /pagefind/bundles.json lists: the first holds
// Pagefind's script and WebAssembly, the others are merged into it (Pagefind's mergeIndex).
// Results are built as elements and text, never innerHTML: Pagefind's excerpt is the page's text
// with < and > escaped and the matched words in <mark>, and only those two tags become elements.
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
  const UNAVAILABLE =
    "Search is not available: this site has no search index yet, or it could not be read. A build writes it (make build).";
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
          if (!Array.isArray(bundles) || !bundles.length || !bundles.every((b) => BUNDLE.test(b))) {
            throw new Error(`${BUNDLES}: not a list of bundles`);
          }
          const module = await import(`${bundles[0]}pagefind.js`);
          await module.options({ excerptLength: 24 });
          await Promise.all(bundles.slice(1).map((bundle) => module.mergeIndex(bundle)));
          return module;
        });
    return pagefind;
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
      if (run === latest) say(UNAVAILABLE);
      return;
    }
    if (found === null || run !== latest) return; // a newer search is on its way
    results = found.results;
    shown = 0;
    list.replaceChildren();
    const count = results.length;
    say(count ? `${count} ${count === 1 ? "result" : "results"} for “${term}”` : `No results for “${term}”`);
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

  function kind(path) {
    if (path.startsWith("/articles/")) return "Article";
    if (path.startsWith("/projects/")) return "Project";
    return "Page";
  }

  function item(data) {
    const path = address(data.url);
    if (!path) return null;
    const entry = element("li", "search-result");
    const heading = element("h2");
    const link = element("a");
    link.href = path;
    link.textContent = (data.meta && data.meta.title) || path;
    heading.append(link);
    const excerpt = element("p");
    excerpt.append(...marked(data));
    const meta = element("p", "meta");
    meta.textContent = kind(path);
    entry.append(heading, excerpt, meta);
    return entry;
  }

  // The excerpt as text nodes and <mark> elements, its text as the page shows it. Pagefind builds
  // the excerpt from the page's words with < and > escaped (an & stays as it is, so a page that
  // shows "&lt;" and one that shows "<" give the same excerpt) and whole words in <mark>. The
  // page's own words (data.content) are the text: the run of them that the excerpt escapes.
  function marked(data) {
    const shown = (data.excerpt || "").split(" ");
    const escaped = shown.map((word) => word.replace(/^<mark>([^]*)<\/mark>$/, "$1"));
    const words = (data.content || "").split(/[\r\n\s]+/g);
    const escape = (word) => word.replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const runs = (start) => escaped.every((word, n) => escape(words[start + n] ?? "") === word);
    const at = words.findIndex((_, start) => runs(start));
    if (at < 0) return unescaped(data.excerpt || ""); // words not split on spaces (segmented scripts)
    const nodes = [];
    shown.forEach((word, n) => {
      const text = document.createTextNode(words[at + n]);
      if (n) nodes.push(document.createTextNode(" "));
      if (word === escaped[n]) nodes.push(text);
      else {
        const mark = element("mark");
        mark.append(text);
        nodes.push(mark);
      }
    });
    return nodes;
  }

  // The excerpt read as Pagefind writes it, where its words cannot be found in the page's.
  function unescaped(excerpt) {
    const nodes = [];
    let mark = null;
    for (const part of excerpt.split(/(<\/?mark>)/)) {
      if (part === "<mark>") {
        mark = element("mark");
      } else if (part === "</mark>") {
        if (mark) nodes.push(mark);
        mark = null;
      } else if (part) {
        const text = document.createTextNode(part.replace(/&lt;/g, "<").replace(/&gt;/g, ">"));
        (mark || { append: (node) => nodes.push(node) }).append(text);
      }
    }
    if (mark) nodes.push(mark);
    return nodes;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    search(input.value, false);
  });
  input.addEventListener("input", () => search(input.value, true));
  more.addEventListener("click", () => showMore(latest, true));

  const term = new URLSearchParams(location.search).get("q") || "";
  input.value = term;
  if (term) search(term, false);
  else load().catch(() => say(UNAVAILABLE)); // fetched while the visitor types
})();
