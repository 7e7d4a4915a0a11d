"""A local stand-in for the datasets' publishers, on 127.0.0.1: it serves ../shared/datasets' files
under the publishers' URL paths, as they serve them (the books as plain text, not gzip), and
misbehaves on demand. tests/test_download.py and lab/benchmarks/first_hint.py use it."""

from __future__ import annotations

import contextlib
import gzip
import http.server
import socket
import threading
import time
import urllib.parse
from collections.abc import Iterable, Iterator
from pathlib import Path

from initializers import fetch


def shared_books(shared: Path) -> dict[int, Path]:
    """The shared corpus's files by EBook number, from the book list of its README."""
    found = {}
    for line in (shared / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("| `") and ".txt.gz` |" in line:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            found[int(cells[3])] = shared / "corpus" / "gutenberg" / cells[0].strip("`")
    return found


def served(shared: Path, books: Iterable[int]) -> dict[str, bytes]:
    """URL path → the bytes the publisher serves there (USF, EAT, the Duet record, `books`)."""
    files = {}
    for name in ("usf", "eat", "human_duet"):
        for remote in fetch.downloadable()[name].files:
            files[urllib.parse.urlsplit(remote.url).path] = (shared / remote.path).read_bytes()
    by_number = shared_books(shared)
    for n in books:
        files[urllib.parse.urlsplit(fetch.book(n).url).path] = gzip.decompress(by_number[n].read_bytes())
    return files


class Publisher(http.server.ThreadingHTTPServer):
    """The publishers on 127.0.0.1: `faults[path]` lists what goes wrong with the next requests
    of a path ('drop', 'drop-unsized', 'corrupt', '404', 'slow'); `requests` records each request
    line's target and User-Agent."""

    daemon_threads = True

    def __init__(self, files: dict[str, bytes]):
        super().__init__(("127.0.0.1", 0), Handler)
        self.files, self.faults, self.requests = files, {}, []
        self.slow = 2.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def asked(self, path_part: str) -> int:
        return sum(path_part in target for target, _ in self.requests)


class Handler(http.server.BaseHTTPRequestHandler):
    server: Publisher

    def do_GET(self) -> None:
        path = urllib.parse.urlsplit(self.path).path   # a proxy is asked for the whole URL
        self.server.requests.append((self.path, self.headers.get("User-Agent")))
        faults = self.server.faults.get(path) or []
        fault = faults.pop(0) if faults else None
        data = self.server.files.get(path)
        if fault == "slow":
            time.sleep(self.server.slow)
        if data is None or fault == "404":
            self.send_error(404)
            return
        if fault == "corrupt":
            middle = len(data) // 2
            data = data[:middle] + bytes([data[middle] ^ 0x20]) + data[middle + 1:]
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if fault != "drop-unsized":
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if fault in ("drop", "drop-unsized"):
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.wfile.write(data)

    def handle(self) -> None:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):   # the client gave up
            super().handle()

    def log_message(self, *args) -> None:
        pass




@contextlib.contextmanager
def serving(files: dict[str, bytes]) -> Iterator[Publisher]:
    """A Publisher of `files`, serving in a thread until the block ends."""
    server = Publisher(files)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
