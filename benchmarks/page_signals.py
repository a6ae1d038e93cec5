"""Page signals per second on WARC response records (the ``bulk --pages-warc`` path).

Usage::

    python benchmarks/page_signals.py                  # a generated WARC (see below)
    python benchmarks/page_signals.py --warc CC.warc.gz --agent GPTBot   # a real one

Prints, for the same records: (1) the whole WARC path (read each gzip'd record with warcio,
keep the headers and the first 512 KiB of an HTML body, then :func:`robotsrules.page_signals`),
(2) ``page_signals`` alone on records already in memory, (3) the HTML head scan alone. Each
figure is the best of ``--repeat`` runs.

Without ``--warc`` the records are generated, deterministic and shaped like common pages:
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
import tempfile
import time
from typing import Any, Callable, List, Tuple

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from robotsrules._signals import page_signals, read_head_meta
from robotsrules.warc import iter_pages

_ROBOTS = ["noindex", "nofollow", "noai, noimageai", "max-snippet:-1, max-image-preview:large",
           "index, follow", "noarchive", "unavailable_after: 2030-01-01"]


def _page(rng: random.Random, i: int) -> Tuple[List[Tuple[str, str]], bytes]:
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


def _best(repeat: int, run: Callable[[], int]) -> Tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        count = run()
        best = min(best, time.perf_counter() - start)
    return best, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warc", help="a WARC file to read instead of a generated one")
    parser.add_argument("--records", type=int, default=2000, help="generated records")
    parser.add_argument("--agent", default="GPTBot")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.warc
        if path is None:
            path = os.path.join(tmp, "pages.warc.gz")
            make_warc(path, args.records)
        pages: List[Any] = list(iter_pages(path))
        heads = sum(len(p.head or b"") for p in pages)
        print(f"{len(pages):,} response records, {os.path.getsize(path) / 2**20:.1f} MiB "
              f"on disk, {heads / 2**20:.1f} MiB of HTML read (heads, at most 512 KiB each)")

        def whole() -> int:
            n = 0
            for page in iter_pages(path):
                page_signals(page.headers, page.head, agent=args.agent)
                n += 1
            return n

        def signals_only() -> int:
            for page in pages:
                page_signals(page.headers, page.head, agent=args.agent)
            return len(pages)

        def scan_only() -> int:
            for page in pages:
                read_head_meta(page.head)
            return len(pages)

        for label, run in (("WARC path (read + signals)", whole),
                           ("page_signals on records in memory", signals_only),
                           ("HTML head scan alone", scan_only)):
            seconds, count = _best(args.repeat, run)
            print(f"{label:38s} {count / seconds:10,.0f} responses/s "
                  f"({seconds / count * 1e6:,.0f} us each)")


if __name__ == "__main__":
    main()
