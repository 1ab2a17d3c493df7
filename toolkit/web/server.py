"""``toolkit serve``: the viewer's app on a local socket (uvicorn) until Ctrl-C."""
from __future__ import annotations

import gc
import socket
import sys
import threading
import webbrowser
from typing import TextIO

import uvicorn
from starlette.applications import Starlette

LOCAL_HOST = "127.0.0.1"
LOCAL_HOSTS = (LOCAL_HOST, "localhost", "::1")   # this machine alone: games are played without a seat's token
DEFAULT_PORT = 8765


def is_local(host: str) -> bool:
    """Whether ``--host`` serves this machine alone."""
    return host in LOCAL_HOSTS


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: a free one); a clear error naming ``--port`` or
    ``--host`` when the system refuses it."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as err:
        raise ValueError(f"--host {host!r}: {err.strerror}; give an address of this machine, e.g. 127.0.0.1") \
            from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as err:
        sock.close()
        raise ValueError(f"cannot listen on {host}:{port}: {err.strerror}; choose another --port (0 picks a free "
                         "one)") from None
    return sock


def url_of(sock: socket.socket) -> str:
    """The page's address on a listening socket."""
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def serve(app: Starlette, host: str = LOCAL_HOST, port: int = DEFAULT_PORT, open_browser: bool = False,
          out: TextIO | None = None) -> None:
    """Serve ``app`` on ``host``:``port``, printing the URL, until Ctrl-C (which then raises
    :class:`KeyboardInterrupt` once the server has stopped); ``open_browser`` opens the page."""
    if not is_local(host):
        print(f"toolkit: warning: serving on {host}, not only on this machine ({LOCAL_HOST}): anyone who can reach "
              "it can use the viewer, upload files to it and watch a game whose link they have; a game is played only "
              "from its seats' links (each carries its side's secret token: Two players on the page)", file=sys.stderr)
    sock = listen(host, port)
    url = url_of(sock)
    print(f"toolkit viewer at {url} (Ctrl-C stops it)", file=out or sys.stdout, flush=True)
    if open_browser:   # once the server is up; never keeps Ctrl-C waiting
        opener = threading.Timer(0.5, webbrowser.open, [url])
        opener.daemon = True
        opener.start()
    server = _Server(uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1))
    gc.collect()
    gc.freeze()   # what is open now (maps, positions) lives as long as the server: no collection scans it again
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


class _Server(uvicorn.Server):
    """uvicorn's server whose Ctrl-C first stops the app's worker processes, so no answer keeps it waiting."""

    def handle_exit(self, sig, frame) -> None:
        """Stop the workers (their requests are answered 503 at once), then shut down as uvicorn does."""
        book = getattr(self.config.app.state, "book", None)
        if book is not None:
            book.workers.stop()
        super().handle_exit(sig, frame)
