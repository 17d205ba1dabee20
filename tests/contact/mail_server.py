"""A mail server on the loopback address that accepts connections and says nothing (a hung mail
server) until it is released; then it speaks just enough SMTP to take mails, and records them."""

import socket
import threading
from contextlib import contextmanager


class MailServer:
    """`port`; `release()` lets it answer (connections waiting get their greeting then); `mails`:
    the DATA of each mail it took; `connections`: how many it accepted."""

    def __init__(self, port):
        self.port = port
        self.released = threading.Event()
        self.mails, self.connections = [], 0

    def release(self):
        self.released.set()


def converse(server, connection):
    """SMTP, the server's side, as Django's backend (smtplib, no TLS, no login) speaks it."""
    try:
        with connection, connection.makefile("rb") as lines:
            server.released.wait()
            talk(server, connection, lines)
    except OSError:  # the client gave up waiting
        pass


def talk(server, connection, lines):
    def say(text):
        connection.sendall(text.encode() + b"\r\n")

    say("220 hung.test ESMTP")
    for line in lines:
        verb = line[:4].upper()
        if verb in (b"EHLO", b"HELO"):
            say("250 hung.test")
        elif verb == b"DATA":
            say("354 go ahead")
            data = b"".join(iter(lines.readline, b".\r\n"))
            server.mails.append(data.decode())
            say("250 taken")
        elif verb == b"QUIT":
            say("221 bye")
            return
        else:  # MAIL, RCPT, RSET, NOOP
            say("250 ok")


@contextmanager
def mail_server():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    server = MailServer(listener.getsockname()[1])

    def accept():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:  # closed: the test is over
                return
            server.connections += 1
            threading.Thread(target=converse, args=(server, connection), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield server
    finally:
        server.release()  # the conversations still waiting end
        listener.shutdown(socket.SHUT_RDWR)  # wakes the accept
        listener.close()
