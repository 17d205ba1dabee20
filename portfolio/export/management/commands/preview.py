"""`manage.py preview [DIR] [--port N]`: the built site as the production host serves it.

The folder is served by portfolio.export.preview (Cloudflare Pages' rules, its `_redirects` and
`_headers`); `POST /api/contact`, which production hands to the contact service, is answered by
the contact view in this process, with the preview's own origin allowed.
"""

import socketserver
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer
from django.core.wsgi import get_wsgi_application

from contact.origins import allowed_origins
from contact.paths import CHALLENGE_PATH, POST_PATH
from portfolio.content.schema import migrate
from portfolio.export.preview import URL_SAFE, PreviewApplication
from portfolio.local_hosts import AllowedHostsOnly


class ThreadedServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True


class RequestHandler(WSGIRequestHandler):
    def get_environ(self):
        # The path as the client sent it (PATH_INFO is decoded), its raw bytes (a client may send
        # /tags/日本語 unencoded; http.server read them as Latin-1) percent-encoded.
        environ = super().get_environ()
        environ["preview.raw_path"] = quote(self.path.split("?", 1)[0].encode("latin-1"), safe=URL_SAFE + "%")
        return environ


class Command(BaseCommand):
    help = "Serve a built folder (default: dist) as Cloudflare Pages does, with the contact form working."

    def add_arguments(self, parser):
        parser.add_argument("folder", nargs="?", default="dist", type=Path, help="Default: dist")
        parser.add_argument("--port", type=int, default=8001, help="Default: 8001")
        parser.add_argument("--bind", default="127.0.0.1", help="Default: 127.0.0.1")

    def handle(self, *args, folder, port, bind, **options):
        if not (folder / "index.html").is_file() and not (folder / "404.html").is_file():
            raise CommandError(
                f"{folder}: no built site here; run `make build` (manage.py distill-local) first."
            )
        migrate()  # the contact form stores messages
        origins = {f"http://{host}:{port}" for host in (bind, "127.0.0.1", "localhost")}
        settings.CONTACT_ALLOWED_ORIGINS = sorted(allowed_origins() | origins)
        if bind not in ("0.0.0.0", "::"):
            settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, bind]
        django_paths = [POST_PATH, CHALLENGE_PATH]
        application = PreviewApplication(folder, get_wsgi_application(), django_paths=django_paths)
        for problem in application.host.rules.problems:
            self.stderr.write(f"warning: {problem} (ignored, as the host ignores it)")
        server = ThreadedServer((bind, port), RequestHandler)
        server.set_app(AllowedHostsOnly(application))
        self.stdout.write(
            f"Previewing {folder.resolve()} as Cloudflare Pages serves it, on http://{bind}:{port}/\n"
            f"POST {POST_PATH} and GET {CHALLENGE_PATH} go to the contact views. Quit with CONTROL-C."
        )
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
