"""Fuzz target: page_signals against whatever headers and HTML a website can send.

Invariant: for any response, :func:`robotsrules.page_signals` returns normally for every
agent tried, its answers agree with each other (``allows(p) == decide(p)[0]`` for every
purpose; a decider is given exactly when an answer is; ``as_dict()`` is JSON), and a robots
rule added to the response never allows more: with one more ``X-Robots-Tag: noindex`` (or
``Robots-Tag: *;noindex``) header, ``index`` is false and ``allows("search")`` is false; the
licence URLs are ``http(s)`` URLs, and a pricing describes itself.

Input layout::

    header block SEP html        SEP = b"\\n\\x00\\xff\\n"

The header block is read as raw ``Name: value`` lines (latin-1); without SEP the whole input
is the HTML, with a few fixed headers.

Run (atheris, coverage-guided)::

    .venv/bin/python fuzz/fuzz_page.py --write-seeds /tmp/fuzz-page
    .venv/bin/python fuzz/fuzz_page.py -max_len=8192 -runs=20000 /tmp/fuzz-page

Without atheris, ``--plain`` runs the same checks over built-in seeds and random mutations
of them (seeded, so a run can be repeated)::

    .venv/bin/python fuzz/fuzz_page.py --plain --runs 5000 --seed 1
"""

from __future__ import annotations

import datetime
import json
import random
import sys

from robotsrules import page_signals
from robotsrules._page import header_block
from robotsrules._tables._purposes import PURPOSES

SEP = b"\n\x00\xff\n"
AGENTS = ("Googlebot", "GPTBot", "*", ("googlebot-news", "otherbot"))
NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
FIXED: list[tuple[str, str]] = [("X-Robots-Tag", "googlebot: noindex"),
                                 ("Content-Usage", "train-ai=n")]

SEEDS = [
    b"X-Robots-Tag: noindex, nofollow\nX-Robots-Tag: gptbot: noai" + SEP +
    b'<html><head><meta name="robots" content="max-snippet:20, nosnippet"></head>',
    b"tdm-reservation: 1\ntdm-policy: https://x/p.json" + SEP +
    b'<meta name="tdm-reservation" content="0"><meta name=GPTBot content=noindex>',
    b"X-Robots-Tag: unavailable_after: Friday, 25-Jun-10 15:00:00 GMT, noarchive" + SEP +
    b"<!-- <meta name=robots content=noindex> --><script>'<meta>'</script>",
    b'<html><head><template><meta name="robots" content="none"></template><noscript>'
    b'<meta name="robots" content="noimageai"></noscript></head><body><meta name=robots>',
    b"Content-Usage: train-ai=y, search=n, x=?\nX-Robots-Tag: max-image-preview:large" + SEP,
    b"Robots-Tag: *;nosnippet, GPTBot;noindex\nRobots-Tag: googlebot: noarchive\n"
    b'Link: </l.xml>; rel="license"; type="application/rsl+xml", <x>; anchor="/y"' + SEP +
    b'<base href="/b/"><link rel=license type=application/rsl+xml href=l.xml>'
    b'<script type="application/rsl+xml"><rsl/></script>',
    b"HTTP/2 402\ncrawler-price: USD 0.01\ncrawler-error: InvalidCrawlerExactPrice\n"
    b"Link: <https://e.example/terms>; rel=terms-of-service" + SEP,
]


def check(data: bytes) -> None:
    """Run every check on one input; raise AssertionError when the invariant breaks."""
    head, sep, html = data.partition(SEP)
    headers = list(header_block(head)) if sep else list(FIXED)
    body = html if sep else data
    for agent in AGENTS:
        signals = page_signals(headers, body, agent=agent, now=NOW,
                               url="https://example.com/a/page")
        assert all(u.startswith(("http://", "https://")) for u in signals.license_urls)
        if signals.pricing is not None:
            signals.pricing.describe()
        for purpose in PURPOSES:
            answer, directive = signals.decide(purpose)
            assert signals.allows(purpose) is answer, purpose
            assert (answer is None) == (directive is None), (purpose, answer, directive)
        json.dumps(signals.as_dict(), default=str)
        for d in signals.directives:
            d.describe()
        stricter = page_signals([*headers, ("X-Robots-Tag", "noindex")], body, agent=agent,
                                now=NOW)
        assert stricter.index is False and stricter.allows("search") is False
        assert stricter.follow is signals.follow
        tagged = page_signals([*headers, ("Robots-Tag", "*;noindex")], body, agent=agent,
                              now=NOW)
        assert tagged.index is False and tagged.allows("search") is False


def _mutate(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        choice = rng.random()
        if choice < 0.3 and out:
            del out[rng.randrange(len(out))]
        elif choice < 0.6:
            out.insert(rng.randint(0, len(out)), rng.randrange(256))
        elif choice < 0.8:
            piece = rng.choice([b"<meta ", b"content=", b"name=robots ", b">", b'"', b"<!--",
                                b"-->", b"</head>", b",", b":", b"noindex", b"googlebot:",
                                b"unavailable_after:", b"tdm-reservation", SEP, b";",
                                b"*;", b"Robots-Tag: ", b"Link: ", b"<link rel=license ",
                                b"crawler-price: ", b"(", b"?0"])
            at = rng.randint(0, len(out))
            out[at:at] = piece
        else:
            other = rng.choice(SEEDS)
            out += other[rng.randrange(len(other) + 1):]
    return bytes(out)


def plain(runs: int, seed: int) -> int:
    """Seeds, then ``runs`` mutations of them; return the number of inputs checked."""
    rng = random.Random(seed)
    for data in SEEDS:
        check(data)
    for _ in range(runs):
        check(_mutate(rng, rng.choice(SEEDS)))
    return len(SEEDS) + runs


def main() -> None:
    if "--write-seeds" in sys.argv:
        import os

        folder = sys.argv[sys.argv.index("--write-seeds") + 1]
        os.makedirs(folder, exist_ok=True)
        for number, data in enumerate(SEEDS):
            with open(os.path.join(folder, f"seed-{number}"), "wb") as handle:
                handle.write(data)
        return
    if "--plain" in sys.argv:
        args = sys.argv[1:]
        runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 2000
        seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
        print(f"{plain(runs, seed)} inputs hold the invariant")
        return
    import atheris  # the fuzz extra

    atheris.instrument_all()  # robotsrules is imported already: instrument what is loaded
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
