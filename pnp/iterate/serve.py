"""``pnp serve``: a live preview of a game in the browser.

A small HTTP server on 127.0.0.1 only (the standard library's, one thread per
request) serves one page, the preview's state as JSON, each face as a PNG
(by its content key, so a changed face has a new address), and a stream of
server-sent events that says when the state changed. A second thread polls
the game's files as ``pnp watch`` does and refreshes the preview on every
save; the page fetches the new state and swaps in the changed faces itself.

Requests name nothing on disk: faces are looked up by key in memory, and a
request whose Host is not this server's own address is refused (a web page
elsewhere cannot read the preview through DNS rebinding).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path

from pnp.iterate.preview import Preview, refresh
from pnp.iterate.watch import POLL_SECONDS, SETTLE_SECONDS, changed_files, snapshot
from pnp.loading.shared import shared_folders_of
from pnp.paths import readable
from pnp.words import count

HOST = "127.0.0.1"
HEARTBEAT_SECONDS = 10.0
_FACE = re.compile(r"^/face/([0-9a-f]{8,64})\.png$")


class Server:
    """The preview, the lock and condition that guard it, and the HTTP server."""

    def __init__(self, game_dir: Path, out: Path, port: int):
        self.game_dir, self.out = game_dir, out
        self.preview = Preview()
        self.changed = threading.Condition()
        self.stopping = False
        self.http = ThreadingHTTPServer((HOST, port), _handler(self))
        self.http.daemon_threads = True

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.http.server_address[1]}/"

    def refresh(self) -> None:
        fresh = Preview(self.preview.version, self.preview.state.copy(), dict(self.preview.images))
        refresh(fresh, self.game_dir, self.out)
        with self.changed:
            self.preview = fresh
            self.changed.notify_all()

    def watch(self, say: Callable[[str], None]) -> None:
        """Refresh after every save until stopped."""
        roots = list(readable(self.game_dir, shared_folders_of(self.game_dir)))
        seen = snapshot(roots, [self.out])
        while not self.stopping:
            time.sleep(POLL_SECONDS)
            now = snapshot(roots, [self.out])
            touched = changed_files(seen, now)
            if not touched:
                continue
            time.sleep(SETTLE_SECONDS)
            seen = snapshot(roots, [self.out])
            self.refresh()
            state = self.preview.state
            errors = state.get("errors") or []
            say(f"updated in {state.get('seconds', 0):.2f} s" + (f"; {count(len(errors), 'problem line')} shown on the page" if errors else ""))

    def stop(self) -> None:
        self.stopping = True
        with self.changed:
            self.changed.notify_all()
        self.http.shutdown()
        self.http.server_close()


FONTS = {"regular": "EBGaramond12-Regular.ttf", "italic": "EBGaramond12-Italic.ttf"}
"""The page's own type (pnp's EB Garamond), so it reads the same on every machine."""


def _page() -> bytes:
    return resources.files("pnp").joinpath("resources/serve/preview.html").read_bytes()


def _font(name: str) -> bytes:
    return resources.files("pnp").joinpath(f"resources/fonts/ebgaramond/{FONTS[name]}").read_bytes()


def _handler(server: Server) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002  (the standard library's name)
            return  # quiet: the terminal says what was rebuilt

        def _send(self, status: HTTPStatus, body: bytes, kind: str, cache: str = "no-store") -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", cache)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802  (the standard library's name)
            port = server.http.server_address[1]
            if self.headers.get("Host") not in (f"{HOST}:{port}", f"localhost:{port}"):
                self._send(HTTPStatus.FORBIDDEN, b"this preview answers only at its own address\n", "text/plain")
                return
            path = self.path.split("?", 1)[0]
            if path == "/":
                self._send(HTTPStatus.OK, _page(), "text/html; charset=utf-8")
            elif path == "/state.json":
                with server.changed:
                    state = server.preview.state
                self._send(HTTPStatus.OK, json.dumps(state).encode(), "application/json")
            elif path.startswith("/font/") and path.endswith(".ttf") and path[6:-4] in FONTS:
                self._send(HTTPStatus.OK, _font(path[6:-4]), "font/ttf", "max-age=86400")
            elif path == "/events":
                self._events()
            elif (match := _FACE.match(path)) and (image := server.preview.images.get(match.group(1))) is not None:
                self._send(HTTPStatus.OK, image, "image/png", "max-age=31536000, immutable")
            else:
                self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")

        def _events(self) -> None:
            """Server-sent events: the state's version now and after every change."""
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            sent = -1
            try:
                while not server.stopping:
                    with server.changed:
                        if server.preview.version == sent:
                            server.changed.wait(HEARTBEAT_SECONDS)
                        version = server.preview.version
                    if version != sent:
                        self.wfile.write(f"data: {version}\n\n".encode())
                        sent = version
                    else:
                        self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return

    return Handler


def serve(game_dir: Path, out: Path, port: int, say: Callable[[str], None]) -> None:
    """Build the preview, serve it at ``127.0.0.1:port`` (0: any free port) and
    refresh it on every save, until interrupted."""
    from pnp.render.sheets import session

    with session():
        server = Server(game_dir, out, port)
        server.refresh()
        say(f"preview of {server.preview.state.get('game', game_dir.name)} at {server.url} (Ctrl-C stops)")
        threading.Thread(target=server.http.serve_forever, daemon=True).start()
        try:
            server.watch(say)
        finally:
            server.stop()
