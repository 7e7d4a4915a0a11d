"""The host's listening socket: a thread for each connection, reading its lines into the table.

A connection has JOIN_TIMEOUT seconds to join; once seated it may think as long as it likes. A
line that means nothing gets one error line and changes nothing (network/wire.py).
"""

from __future__ import annotations

import contextlib
import socket
import socketserver
import threading

from network.table import Connection, Table
from network.wire import WireError, decode, error, lines

JOIN_TIMEOUT = 60.0   # seconds a connection may take to join
DEFAULT_PORT = 4747
LOOPBACK = "127.0.0.1"


class Server(socketserver.ThreadingTCPServer):
    """The table's server on (address, port); port 0 takes a free one (`address` says which)."""

    daemon_threads = True
    allow_reuse_address = True   # a host that stopped can listen again on its port at once

    def __init__(self, address: tuple[str, int], table: Table):
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        super().__init__(address, Handler)
        self.table = table
        self.thread: threading.Thread | None = None

    @property
    def address(self) -> tuple[str, int]:
        host, port = self.server_address[:2]
        return host, port

    def start(self) -> None:
        """Serve in a thread of its own."""
        self.thread = threading.Thread(target=self.serve_forever, args=(0.1,), name="host", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class Handler(socketserver.StreamRequestHandler):
    """One connection: lines in, to the table, until it closes."""

    def handle(self) -> None:
        """Read the connection's lines into the table until it ends; then its seat is left."""
        table: Table = self.server.table
        self.request.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)   # a closed laptop is noticed
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)   # a move goes out at once
        self.request.settimeout(JOIN_TIMEOUT)
        host, port = self.client_address[:2]
        connection = Connection(self.request, f"{host}:{port}")
        if not table.connect(connection):
            return
        try:
            for line in lines(self.rfile):
                if not line.strip():
                    continue
                try:
                    message = decode(line)
                except WireError as problem:
                    connection.send(error(str(problem)))
                    continue
                table.receive(connection, message)
                if connection.seat is not None:
                    self.request.settimeout(None)
        except OSError:   # a timeout before joining, or a connection reset
            pass
        finally:
            table.disconnect(connection)
            connection.close()

    def finish(self) -> None:
        with contextlib.suppress(OSError):
            super().finish()
