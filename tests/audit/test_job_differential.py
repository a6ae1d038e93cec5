"""The request table, value for value and type for type, against what the row-by-row job
gave before the crawler rows were made cheap (issue 37's speed work): each column's digest
was taken from the table that code wrote for the same two logs (the benchmark's generator,
100,000 lines; and a hostile mix made here: a history with usage lines, many versions made
by crawler fetches answered 200/404/503/304, long URLs, percent escapes and dot segments,
other hosts, several crawlers named in one header, unregistered products and addresses that
cannot be verified). A column derived per batch or per outcome that differs in one row
changes its digest.

To take the digests again (only after a change meant to change the table)::

    .venv/bin/python tests/audit/test_job_differential.py
"""

from __future__ import annotations

import datetime
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
SITE = "https://www.example.com"
START = datetime.datetime(2026, 11, 1, tzinfo=datetime.timezone.utc)

VERSIONS = {
    "2026-11-01T00:00:00Z.txt": "User-agent: *\nDisallow: /private/\nCrawl-delay: 5\n\n"
                                "User-agent: GPTBot\nDisallow: /\nAllow: /public/\n",
    "2026-11-02T00:00:00Z.txt": "User-agent: *\nContent-Signal: search=yes, ai-train=no\n"
                                "Disallow: /private/\nDisallow: /%7Ejoe/\n"
                                "Allow: /private/open$\n\nUser-agent: bingbot\nCrawl-delay: 2\n"
                                "Disallow: /slow/\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n",
    "2026-11-02T12:00:00Z.txt": "User-agent: *\nDisallow: /\nContent-Usage: train-ai=n\n\n"
                                "User-agent: Googlebot\nAllow: /\nDisallow: /*.pdf$\n",
}
AGENTS = [
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; "
    "+https://openai.com/gptbot)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "FooCrawler/3.1 (+https://foo.example/bot)",
    "Mozilla/5.0 (compatible; Googlebot/2.1) GPTBot/1.0",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 "
    "Safari/537.36",
    "-",
]
ADDRESSES = ["66.249.66.1", "1.2.3.4", "-", "2001:db8::1", "not-an-address", "40.77.167.1",
             "20.15.240.64", "fe80::1%eth0", "::ffff:66.249.66.1", "[2001:db8::2]"]
PATHS = ["/articles/1", "/articles/2?x=1#f", "/private/x", "/private/open", "/%7Ejoe/a",
         "/~joe/a", "/a/../private/y", "/./x", "/nogoogle", "/slow/1", "/public/p", "/f.pdf",
         "/long/" + "x" * 3000, "https://other.example/private/x",
         "https://www.example.com/private/z", "/robots.txt?x=1", "/caf%C3%A9", "/%41"]
STATUSES = ["200", "200", "404", "503", "304", "301", "429", "402", "-"]


def hostile_log(folder: Path) -> tuple[Path, Path]:
    """A log of 3,000 requests over three days and its history (seeded: the same each time)."""
    rnd = random.Random(9309)
    history = folder / "history"
    history.mkdir()
    for name, body in VERSIONS.items():
        (history / name).write_text(body)
    lines = []
    for number in range(3_000):
        moment = START + datetime.timedelta(hours=-6, seconds=number * 90 + rnd.randrange(60))
        method = rnd.choice(("GET", "GET", "GET", "HEAD", "POST"))
        path = "/robots.txt" if rnd.random() < 0.015 else rnd.choice(PATHS)  # few fetches:
        lines.append(f'{rnd.choice(ADDRESSES)} - - [{moment:%d/%b/%Y:%H:%M:%S +0000}] '  # some
                     f'"{method} {path} HTTP/1.1" {rnd.choice(STATUSES)} '  # violations
                     f'{rnd.randrange(0, 5000)} "-" "{rnd.choice(AGENTS)}"')
    log = folder / "access.log"
    log.write_text("\n".join(lines) + "\n")
    return log, history


def benchmark_log(folder: Path) -> tuple[Path, Path]:
    """The benchmark's generator's log: 100,000 lines over three days (seed 37)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from audit_logs_generate import generate
    finally:
        sys.path.pop(0)
    generate(folder, 100_000, 3, 37)
    return folder / "access.log", folder / "history"


def digests(log: Path, history: Path) -> dict[str, str]:
    """Each column's type and SHA-256 of its values, and the summary's."""
    from robotsrules import audit_logs

    with audit_logs(log, site=SITE, history=history) as audit:
        table = audit.table()
        found = {name: f"{table.schema.field(name).type} " + hashlib.sha256(
            json.dumps(table.column(name).to_pylist(), default=str).encode()).hexdigest()[:16]
            for name in table.column_names}
        summary = dict(audit.summary)
    for name in ("provenance", "input"):  # the build; the reader's (temporary paths)
        summary.pop(name)
    found["summary"] = hashlib.sha256(
        json.dumps(summary, default=str, sort_keys=True).encode()).hexdigest()[:16]
    found["rows"] = str(table.num_rows)
    return found


HOSTILE: dict[str, str] = {
    'time': 'timestamp[us, tz=UTC] 03d7216c395353a5',
    'day': 'string 34fcf3c9fc2f9000',
    'client': 'string 8a271884f5ca8944',
    'host': 'string 8289a949f5e3df36',
    'method': 'string c8d79f3f8de40790',
    'url': 'string 962d5bb20b7f4af9',
    'status': 'int32 24bd225c253f6c59',
    'bytes': 'int64 ff7d970a8206eba6',
    'user_agent': 'string 8dffac95e60f77a9',
    'token': 'string 41461a7e4839d3e8',
    'crawler': 'string f3cfd49a5aedd15e',
    'operator': 'string bcabfca77eaf6f2d',
    'category': 'string 9623a618b67d5904',
    'robots_fetch': 'bool b059c7a11a0879ed',
    'verification': 'string 0529cbc8483462c5',
    'verdict': 'string 6a1f85fa05443838',
    'allowed': 'bool 32dcfab7b47cea6d',
    'line': 'int32 0e3fb12d92118069',
    'rule': 'string a7d501c244607582',
    'version': 'string c0f5ce1e6243452f',
    'crawl_delay': 'double b69e41586c15b9b9',
    'reads_crawl_delay': 'string ca95dd5b7894f453',
    'content_signal': 'string e5aa99129a4a2d62',
    'content_usage': 'string f822e9e2a0f1c17d',
    'paid': 'bool bf02faef626d74be',
    'rfc_disallowed': 'bool 31b83164b69b01e5',
    'summary': 'fab07612d0fb39b5',
    'rows': '2173',
}


BENCHMARK: dict[str, str] = {
    'time': 'timestamp[us, tz=UTC] a02ffb568f685c43',
    'day': 'string 98873d1e95f3c24c',
    'client': 'string a2f29717a6211d79',
    'host': 'string 967e1739ebb01ff5',
    'method': 'string 899e2200e13361c0',
    'url': 'string 9c1a9f1c48856e4c',
    'status': 'int32 e3c2bb0fbedf577d',
    'bytes': 'int64 8a017ebfd2aefd7f',
    'user_agent': 'string e1c240d5e24abab6',
    'token': 'string 8f3f4906ee8b860e',
    'crawler': 'string 3c09ba300c463c7f',
    'operator': 'string bed74e3c2456e862',
    'category': 'string cd8ed5ffcf6b4e0e',
    'robots_fetch': 'bool de8c2c546da9266f',
    'verification': 'string dc3c80c64b890c34',
    'verdict': 'string e965e8f11b205191',
    'allowed': 'bool 2e6b8deae3f64fc4',
    'line': 'int32 85c3808a3e7dff42',
    'rule': 'string 6f2fc1f022eed30d',
    'version': 'string d81c2912e7f388be',
    'crawl_delay': 'double bcc6a442f77ecdf7',
    'reads_crawl_delay': 'string 900cea69dd9664ec',
    'content_signal': 'string 967e1739ebb01ff5',
    'content_usage': 'string 967e1739ebb01ff5',
    'paid': 'bool f11c9621942b393b',
    'rfc_disallowed': 'bool a34c2b2a5521d5b3',
    'summary': '26019b80b233221e',
    'rows': '29917',
}


def check(found: dict[str, Any], expected: dict[str, str]) -> None:
    differ = {name: (found.get(name), value) for name, value in expected.items()
              if found.get(name) != value}
    assert not differ, differ
    assert set(found) == set(expected)


def test_the_hostile_log_gives_the_table_it_gave(tmp_path: Path) -> None:
    check(digests(*hostile_log(tmp_path)), HOSTILE)


def test_the_benchmark_log_gives_the_table_it_gave(tmp_path: Path) -> None:
    check(digests(*benchmark_log(tmp_path)), BENCHMARK)


if __name__ == "__main__":  # the digests of the code installed, to paste above
    import tempfile

    for name, make in (("HOSTILE", hostile_log), ("BENCHMARK", benchmark_log)):
        with tempfile.TemporaryDirectory() as folder:
            print(f"{name}: dict[str, str] = {digests(*make(Path(folder)))!r}")
