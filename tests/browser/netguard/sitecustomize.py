"""Record every attempt of this Python process to reach another machine (browser tests only).

The JupyterLab fixture puts this folder on the server's ``PYTHONPATH``, so Python imports this
module at start-up in the server and in every kernel it starts. When ``COURSE_NETWORK_LOG``
names a file, each name lookup (``socket.getaddrinfo``) and each connection (``connect``,
``connect_ex``) to a host other than this machine appends one line to it: ``kind host port``.
The attempt itself goes ahead (offline it fails at once); the tests assert on the record.
"""

import os
import socket

LOG = os.environ.get("COURSE_NETWORK_LOG")
LOCAL = {"localhost", "::1", "0.0.0.0", "::", ""}


def is_local(host) -> bool:
    host = host.decode() if isinstance(host, bytes) else str(host)
    return host in LOCAL or host.startswith("127.")


def record(kind: str, host, port) -> None:
    with open(LOG, "a", encoding="utf-8") as log:
        log.write(f"{kind} {host} {port}\n")


if LOG:
    real_getaddrinfo = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host is not None and not is_local(host):
            record("getaddrinfo", host, port)
        return real_getaddrinfo(host, port, *args, **kwargs)

    socket.getaddrinfo = getaddrinfo

    def guarded(method):
        real = getattr(socket.socket, method)

        def connect(self, address):
            if self.family in (socket.AF_INET, socket.AF_INET6) and not is_local(address[0]):
                record(method, address[0], address[1])
            return real(self, address)

        return connect

    for name in ("connect", "connect_ex"):
        setattr(socket.socket, name, guarded(name))
