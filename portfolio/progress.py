"""A progress line for long work: rewritten in place on a terminal, a line every few seconds
in a log (CI, a pipe). Work that finishes within a second prints nothing."""

import time


class Progress:
    def __init__(self, stream, label, every=5.0):
        self.stream, self.label = stream, label
        self.tty = getattr(stream, "isatty", lambda: False)()
        self.every = 0.2 if self.tty else every
        self.started = time.perf_counter()
        self.last = self.started + 1.0 - self.every  # first report after one second
        self.shown = False

    def __call__(self, done, total):
        now = time.perf_counter()
        if now - self.last < self.every and (done < total or not self.shown):
            return
        self.last, self.shown = now, True
        elapsed = now - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        line = f"{self.label}: {done}/{total} ({rate:.0f}/s, {elapsed:.1f} s)"
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done >= total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
