"""The log audit's HTML report (issue 37) in a real browser (Debian's Chromium, Playwright):
strangers' strings (user agents, paths, deciding lines with HTML, ``<script>``,
``javascript:``, control characters, bidi overrides) show as text and run nothing; the
tables sort (so the page's one script passed its own Content-Security-Policy); nothing is
fetched; the page fits a phone's width. The test that renders it saves the screenshot the
guide shows: to a temporary path always, and over the committed image
(docs/guides/img/log-audit-report.png) when ``ROBOTSRULES_WRITE_SCREENSHOTS=1``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from robotsrules._audit._html import render_report

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "guides" / "img" / (
    "log-audit-report.png")
OWNED = "window.__owned = (window.__owned || 0) + 1"
HOSTILE_TOKEN = f"<script>{OWNED}</script>Bot"
HOSTILE_OPERATOR = f'<img src=x onerror="{OWNED}">'
HOSTILE_URL = f"javascript:{OWNED}//\u202eevil\x1b[2J"
HOSTILE_RULE = f'Disallow: /a</code><svg onload="{OWNED}"><a href="javascript:{OWNED}">x</a>'


def counts(requests: int, verified: int, violation: int = 0, allowance: int = 0,
           spoofed: int = 0) -> dict[str, Any]:
    return {"requests": requests, "bytes": requests * 5120,
            "verification": {"verified": verified, "not-verified": spoofed,
                             "unverifiable": 0, "unknown": requests - verified - spoofed,
                             "not-checked": 0},
            "verdicts": {"allowed": requests - violation - allowance, "violation": violation,
                         "caching-allowance": allowance, "no-file": 0},
            "statuses": {"200": requests}, "paid": 0, "robots_fetches": 1}


def bot(token: str, operator: str, category: str, per_day: list[int], verified: float,
        violations: list[dict[str, Any]] = (), spoofed: float = 0.0, kept: Any = None
        ) -> dict[str, Any]:
    total = sum(per_day)
    bad = sum(v["count"] for v in violations if v["status"] == "violation")
    allowance = sum(v["count"] for v in violations if v["status"] == "caching-allowance")
    return {
        "token": token, "crawler": token, "operator": operator, "category": category,
        **counts(total, int(total * verified), bad, allowance, int(total * spoofed)),
        "days": [{"day": f"2026-11-{day + 1:02d}", **counts(n, int(n * verified))}
                 for day, n in enumerate(per_day)],
        "violations": list(violations),
        "robots_txt": {"fetched": True, "count": 3, "first": "2026-11-01T00:10:00Z",
                       "last": "2026-11-07T00:10:00Z", "statuses": {"200": 3}},
        "crawl_delay": {"reads": "yes" if kept is not None else "no", "delay": 10,
                        "judged": kept is not None, "intervals": 40,
                        "too_fast": 0 if kept else 12, "kept": kept},
        "usage": [],
    }


def sample_summary() -> dict[str, Any]:
    """A week of a small site, in the summary's documented shape, with hostile strings."""
    bots = [
        bot("Googlebot", "Google", "search", [900, 950, 1010, 980, 870, 1100, 1050], 0.97,
            spoofed=0.03),
        bot("GPTBot", "OpenAI", "ai-training", [300, 420, 380, 510, 460, 600, 640], 0.9,
            [{"status": "violation", "line": 4, "rule": "Disallow: /private/", "count": 37,
              "examples": [{"time": "2026-11-04T03:12:09Z", "url": "/private/report.pdf"}]},
             {"status": "caching-allowance", "line": 7, "rule": "Disallow: /drafts/",
              "count": 12, "examples": [{"time": "2026-11-05T08:00:01Z",
                                         "url": "/drafts/new"}]}]),
        bot("bingbot", "Microsoft", "search", [400, 380, 420, 390, 410, 450, 430], 0.95),
        bot("ClaudeBot", "Anthropic", "ai-training", [120, 130, 90, 160, 140, 150, 110], 0.99),
        bot("AhrefsBot", "Ahrefs", "seo", [200, 210, 0, 0, 220, 230, 240], 0.8, kept=False),
        bot(HOSTILE_TOKEN, HOSTILE_OPERATOR, "unregistered", [5, 0, 9, 0, 14, 0, 3], 0.0,
            [{"status": "violation", "line": 2, "rule": HOSTILE_RULE, "count": 31,
              "examples": [{"time": "2026-11-03T01:02:03Z", "url": HOSTILE_URL}]}],
            spoofed=0.0),
    ]
    days = [{"day": f"2026-11-{day + 1:02d}",
             **counts(sum(b["days"][day]["requests"] for b in bots), 0)} for day in range(7)]
    return {
        "schema": "robotsrules-log-audit/1", "site": "https://www.example.com",
        "window_hours": 24.0, "engine": "duckdb", "verification": "offline",
        "provenance": {"robotsrules": "0.0", "crawlers": "2026-11-01"},
        "input": {"sources": 1, "lines": 120_000, "requests": 119_990, "problems": {
            "malformed": {"count": 10, "examples": [f"access.log:7: <b>{OWNED}</b>\x07"]}}},
        "robots": {"versions": [{"since": None, "source": "2026-10-01.txt"},
                                {"since": "2026-11-04T00:00:00Z", "source": "2026-11-04.txt"}],
                   "findings": {}, "fetches_left_out": 0},
        "totals": {"requests": sum(b["requests"] for b in bots), "bots": len(bots),
                   "violations": 68, "caching_allowance": 12, "no_file": 0, "paid": 0,
                   "bytes": 1 << 30, "robots_fetches": 18, "other_requests": 95_000},
        "days": days, "bots": bots, "other_bots": {"bots": 0, "requests": 0},
        "categories": [{"category": "search", "bots": 2, **counts(9630, 9300)},
                       {"category": "ai-training", "bots": 2, **counts(4310, 4000, 37, 12)}],
        "robots_fetches": {"count": 18, "by_crawlers": 15, "by_others": 3,
                           "statuses": {"200": 18}, "first": None, "last": None},
    }


