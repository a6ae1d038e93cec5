"""An adversarial review of the log audit's speed changes (issue 37): hostile inputs that
broke the job (a traceback, a request mis-judged), each kept as a test of its fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("duckdb")

from robotsrules import InvalidArgument, audit_logs

SITE = "https://www.example.com"
ROBOTS = b"User-agent: *\nDisallow: /p\n"


def test_a_number_past_the_tables_columns_is_no_traceback(tmp_path: Path) -> None:
    """A stranger's status or byte count that no table column holds (the combined format
    reads 19 digits of bytes, past 2**63 - 1; JSON formats any integer) is read as not
    known (``None``), the request kept and judged: before, the whole audit failed."""
    combined = tmp_path / "access.log"
    combined.write_text(
        '192.0.2.9 - - [02/Nov/2026:10:00:00 +0000] "GET /p HTTP/1.1" 200 '
        '9999999999999999999 "-" "GPTBot/1.0"\n'
        '192.0.2.9 - - [02/Nov/2026:10:00:01 +0000] "GET /q HTTP/1.1" 200 5 "-" "GPTBot/1.0"\n')
    cloudflare = tmp_path / "cloudflare.ndjson"
    cloudflare.write_text("".join(json.dumps({
        "ClientIP": "192.0.2.9", "ClientRequestHost": "www.example.com",
        "ClientRequestMethod": "GET", "ClientRequestURI": "/p",
        "ClientRequestUserAgent": "GPTBot/1.0", "EdgeStartTimestamp": 1793600724 * 10**9,
        "EdgeResponseStatus": status, "EdgeResponseBytes": size}) + "\n"
        for status, size in ((2**32, 1), (200, 10**30), (402, 7))))
    for log, expected in ((combined, [(200, None), (200, 5)]),
                          (cloudflare, [(None, 1), (200, None), (402, 7)])):
        with audit_logs(log, site=SITE, robots=ROBOTS) as audit:
            rows = audit.table().to_pylist()
        assert [(row["status"], row["bytes"]) for row in rows] == expected
        assert [row["token"] for row in rows] == ["GPTBot"] * len(expected)
        assert rows[0]["verdict"] == "violation"
        assert [row["paid"] for row in rows] == [s == 402 for s, _b in expected]


@pytest.mark.parametrize("window", [1e300, 2.0**63])
def test_a_window_no_time_holds_is_a_usage_error(tmp_path: Path, window: float) -> None:
    """``audit_logs(window=1e300)`` (hours past what a ``timedelta`` holds) is an
    :class:`InvalidArgument` like any other bad window, not an ``OverflowError``."""
    log = tmp_path / "access.log"
    log.write_text("")
    with pytest.raises(InvalidArgument, match="window"):
        audit_logs(log, site=SITE, robots=ROBOTS, window=window)
