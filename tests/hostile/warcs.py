"""The hostile WARC set (issue 24): files a stranger's crawl may hold, written octet by octet,
with the answers every WARC entry point must give for them.

It is the differential set for any change of WARC reader: ``tests/hostile/test_warc_set.py``
runs it through ``bulk --robots-warc`` and ``bulk --pages-warc`` (DuckDB and Spark engines),
:mod:`robotsrules.warc` and :mod:`robotsrules.datatrove`; a new reader must give
:data:`ROBOTS` and :data:`PAGES` for it, row for row.

Each site shows one finding (``GPTBot`` is the agent):

==================  =============================================================================
site                what its records hold
==================  =============================================================================
cut.example         HTTP heads cut right after the status line (robots.txt and a page)
br.example          an old plain ``Allow: /`` and a newer br-encoded ``Disallow: /``; a br page
                    with a ``noai`` meta tag
sniff.example       a robots.txt and an HTML page without ``Content-Type``
upper.example       ``HTTP://UPPER.EXAMPLE`` / ``HTTPS://`` target URIs, a gzip'd robots.txt
                    whose encoding only its headers tell, an ``X-Robots-Tag: noai`` page
nohead.example      response records without any HTTP head
chunked.example     a chunked gzip'd robots.txt (whole), a chunked page without its last chunk
hugehead.example    a robots.txt whose HTTP head is 100 KiB
huge.example        a 2 MiB robots.txt (its first 500 KiB read) and a 3 MiB page
okgz.example,       a gzip'd WARC whose second member is garbage: the first site is read, the
lost.example        third is lost (and a problem noted)
bad-N.example       2,000 page records with an impossible status (``2OO``)
==================  =============================================================================
"""

from __future__ import annotations

import gzip
import os
from typing import Optional

BAD_RECORDS = 2000
DISALLOW_ALL = b"User-agent: *\nDisallow: /\n"
NOAI_PAGE = (b"<!DOCTYPE html><html><head><title>t</title>"
             b'<meta name="robots" content="noai, noindex"></head><body>text</body></html>')
PLAIN_PAGE = b"<html><head><title>plain</title></head><body>nothing said</body></html>"


def record(uri: str, block: bytes, date: str = "2024-05-01T00:00:00Z",
           rec_type: str = "response", number: int = 0) -> bytes:
    """One WARC/1.0 record around ``block`` (its Content-Length exact)."""
    head = [b"WARC/1.0", b"WARC-Type: " + rec_type.encode(),
            b"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-%012d>" % number,
            b"WARC-Target-URI: " + uri.encode(), b"WARC-Date: " + date.encode(),
            b"Content-Type: application/http; msgtype=" + rec_type.encode(),
            b"Content-Length: %d" % len(block)]
    return b"\r\n".join(head) + b"\r\n\r\n" + block + b"\r\n\r\n"


def http(body: bytes, headers: list[tuple[str, str]], status: bytes = b"200 OK",
         length: bool = True) -> bytes:
    """An HTTP/1.1 response: status line, headers (and Content-Length), blank line, body."""
    lines = [b"HTTP/1.1 " + status] + [f"{k}: {v}".encode() for k, v in headers]
    if length:
        lines.append(b"Content-Length: %d" % len(body))
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def _chunked(data: bytes, size: int = 7, last: bool = True) -> bytes:
    parts = [b"%x\r\n%s\r\n" % (len(data[i:i + size]), data[i:i + size])
             for i in range(0, len(data), size)]
    return b"".join(parts) + (b"0\r\n\r\n" if last else b"")


def _br(data: bytes) -> bytes:
    import brotli

    return bytes(brotli.compress(data))


TEXT = [("Content-Type", "text/plain")]
HTML = [("Content-Type", "text/html; charset=utf-8")]


