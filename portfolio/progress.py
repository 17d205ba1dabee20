"""A progress line for long work: rewritten in place on a terminal, a line every few seconds
in a log (CI, a pipe)."""

import time


class Progress:
    def __init__(self, stream, label, every=5.0):
        self.stream, self.label = stream, label
        self.tty = getattr(stream, "isatty", lambda: False)()
        self.every = 0.2 if self.tty else every
        self.started = self.last = time.perf_counter()

    def __call__(self, done, total):
        now = time.perf_counter()
        if done < total and now - self.last < self.every:
            return
        self.last = now
        elapsed = now - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        line = f"{self.label}: {done}/{total} ({rate:.0f}/s, {elapsed:.1f} s)"
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done >= total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
