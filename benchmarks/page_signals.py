"""Page signals per second on WARC response records (the ``bulk --pages-warc`` path).

Usage::

    python benchmarks/page_signals.py                  # real page heads (see below)
    python benchmarks/page_signals.py --generated      # generated pages
    python benchmarks/page_signals.py --warc CC.warc.gz --agent GPTBot   # a WARC of yours

Prints, for the same records: (1) the whole WARC path as ``bulk --pages-warc`` runs it
(:func:`robotsrules.warc.page_batches`: read each gzip'd record with warcio, keep the headers
and the first 512 KiB of an HTML body, read them once, then the signals of every agent and
the output rows), (2) :func:`robotsrules.page_signals` called once per agent on records
already in memory (each call reads the head again), (3) the HTML head scan alone; as records
per second and signals (records x agents) per second, and (4) when selectolax is installed
(the ``bench`` extra), lexbor's parse of the same bytes with its ``<meta>`` elements listed:
the compiled spec-following parser the page layer was measured against (see
docs/guides/page-signals.md, "A compiled parser?"). Each figure is the best of ``--repeat``
runs, on one core (the process is pinned to the first CPU it may use).

By default the records are built from the real pages of ``benchmarks/data/pages/`` (each
page's bytes up to its ``<body>`` tag, what ``page_signals`` reads; see ``SOURCES.md``
there): each record is one of them, cycled, with plausible response headers (a third with an
``X-Robots-Tag``) and a body of the real head plus filler up to the page's original size, so
warcio reads and inflates as much as it would for the real page.

With ``--generated`` the records are generated, deterministic and shaped like common pages:
a doctype, charset, title, 10-30 meta tags (description, Open Graph, Twitter, viewport,
sometimes robots/googlebot/GPTBot/tdm-reservation), preload links, an inline style sheet of
2-60 KiB, a JSON-LD block and an inline script in the head, then a body of 20-120 KiB; a
third of the responses also carry an ``X-Robots-Tag`` and a few a ``Content-Usage`` or
``tdm-reservation`` header. No network is used.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from robotsrules._page import page_signals, read_head_meta
from robotsrules.warc import iter_pages, page_batches

_ROBOTS = ["noindex", "nofollow", "noai, noimageai", "max-snippet:-1, max-image-preview:large",
           "index, follow", "noarchive", "unavailable_after: 2030-01-01"]


def _page(rng: random.Random, i: int) -> tuple[list[tuple[str, str]], bytes]:
    metas = [f'<meta name="description" content="Article {i} about {"x" * rng.randint(40, 160)}">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">']
    for k in range(rng.randint(8, 28)):
        prop = rng.choice(["og:title", "og:image", "og:url", "twitter:card", "twitter:site",
                           "article:published_time", "theme-color", "generator"])
        metas.append(f'<meta property="{prop}" content="value {k} {"y" * rng.randint(5, 80)}">')
    if rng.random() < 0.4:
        metas.insert(rng.randint(0, len(metas)),
                     f'<meta name="robots" content="{rng.choice(_ROBOTS)}">')
    if rng.random() < 0.15:
        metas.append(f'<meta name="{rng.choice(["googlebot", "GPTBot", "bingbot"])}" '
                     f'content="{rng.choice(_ROBOTS)}">')
    if rng.random() < 0.05:
        metas.append('<meta name="tdm-reservation" content="1">')
    style = "<style>" + "".join(f".c{k}{{margin:{k}px;padding:0 {k % 7}px}}"
                                for k in range(rng.randint(100, 2500))) + "</style>"
    script = ('<script type="application/ld+json">{"@context":"https://schema.org",'
              f'"@type":"Article","headline":"{"z" * rng.randint(20, 200)}"}}</script>'
              '<script>window.dataLayer=window.dataLayer||[];function g(){dataLayer.push('
              'arguments)}</script>')
    links = "".join(f'<link rel="preload" href="/static/{k}.woff2" as="font">'
                    for k in range(rng.randint(1, 6)))
    head = ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>Page {i}</title>" + "\n".join(metas) + links + style + script + "</head>")
    body = "<body>" + "<p>" + "lorem ipsum " * rng.randint(1500, 10000) + "</p></body></html>"
    headers = [("Content-Type", "text/html; charset=utf-8"), ("Server", "nginx"),
               ("Cache-Control", "max-age=600")]
    if rng.random() < 0.33:
        headers.append(("X-Robots-Tag", rng.choice(_ROBOTS)))
    if rng.random() < 0.05:
        headers.append(("Content-Usage", rng.choice(["train-ai=n", "train-ai=y, search=y"])))
    if rng.random() < 0.03:
        headers.append(("tdm-reservation", "1"))
    return headers, (head + body).encode()


def make_warc(path: str, count: int, seed: int = 16) -> None:
    """Write ``count`` generated HTML response records (gzip'd) to ``path``."""
    rng = random.Random(seed)
    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        for i in range(count):
            headers, body = _page(rng, i)
            http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                f"https://site{i % 97}.example/article/{i}", "response",
                payload=io.BytesIO(body), http_headers=http,
                warc_headers_dict={"WARC-Date": "2026-01-01T00:00:00Z"}))