def files() -> dict[str, bytes]:
    """File name -> content of every hostile WARC file."""
    plain: list[bytes] = []
    n = iter(range(1, 1_000_000))
    add = plain.append
    add(record("https://cut.example/robots.txt", b"HTTP/1.1 200 OK\r\n", number=next(n)))
    add(record("https://cut.example/page", b"HTTP/1.1 200 OK\r\n", number=next(n)))
    add(record("https://br.example/robots.txt", http(b"User-agent: *\nAllow: /\n", TEXT),
               date="2024-01-01T00:00:00Z", number=next(n)))
    add(record("https://br.example/robots.txt",
               http(_br(DISALLOW_ALL), [*TEXT, ("Content-Encoding", "br")]), number=next(n)))
    add(record("https://br.example/page",
               http(_br(NOAI_PAGE), [*HTML, ("Content-Encoding", "br")]), number=next(n)))
    add(record("https://sniff.example/robots.txt",
               http(b"User-agent: GPTBot\nDisallow: /\n", []), number=next(n)))
    add(record("https://sniff.example/page", http(b"\n  " + NOAI_PAGE, []), number=next(n)))
    add(record("HTTP://UPPER.EXAMPLE/robots.txt",
               http(gzip.compress(b"User-agent: *\nDisallow: /private\n", mtime=0),
                    [*TEXT, ("Content-Encoding", "gzip")]), number=next(n)))
    add(record("HTTPS://UPPER.EXAMPLE/p", http(PLAIN_PAGE, [*HTML, ("X-Robots-Tag", "noai")]),
               number=next(n)))
    add(record("https://nohead.example/robots.txt", DISALLOW_ALL, number=next(n)))
    add(record("https://nohead.example/page", NOAI_PAGE, number=next(n)))
    add(record("https://chunked.example/robots.txt",
               http(_chunked(gzip.compress(b"User-agent: *\nDisallow: /private\n", mtime=0)),
                    [*TEXT, ("Transfer-Encoding", "chunked"), ("Content-Encoding", "gzip")],
                    length=False), number=next(n)))
    add(record("https://chunked.example/page",
               http(_chunked(NOAI_PAGE, last=False), [*HTML, ("Transfer-Encoding", "chunked")],
                    length=False), number=next(n)))
    add(record("https://hugehead.example/robots.txt",
               http(DISALLOW_ALL, [*TEXT, ("X-Padding", "p" * 100_000)]), number=next(n)))
    add(record("https://huge.example/robots.txt",
               http(b"User-agent: *\n" + b"# padding\n" * 210_000 + b"Disallow: /\n", TEXT),
               number=next(n)))
    add(record("https://huge.example/page", http(PLAIN_PAGE + b" " * (3 << 20), HTML),
               number=next(n)))
    many = [record(f"https://bad-{i}.example/page", http(PLAIN_PAGE, HTML, b"2OO OK"),
                   number=next(n)) for i in range(BAD_RECORDS)]
    gz = (gzip.compress(record("https://okgz.example/robots.txt", http(DISALLOW_ALL, TEXT),
                               number=next(n)), mtime=0)
          + b"\x1f\x8b\x08\x00garbage, not a gzip member" * 4
          + gzip.compress(record("https://lost.example/robots.txt", http(DISALLOW_ALL, TEXT),
                                 number=next(n)), mtime=0))
    whole = record("https://cutfile.example/robots.txt", http(DISALLOW_ALL, TEXT),
                   number=next(n))
    return {"plain.warc": b"".join(plain), "many-bad.warc": b"".join(many),
            "bad-member.warc.gz": gz,
            # a file cut inside the status line of its one record
            "cut-file.warc": whole[: whole.index(b"HTTP/1.1") + 12]}


def write(folder: str) -> list[str]:
    """Write the set into ``folder``; the paths, in a fixed order."""
    paths = []
    for name, data in sorted(files().items()):
        path = os.path.join(folder, name)
        with open(path, "wb") as handle:
            handle.write(data)
        paths.append(path)
    return paths


# The answers: (url, allowed, reason) for GPTBot, from every robots.txt entry point.
ROBOTS: list[tuple[str, Optional[bool], str]] = [
    ("https://cut.example/x", False, "disallow-all"),           # damaged: 599
    ("https://br.example/x", False, "longest-match"),           # the newer br capture
    ("https://sniff.example/x", False, "longest-match"),
    ("http://upper.example/private", False, "longest-match"),  # headers kept: gzip read
    ("http://upper.example/open", True, "no-match"),
    ("https://nohead.example/x", False, "disallow-all"),        # damaged: 599
    ("https://chunked.example/private", False, "longest-match"),
    ("https://hugehead.example/x", False, "disallow-all"),      # damaged: 599
    ("https://huge.example/x", True, "no-match"),               # Disallow past 500 KiB
    ("https://okgz.example/x", False, "longest-match"),
    ("https://lost.example/x", None, "no-robots"),              # after the garbage member
    ("https://cutfile.example/x", False, "disallow-all"),       # the file is cut
]

# The page rows: url -> (noai, index, damaged?) for GPTBot.
PAGES: dict[str, tuple[Optional[bool], Optional[bool], bool]] = {
    "https://cut.example/page": (None, None, True),
    "https://br.example/page": (True, False, False),
    "https://sniff.example/page": (True, False, False),
    "HTTPS://UPPER.EXAMPLE/p": (True, True, False),
    "https://nohead.example/page": (None, None, True),
    "https://chunked.example/page": (None, None, True),
    "https://huge.example/page": (False, True, False),
    **{f"https://bad-{i}.example/page": (None, None, True) for i in range(BAD_RECORDS)},
}
