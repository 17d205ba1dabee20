"""A webhook receiver on the loopback address: records what it is sent and answers as told."""

import http.server
import threading
import time
from contextlib import contextmanager


class Receiver:
    """`answers`: what the next posts get, in order (a status, or ("slow", seconds) to wait that long
    before a 200); once they are used up, 200. `posts`: (headers, body) of each post received."""

    def __init__(self, port):
        self.url = f"http://127.0.0.1:{port}/hooks/contact?from=portfolio"
        self.answers, self.posts = [], []


@contextmanager
def receiver():
    state = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (the http.server's name)
            hook = state["receiver"]
            body = self.rfile.read(int(self.headers["Content-Length"]))
            hook.posts.append((dict(self.headers), body, self.path))
            answer = hook.answers.pop(0) if hook.answers else 200
            if isinstance(answer, tuple):
                time.sleep(answer[1])
                answer = 200
            self.send_response(answer)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state["receiver"] = Receiver(server.server_address[1])
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)  # stops at once
    thread.start()
    try:
        yield state["receiver"]
    finally:
        server.shutdown()
        server.server_close()
