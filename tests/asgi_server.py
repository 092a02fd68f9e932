"""An ASGI server process for the tests that need real sockets: gunicorn's ASGI worker, as
`make serve-prod` runs it (tests/tables/test_redis_layer.py, tests/browser/test_table_online.py)."""

from __future__ import annotations

import selectors
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.conftest import ROOT

START_SECONDS = 60


class AsgiServer:
    """``gunicorn config.asgi:application -k asgi`` with one worker on a free port of
    loopback, its settings from ``env``; :meth:`ready` waits for it and gives its port."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [str(Path(sys.executable).with_name("gunicorn")), "config.asgi:application",
             "--worker-class", "asgi", "--workers", "1", "--bind", "127.0.0.1:0",
             "--no-control-socket", "--graceful-timeout", "1"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            bufsize=0)  # unbuffered: what select says is there is all there is
        self.port = 0
        self.log: list[str] = []
        self.reader: threading.Thread | None = None

    def ready(self) -> int:
        """Its port, once its worker listens (read from its log as it is written)."""
        assert self.process.stderr is not None
        with selectors.DefaultSelector() as waiting:
            waiting.register(self.process.stderr, selectors.EVENT_READ)
            deadline = time.monotonic() + START_SECONDS
            while time.monotonic() < deadline and waiting.select(deadline - time.monotonic()):
                line = self.process.stderr.readline().decode(errors="replace")
                if not line:
                    break
                self.log.append(line)
                if "Listening at: http://127.0.0.1:" in line:
                    self.port = int(line.rsplit(":", 1)[1].split()[0])
                if "ASGI server listening" in line and self.port:
                    # Its log read on, so that a full pipe never stops it.
                    self.reader = threading.Thread(target=self._read, daemon=True)
                    self.reader.start()
                    return self.port
        self.stop()
        raise AssertionError("the server did not start:\n" + "".join(self.log))

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in iter(self.process.stderr.readline, b""):
            self.log.append(line.decode(errors="replace"))

    def stop(self) -> str:
        """Stop it; everything it printed."""
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.reader is not None:
            self.reader.join(timeout=5)
        return "".join(self.log)
