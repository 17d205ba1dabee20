// The Worker of a Cloudflare Workers deploy (deploy/wrangler.json): the built folder is its static
// assets, served by Cloudflare as Pages serves them (_redirects, _headers, extensionless pages, the
// nearest 404.html). This runs first for the addresses without a dot (run_worker_first), and
// answers a page's markdown form to an Accept that prefers markdown: the same rule as
// pages/negotiation.py, which the tests hold this file to. Files (a dot in the address) never
// reach it, and any other address is handed to the assets as it came.

// pages/negotiation.py's MARKDOWN_PAGE_PATH.
const MARKDOWN_PAGE_PATH = /^\/$|^\/(projects|articles|stack|tags)$|^\/(projects|articles|tags|series)\/[^\/.]+$|^\/(projects|articles)\/page\/[0-9]+$|^\/tags\/[^\/.]+\/page\/[0-9]+$|^\/[a-z]{2,3}(-[a-z0-9]{2,8}){0,2}\/(projects|articles)\/[^\/.]+$/;
// pages/negotiation.py's STANDALONE_PAGE_PATH: a standalone page (/about, /fr/about) has a form
// where the build wrote one.
const STANDALONE_PAGE_PATH = /^\/[^\/.]+$|^\/[a-z]{2,3}(-[a-z0-9]{2,8}){0,2}\/[^\/.]+$/;

// [[type, subtype, q]] of an Accept header; a q that cannot be read counts as 1.
function accepted(header) {
  const ranges = [];
  for (const part of (header || "").split(",")) {
    const [media, ...params] = part.split(";").map((piece) => piece.trim());
    if (!media.includes("/")) continue;
    const [main, sub] = media.toLowerCase().split("/", 2).map((side) => side.trim());
    let q = 1;
    for (const param of params) {
      const match = /^q=([0-9](?:\.[0-9]{0,3})?)$/.exec(param.replace(/ /g, "").toLowerCase());
      if (match) q = Math.min(parseFloat(match[1]), 1);
    }
    ranges.push([main, sub, q]);
  }
  return ranges;
}

// text/markdown named, and ranked above text/html (text/html's q, else text/*'s, else */*'s).
export function prefersMarkdown(header) {
  const ranges = accepted(header);
  const qOf = (main, sub) => ranges.filter(([m, s]) => m === main && s === sub).map(([, , q]) => q);
  const markdown = Math.max(0, ...qOf("text", "markdown"));
  let html = 0;
  for (const [main, sub] of [["text", "html"], ["text", "*"], ["*", "*"]]) {
    const found = qOf(main, sub);
    if (found.length) {
      html = Math.max(...found);
      break;
    }
  }
  return markdown > 0 && markdown > html;
}

function varying(response) {
  const answer = new Response(response.body, response);
  answer.headers.append("Vary", "Accept");
  return answer;
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const method = request.method;
    // A list or an item: it has a markdown form whatever the build wrote (a standalone page, only
    // where the build wrote one).
    const alwaysForm = MARKDOWN_PAGE_PATH.test(url.pathname);
    if ((method !== "GET" && method !== "HEAD") || !(alwaysForm || STANDALONE_PAGE_PATH.test(url.pathname))) {
      return env.ASSETS.fetch(request);
    }
    const form = new URL(url);
    form.pathname = url.pathname === "/" ? "/index.md" : `${url.pathname}.md`;
    if (prefersMarkdown(request.headers.get("Accept"))) {
      const markdown = await env.ASSETS.fetch(new Request(form, request));
      if (markdown.status === 200 || markdown.status === 304) return varying(markdown);
      if (!alwaysForm) return env.ASSETS.fetch(request);
    } else if (!alwaysForm) {
      // Whether the build wrote this page a markdown form, which its answer then varies with.
      const written = await env.ASSETS.fetch(new Request(form, { method: "HEAD" }));
      if (written.status !== 200) return env.ASSETS.fetch(request);
    }
    return varying(await env.ASSETS.fetch(request));
  },
};
