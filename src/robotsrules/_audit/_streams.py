"""The streams of the log audit's reader: a source's compression told by its magic number,
and a stream of its decompressed bytes (sans lines: :mod:`._logs` cuts them).

gzip (``1f 8b``, RFC 1952 §2.3.1), bzip2 (``BZh``), zstd (``28 b5 2f fd``, RFC 8878
§3.1.1), else plain. zstd is read with Python 3.14's ``compression.zstd`` or, before it,
its backport ``backports.zstd`` (the same module, PEP 784; the ``test`` extra installs it):
neither is a dependency of the core, and without them a zstd file is named
``zstd-unreadable``, never guessed at. This module stays pure Python in the compiled build
(a subclass of ``io.RawIOBase`` and an optional module are no native class or global).
"""

from __future__ import annotations

import bz2
import gzip
import io
import sys
import zlib
from typing import IO, Any, Final, Protocol

if sys.version_info >= (3, 14):
    from compression import zstd as _zstd
else:
    try:
        from backports import zstd as _zstd
    except ImportError:  # not installed: zstd files are named, not read
        _zstd = None  # type: ignore[assignment]

__all__ = ["CHUNK", "ERRORS", "Prefixed", "Readable", "open_log"]

CHUNK: Final = 64 * 1024
"""Bytes read (decompressed) at a time."""


class Prefixed(io.RawIOBase):
    """A stream whose first bytes were read already (to see the magic number)."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._head:
            n = min(len(view), len(self._head))
            view[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._rest.read(len(view))
        view[:len(data)] = data
        return len(data)


ERRORS: tuple[type[BaseException], ...] = (EOFError, OSError, zlib.error, ValueError) + (
    (_zstd.ZstdError,) if _zstd is not None else ())
"""What reading a damaged or cut compressed stream raises."""


class Readable(Protocol):
    """What the reader needs of a (decompressing) stream."""

    def read(self, size: int = -1, /) -> bytes: ...


def open_log(stream: IO[bytes]) -> tuple[str, Readable]:
    """The compression of ``stream`` by its magic number, and a stream of its decompressed
    bytes: ``("plain" | "gzip" | "bzip2" | "zstd" | "zstd-unreadable", stream)``."""
    head = stream.read(4)
    raw = io.BufferedReader(Prefixed(head, stream), CHUNK)
    if head[:2] == b"\x1f\x8b":
        return "gzip", gzip.GzipFile(fileobj=raw, mode="rb")
    if head[:3] == b"BZh":
        return "bzip2", bz2.BZ2File(raw)
    if head == b"\x28\xb5\x2f\xfd":
        if _zstd is None:
            return "zstd-unreadable", raw
        return "zstd", _zstd.ZstdFile(raw)
    return "plain", raw