def open_report(browser: Any, tmp_path: Path, width: int = 1000) -> tuple[Any, list[str]]:
    path = tmp_path / "report.html"
    path.write_text(render_report(sample_summary(), title="Who crawls www.example.com"),
                    encoding="utf-8")
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(path.as_uri())
    return page, [url for url in requested if url != path.as_uri()]


def test_strangers_strings_show_as_text_and_run_nothing(browser: Any, tmp_path: Path) -> None:
    page, requested = open_report(browser, tmp_path)
    assert page.evaluate("window.__owned") is None
    assert requested == []  # no network, no file: the report is whole
    assert page.locator("script").count() == 1
    assert page.locator("img, iframe, object, embed, a, [onerror], [onload]").count() == 0
    text = page.inner_text("body")
    assert HOSTILE_TOKEN in text and HOSTILE_OPERATOR in text
    assert f"javascript:{OWNED}//\\u202eevil\\x1b[2J" in text  # controls made visible
    assert "\u202e" not in page.content() and "\x1b" not in page.content()
    assert 'Disallow: /a</code><svg onload="' in text
    assert f"<b>{OWNED}</b>\\x07" in text


def test_tables_sort_under_the_pages_own_policy(browser: Any, tmp_path: Path) -> None:
    page, _ = open_report(browser, tmp_path)
    first = "table.sortable >> nth=0"
    tokens = page.locator(f"{first} >> tbody tr td:first-child")
    assert tokens.first.inner_text() == "Googlebot"  # most requests first, as rendered
    violations = page.locator(f"{first} >> thead th", has_text="Violations")
    violations.locator("button").click()
    assert violations.get_attribute("aria-sort") == "descending"
    assert tokens.first.inner_text() == "GPTBot"  # 37 violations, then the stranger's 31
    violations.locator("button").click()
    assert violations.get_attribute("aria-sort") == "ascending"
    assert tokens.last.inner_text() == "GPTBot"
    assert page.evaluate("window.__owned") is None


def test_readable_at_phone_width_and_the_screenshot(browser: Any, tmp_path: Path) -> None:
    page, _ = open_report(browser, tmp_path, width=360)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    label = page.locator("svg[role=img] text").first.bounding_box()  # charts scroll, not shrink
    assert label is not None and label["height"] >= 10
    page, _ = open_report(browser, tmp_path, width=900)
    shot = tmp_path / "report.png"
    page.screenshot(path=str(shot), full_page=True,
                    clip={"x": 0, "y": 0, "width": 900, "height": 1500})
    assert shot.stat().st_size > 10_000  # something was drawn; nothing compared pixel-wise
    if os.environ.get("ROBOTSRULES_WRITE_SCREENSHOTS") == "1":
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, SCREENSHOT)


def test_an_empty_or_odd_summary_renders() -> None:
    for summary in ({}, {"bots": "not a list", "totals": {"requests": float("nan")}},
                    {"bots": [{"token": None, "days": [{"day": None}], "verdicts": []}]}):
        page = render_report(summary)
        assert page.startswith("<!DOCTYPE html>") and "No crawler" in page


def test_the_jobs_own_summary_renders(tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    from robotsrules import audit_logs

    log = tmp_path / "access.log"
    log.write_text(
        '66.249.66.1 - - [02/Nov/2026:10:00:00 +0000] "GET /private/a HTTP/1.1" 200 512 "-" '
        '"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"\n'
        '203.0.113.9 - - [03/Nov/2026:10:00:00 +0000] "GET /private/<b>x</b> HTTP/1.1" 200 9 '
        '"-" "EvilBot/1.0 (<script>x</script>)"\n', encoding="utf-8")
    with audit_logs(log, site="https://www.example.com",
                    robots=b"User-agent: *\nDisallow: /private/\n") as audit:
        page = render_report(audit.summary)
        tokens = [bot["token"] for bot in audit.summary["bots"]]
    assert sorted(tokens) == ["EvilBot", "Googlebot"]
    assert "Googlebot" in page and "Disallow: /private/" in page
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert page.count("<script>") == 1
