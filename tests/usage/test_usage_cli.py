"""The command line: ``usage``, and usage lines in ``explain`` and ``agents``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from robotsrules.cli import main

BODY = (b"User-Agent: *\n"  # 1
        b"Content-Signal: search=yes,ai-train=no\n"  # 2
        b"Allow: /\n"  # 3
        b"Disallow: /private/\n"  # 4
        b"Content-Usage: /ai-ok/ train-ai=y\n"  # 5
        b"\n"  # 6
        b"User-agent: GPTBot\n"  # 7
        b"Disallow: /\n")  # 8


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


@pytest.fixture()
def robots(tmp_path: Path) -> str:
    path = tmp_path / "robots.txt"
    path.write_bytes(BODY)
    return str(path)


def test_usage_text_per_url(robots: str) -> None:
    code, out = run("usage", robots, "--agent", "Googlebot", "--color", "never", "/",
                    "/private/x")
    assert code == 1  # one URL may not be crawled
    lines = out.splitlines()
    assert lines[0] == robots
    assert "/  may crawl (3: Allow: /)" in lines
    assert "  search       yes  2: Content-Signal: search=yes,ai-train=no" in lines
    assert "  ai-input     -    nothing stated" in lines
    assert "  train-ai     no   2: Content-Signal: search=yes,ai-train=no" in lines
    assert "/private/x  may NOT crawl (4: Disallow: /private/)" in lines
    assert any("line 2 would apply otherwise" in line for line in lines)


def test_usage_default_url_and_exit_0(robots: str) -> None:
    code, out = run("usage", robots, "--agent", "Googlebot")
    assert code == 0 and "\n/  may crawl" in out


def test_usage_json(robots: str) -> None:
    code, out = run("usage", "--json", robots, "--agent", "Googlebot", "/ai-ok/page")
    assert code == 0
    report = json.loads(out)
    entry = report["urls"][0]
    assert entry["crawl_allowed"] is True and entry["crawl_rule"] == 3
    assert entry["purposes"]["ai-train"] == {"answer": False, "lines": [2, 5]}
    assert entry["purposes"]["ai-input"] == {"answer": None, "lines": []}
    assert [line["line"] for line in entry["lines"]] == [2, 5]
    assert entry["lines"][1]["states"] == {"train-ai": True}


def test_usage_errors_exit_2(robots: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("usage", robots + ".missing", "--agent", "x")[0] == 2
    assert run("usage", robots, "--agent", "not a token")[0] == 2
    assert "robotsrules: error:" in capsys.readouterr().err


def test_explain_shows_usage_lines(robots: str) -> None:
    code, out = run("explain", robots, "--agent", "Googlebot", "/ai-ok/x", "--color", "never")
    assert code == 0
    assert "  usage:   line 2: Content-Signal: search=yes,ai-train=no" in out
    assert "  usage:   line 5: Content-Usage: /ai-ok/ train-ai=y" in out
    assert "|     5  Content-Usage: /ai-ok/ train-ai=y" in out
    code, out = run("explain", robots, "--agent", "Googlebot", "/ai-ok/x", "--json")
    assert [u["line"] for u in json.loads(out)["usage"]] == [2, 5]
    code, out = run("explain", robots, "--agent", "Googlebot", "/private/x", "--json")
    assert code == 1 and json.loads(out)["usage"] == []


def test_agents_columns(robots: str) -> None:
    code, out = run("agents", robots, "--color", "never")
    assert code == 0
    google = next(line for line in out.splitlines() if line.strip().startswith("Googlebot "))
    assert google.split()[1:5] == ["allowed", "yes", "-", "no"]
    gpt = next(line for line in out.splitlines() if line.strip().startswith("GPTBot "))
    assert gpt.split()[1:5] == ["disallowed", "-", "-", "-"]
    report = json.loads(run("agents", robots, "--json")[1])
    by_token = {c["token"]: c for c in report["crawlers"]}
    assert by_token["Googlebot"]["preferences"]["ai-train"] is False
    assert by_token["GPTBot"]["preferences"] == {}


def test_usage_reads_an_earlier_revision_on_request(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(b"User-agent: *\nContent-Usage: / bots=n, search=y\n")
    code, out = run("usage", str(path), "--agent", "x", "--color", "never")
    assert code == 0
    assert "read as draft-ietf-aipref-vocab-07, 2026-08-19, no nesting" in out
    assert "  train-ai     -    nothing stated" in out
    assert "note: `bots` is a label of draft-ietf-aipref-vocab-03 to -04 only" in out
    code, out = run("usage", str(path), "--agent", "x", "--color", "never",
                    "--aipref-revision", "03")
    assert "read as draft-ietf-aipref-vocab-03, 2025-09-05)" in out
    assert "  train-ai     no   2: Content-Usage: / bots=n, search=y" in out
    code, out = run("usage", str(path), "--agent", "x", "--json", "--aipref-revision", "3")
    report = json.loads(out)["urls"][0]
    assert report["aipref_revision"] == "draft-ietf-aipref-vocab-03"
    assert report["purposes"]["train-ai"] == {"answer": False, "lines": [2]}
    assert report["superseded"] == {"bots": "draft-ietf-aipref-vocab-03 to -04"}


def test_usage_refuses_a_revision_without_reading(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(b"User-agent: *\n")
    code, out = run("usage", str(path), "--agent", "x", "--aipref-revision", "08")
    assert code == 2 and out == ""
    # -08 (2026-09-14) is recorded, but only its first page was read: refused with that reason
    err = capsys.readouterr().err
    assert "no reading of draft-ietf-aipref-vocab-08 (2026-09-14): its text was not read" in err
    code, out = run("usage", str(path), "--agent", "x", "--aipref-revision", "09")
    assert code == 2 and out == ""
    assert "no reading of draft-ietf-aipref-vocab revision '09'" in capsys.readouterr().err


def test_usage_default_reading_stays_07_for_an_ai_use_line(tmp_path: Path) -> None:
    # Issue 35 §2: secondary reports say -08 adds `ai-use`; until its text is read, `ai-use`
    # answers for itself only and `ai-input` stays unstated (the default reading is -07).
    path = tmp_path / "robots.txt"
    path.write_bytes(b"User-agent: *\nContent-Usage: / ai-use=n\n")
    code, out = run("usage", str(path), "--agent", "x", "--json")
    assert code == 0
    report = json.loads(out)["urls"][0]
    assert report["aipref_revision"] == "draft-ietf-aipref-vocab-07"
    assert report["purposes"]["ai-use"] == {"answer": False, "lines": [2]}
    assert report["purposes"]["ai-input"] == {"answer": None, "lines": []}
    assert report["superseded"] == {"ai-use": "draft-ietf-aipref-vocab-02 (2025-07-21)"}
