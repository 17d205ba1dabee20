"""Loopback stand-ins of the third parties site.yaml can name (giscus, a self-hosted Plausible or
Umami): a tiny HTTP server that answers what the browser asks of the real one and records every
connection and request, so a test can say what reached it and when."""

import ssl
import subprocess
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

# giscus' client.js (giscus/client/client.ts), as it changes the page: from its own origin, it
# prepends its stylesheet to <head> and puts its frame (the thread, `theme` in the address) in the
# page's `.giscus` element; a `resizeHeight` message from the frame sets the frame's height.
GISCUS_CLIENT_JS = """(function () {
  var script = document.currentScript;
  var origin = new URL(script.src).origin;
  var data = script.dataset;
  var link = document.createElement("link");
  link.id = "giscus-css";
  link.rel = "stylesheet";
  link.href = origin + "/default.css";
  document.head.prepend(link);
  var params = new URLSearchParams({origin: location.href, theme: data.theme, repo: data.repo,
                                    mapping: data.mapping, term: location.pathname});
  var frame = document.createElement("iframe");
  var attributes = {"class": "giscus-frame giscus-frame--loading", title: "Comments", scrolling: "no",
                    allow: "clipboard-write", src: origin + "/widget?" + params, loading: "lazy"};
  Object.keys(attributes).forEach(function (name) { frame.setAttribute(name, attributes[name]); });
  frame.style.opacity = "0";
  frame.addEventListener("load", function () {
    frame.style.removeProperty("opacity");
    frame.classList.remove("giscus-frame--loading");
  });
  var container = document.querySelector(".giscus");
  if (container) container.replaceChildren(frame);
  else script.insertAdjacentElement("afterend", frame);
  window.addEventListener("message", function (event) {
    if (event.origin !== origin || !event.data || !event.data.giscus) return;
    if (event.data.giscus.resizeHeight) frame.style.height = event.data.giscus.resizeHeight + "px";
  });
})();
"""
# giscus' default.css.
GISCUS_CSS = """.giscus, .giscus-frame { width: 100%; min-height: 150px; }
.giscus-frame { border: none; color-scheme: light dark; }
.giscus-frame--loading { opacity: 0; }
"""
# The thread: a stand-in discussion in the theme it was asked for; a setConfig message (the page's
# change of theme) repaints it and is reported to the stand-in (GET /seen?theme=...).
GISCUS_WIDGET = """<!doctype html><html><head><meta charset="utf-8"><title>Comments</title><style>
  body { margin: 0; padding: 16px; font: 15px/1.5 sans-serif; }
  body.light { background: #ffffff; color: #1f2328; }
  body.dark { background: #0d1117; color: #e6edf3; }
  .comment { border: 1px solid #8888; border-radius: 6px; padding: 8px 12px; margin-bottom: 8px; }
</style></head><body><p><strong>2 comments</strong> · stand-in of giscus</p>
<div class="comment">A stand-in comment.</div><div class="comment">Another one.</div>
<script>
  var theme = new URLSearchParams(location.search).get("theme");
  function paint(name) { theme = name; document.body.className = name; }
  paint(theme);
  window.addEventListener("message", function (event) {
    var config = event.data && event.data.giscus && event.data.giscus.setConfig;
    if (!config || !config.theme) return;
    paint(config.theme);
    fetch("/seen?theme=" + encodeURIComponent(config.theme));
  });
  parent.postMessage({giscus: {resizeHeight: document.documentElement.scrollHeight}}, "*");
</script></body></html>
"""
# Plausible's and Umami's scripts, as they reach their server: a page view POSTed (a simple
# request: text/plain, no preflight) to /api/event or /api/send on the script's own origin.
ANALYTICS_JS = """(function () {
  var script = document.currentScript;
  var origin = new URL(script.src).origin;
  var endpoint = script.hasAttribute("data-website-id") ? "/api/send" : "/api/event";
  fetch(origin + endpoint, {method: "POST", body: JSON.stringify({url: location.href}), keepalive: true});
})();
"""
FILES = {
    "/client.js": ("text/javascript", GISCUS_CLIENT_JS),
    "/default.css": ("text/css", GISCUS_CSS),
    "/widget": ("text/html; charset=utf-8", GISCUS_WIDGET),
    "/js/script.js": ("text/javascript", ANALYTICS_JS),
    "/script.js": ("text/javascript", ANALYTICS_JS),
}


class StandIn(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, tls_folder=None):
        super().__init__(("127.0.0.1", 0), Handler)
        self.scheme = "http"
        if tls_folder:  # https with a certificate of its own: the browser is told to accept it
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*self_signed(tls_folder))
            self.socket = context.wrap_socket(self.socket, server_side=True)
            self.scheme = "https"
        self.connections = 0  # accepted TCP connections: a preconnect opens one and asks nothing
        self.requests = []  # (method, path with query, {header: value})
        self.lock = threading.Lock()

    @property
    def origin(self):
        return f"{self.scheme}://127.0.0.1:{self.server_address[1]}"

    def verify_request(self, request, client_address):
        with self.lock:
            self.connections += 1
        return True

    def paths(self):
        with self.lock:
            return [urlsplit(path).path for _, path, _ in self.requests]

    def queries(self, path):
        """The query ({name: value}) of each request of `path`."""
        with self.lock:
            found = [urlsplit(asked) for _, asked, _ in self.requests]
        return [{k: v[0] for k, v in parse_qs(p.query).items()} for p in found if p.path == path]

    def clear(self):
        with self.lock:
            self.connections, self.requests[:] = 0, []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self):
        with self.server.lock:
            self.server.requests.append((self.command, self.path, dict(self.headers)))

    def answer(self, status, content_type, body):
        body = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Access-Control-Allow-Origin", "*")  # client.js is loaded crossorigin
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.record()
        path = urlsplit(self.path).path
        if path in FILES:
            self.answer(200, *FILES[path])
        else:
            self.answer(204 if path == "/seen" else 404, "text/plain", "")

    def do_POST(self):
        self.record()
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.answer(202, "text/plain", "")


def self_signed(folder):
    """(certificate, key) files of a certificate for 127.0.0.1, made by openssl in `folder`."""
    cert, key = folder / "standin.crt", folder / "standin.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
         "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


@contextmanager
def stand_in(tls_folder=None):
    """A StandIn serving on a free loopback port until the block ends (https with `tls_folder`,
    where its certificate is written)."""
    server = StandIn(tls_folder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
