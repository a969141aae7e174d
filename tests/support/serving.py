"""The service in a real HTTP server on a free port, in a thread of the test process (for
tests that need a URL: a browser, a generated client, curl)."""

from __future__ import annotations

import contextlib
import threading
from typing import Iterator

from werkzeug.serving import make_server


@contextlib.contextmanager
def serving(app, request_handler=None) -> Iterator[int]:
    """Serve ``app`` (threaded) while the block runs; yields the port."""
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=request_handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        thread.join(timeout=5)