PAGES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "pages")

ORIGINAL_SIZES = {  # octets of each page as published (SOURCES.md): the body is padded to it
    "apache-status.onion.html": 7_490,
    "blog.python.org.html": 58_133,
    "die-partei.net.luebeck.html": 11_582,
    "en.wikipedia.org.tsne.html": 108_544,
    "fivethirtyeight.com.manchin.html": 89_588,
    "hundeverein-kreisunna.de.html": 6_387,
    "love-hina.ch.0409.html": 19_451,
    "mozilla.org.firefox.developer.html": 25_118,
    "rs-ingenieure.de.tragwerksplanung.html": 5_978,
    "sauvonsluniversite.com.spip.html": 21_669,
    "scam-list.onion.html": 38_705,
    "utf8-demo.html": 14_388,
}

_HEADER_SETS = [
    [("Content-Type", "text/html; charset=utf-8"), ("Server", "nginx"),
     ("Cache-Control", "max-age=600"), ("Vary", "Accept-Encoding")],
    [("Content-Type", "text/html; charset=UTF-8"), ("Server", "Apache"),
     ("X-Robots-Tag", "noai, noimageai"), ("Link", '<https://example.org/>; rel="canonical"')],
    [("Content-Type", "text/html"), ("Server", "cloudflare"),
     ("X-Robots-Tag", "googlebot: noindex, nofollow"), ("X-Robots-Tag", "max-snippet:50")],
    [("Content-Type", "text/html; charset=iso-8859-1"), ("Server", "Microsoft-IIS/10.0"),
     ("X-Powered-By", "ASP.NET"), ("Set-Cookie", "session=abc; Path=/; HttpOnly")],
    [("Content-Type", "text/html; charset=utf-8"), ("Server", "nginx"),
     ("X-Robots-Tag", "unavailable_after: 2030-01-01"), ("Content-Usage", "train-ai=n")],
    [("Content-Type", "text/html; charset=utf-8"), ("Server", "openresty"),
     ("tdm-reservation", "1"), ("Strict-Transport-Security", "max-age=31536000")],
]


def real_pages(directory: str = PAGES_DIR) -> list[tuple[str, bytes]]:
    """The stored heads: ``(file name, bytes)``, sorted by name."""
    names = sorted(n for n in os.listdir(directory) if n.endswith(".html"))
    out = []
    for name in names:
        with open(os.path.join(directory, name), "rb") as handle:
            out.append((name, handle.read()))
    return out


def make_real_warc(path: str, count: int, directory: str = PAGES_DIR) -> None:
    """Write ``count`` response records (gzip'd) built from the stored real heads."""
    pages = real_pages(directory)
    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        for i in range(count):
            name, head = pages[i % len(pages)]
            size = max(ORIGINAL_SIZES.get(name, len(head)), len(head))
            filler = b"<p>" + b"lorem ipsum dolor sit amet " * (size // 27 + 1)
            body = head + filler[: size - len(head)]
            headers = [("Date", "Mon, 01 Jan 2026 00:00:00 GMT"), *_HEADER_SETS[i % 6],
                       ("Content-Length", str(len(body)))]
            http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            site = name.rsplit(".", 1)[0]
            writer.write_record(writer.create_warc_record(
                f"https://{site}/page/{i}", "response", payload=io.BytesIO(body),
                http_headers=http, warc_headers_dict={"WARC-Date": "2026-01-01T00:00:00Z"}))


def _best(repeat: int, run: Callable[[], int]) -> tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        count = run()
        best = min(best, time.perf_counter() - start)
    return best, count


def _child(path: str, agents: list[str], passes: int) -> None:
    """What runs under callgrind: ``passes`` runs of the whole WARC path over ``path``."""
    for _ in range(passes):
        for _batch in page_batches([path], agents=agents):
            pass


def _instructions(path: str, agents: list[str], passes: int) -> int:
    """Instructions executed by :func:`_child` under callgrind."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "callgrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
             __file__, "--child", path, ",".join(agents), str(passes)],
            capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        sys.exit(f"error: callgrind run failed (exit {run.returncode}):\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3].split(","), int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warc", help="a WARC file to read instead of a built one")
    parser.add_argument("--generated", action="store_true",
                        help="generated pages instead of the stored real heads")
    parser.add_argument("--records", type=int, default=2000, help="records to build")
    parser.add_argument("--agent", action="append",
                        help="an agent (repeatable; default: the first --agents of GPTBot, "
                             "CCBot, Googlebot)")
    parser.add_argument("--agents", type=int, choices=(1, 2, 3), default=3,
                        help="how many of the default agents to judge each page for (3)")
    parser.add_argument("--path-only", action="store_true",
                        help="time only the whole WARC path (interleaved before/after runs)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--instructions", action="store_true",
                        help="count the WARC path's instructions per record with callgrind "
                             "(valgrind) instead of timing it")
    args = parser.parse_args()
    agents = args.agent or ["GPTBot", "CCBot", "Googlebot"][:args.agents]
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    with tempfile.TemporaryDirectory() as tmp:
        path = args.warc
        if path is None:
            path = os.path.join(tmp, "pages.warc.gz")
            (make_warc if args.generated else make_real_warc)(path, args.records)
        if args.instructions:
            if shutil.which("valgrind") is None:
                sys.exit("error: valgrind not found; install it (apt-get install valgrind)")
            records = sum(1 for _ in iter_pages(path))
            one, two = (_instructions(path, agents, passes) for passes in (1, 2))
            print(f"{records:,} records; agents: {', '.join(agents)}: "
                  f"{(two - one) / records:,.0f} instructions per record (WARC path)")
            return
        pages: list[Any] = list(iter_pages(path))
        heads = sum(len(p.head or b"") for p in pages)
        source = ("generated pages" if args.generated else
                  f"real page heads of {PAGES_DIR}" if args.warc is None else path)
        print(f"{len(pages):,} response records ({source}), "
              f"{os.path.getsize(path) / 2**20:.1f} MiB on disk, {heads / 2**20:.1f} MiB of "
              f"HTML read (heads, at most 512 KiB each); agents: {', '.join(agents)}")

        def whole() -> int:  # what `bulk --pages-warc` runs (the head read once per record)
            rows = sum(batch.num_rows for batch in page_batches([path], agents=agents))
            return rows // len(agents)

        def signals_only() -> int:
            for page in pages:
                for agent in agents:
                    page_signals(page.headers, page.head, agent=agent)
            return len(pages)

        def scan_only() -> int:
            for page in pages:
                read_head_meta(page.head)
            return len(pages)

        steps = [("WARC path (warc.page_batches)", whole),
                 ("page_signals per agent, in memory", signals_only),
                 ("HTML head scan alone", scan_only)]
        try:
            from selectolax.lexbor import LexborHTMLParser
        except ImportError:
            LexborHTMLParser = None
        if args.path_only:
            steps, LexborHTMLParser = steps[:1], None
        if LexborHTMLParser is not None:
            def lexbor_only() -> int:
                for page in pages:
                    if page.head is not None:
                        [m.attributes for m in LexborHTMLParser(page.head).css("meta")]
                return len(pages)

            steps.append(("lexbor parse + metas (selectolax)", lexbor_only))
        for label, run in steps:
            seconds, count = _best(args.repeat, run)
            calls = count * (len(agents) if run in (whole, signals_only) else 1)
            print(f"{label:38s} {count / seconds:10,.0f} records/s "
                  f"{calls / seconds:10,.0f} signals/s ({seconds / count * 1e6:,.0f} us a record)")


if __name__ == "__main__":
    main()
