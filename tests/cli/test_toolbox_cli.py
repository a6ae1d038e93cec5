"""Golden-output tests of the toolbox commands: explain, agents, diff (text and JSON)."""

from __future__ import annotations

import io
import json
import os

import pytest

from robotsrules._tables._crawlers import known_crawlers
from robotsrules.cli import main

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "robots.txt")


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_explain_marks_groups_and_the_deciding_line() -> None:
    code, out = run("explain", EXAMPLE, "--agent", "ExampleBot", "https://example.com/a.pdf")
    assert code == 1
    lines = out.splitlines()
    assert lines[1:6] == [
        "      1  # An example robots.txt for trying robotsrules (see README.md).",
        "|     2  User-agent: *",
        "|     3  Disallow: /private/",
        "|     4  Allow: /private/press/",
        ">     5  Disallow: /*.pdf$",
    ]
    assert lines[-4:] == [
        "DISALLOWED  https://example.com/a.pdf  (target /a.pdf)",
        "  applies: no group names 'ExampleBot': the '*' group at line 2",
        "  decides: line 5: Disallow: /*.pdf$ (priority 7)",
        "  why:     the longest matching rule decides (RFC 9309 \u00a72.2.2)",
    ]


def test_explain_reasons_in_words() -> None:
    _, out = run("explain", EXAMPLE, "--agent", "GPTBot", "/robots.txt")
    assert "/robots.txt itself is always allowed" in out
    _, out = run("explain", EXAMPLE, "--agent", "GPTBot", "/x")
    assert "applies: group naming 'GPTBot' at line 9" in out
    _, out = run("explain", EXAMPLE, "--agent", "Other", "/free")
    assert "no rule of the applicable groups matches" in out


def test_explain_json() -> None:
    code, out = run("explain", EXAMPLE, "--agent", "ExampleBot", "--json", "/private/press/x")
    report = json.loads(out)
    assert code == 0 and report["allowed"] is True and report["reason"] == "longest-match"
    assert report["rule"] == {"line": 4, "directive": "allow", "value": "/private/press/",
                              "pattern": "/private/press/", "priority": 15}
    assert report["groups"] == [2] and report["scope"] == "global"


def test_explain_colour_only_when_asked() -> None:
    _, plain = run("explain", EXAMPLE, "--agent", "a", "/x")
    _, coloured = run("explain", EXAMPLE, "--agent", "a", "--color", "always", "/private/x")
    assert "\x1b[" not in plain and "\x1b[1;31m" in coloured


def test_agents_lists_groups_and_every_known_crawler() -> None:
    code, out = run("agents", EXAMPLE)
    assert code == 0
    assert "  line 9     GPTBot, CCBot: 1 rule" in out
    # then search, ai-input, ai-train: nothing stated in this file (robotsrules usage)
    assert "  GPTBot                 disallowed -   -   -    its group at line 9, 11: Disallow: /" in out
    assert "  Googlebot              allowed    -   -   -    '*' group at line 2" in out
    for crawler in known_crawlers():
        if crawler.token is None:  # listed apart: no robots.txt group can name it
            assert f"  {crawler.label} " in out.split("robots.txt cannot stop these")[1]
            continue
        shown = crawler.label if crawler.label == crawler.token else (
            f"{crawler.label} (read as {crawler.token})")
        assert f"  {shown} " in out


def test_agents_json_and_table_data() -> None:
    _, out = run("agents", EXAMPLE, "--json", "--url", "/private/x")
    report = json.loads(out)
    assert [g["line"] for g in report["groups"]] == [2, 9]
    tokens = {c["name"]: c["allowed"] for c in report["crawlers"]}
    assert tokens["CCBot"] is False and tokens["Googlebot"] is False  # /private/x
    required = {"GPTBot", "ChatGPT-User", "OAI-SearchBot", "ClaudeBot", "Claude-User",
                "anthropic-ai", "CCBot", "Google-Extended", "Applebot-Extended",
                "PerplexityBot", "Bytespider", "meta-externalagent", "Amazonbot", "cohere-ai"}
    assert required <= {c.token for c in known_crawlers()}
    assert all(c.source and c.operator for c in known_crawlers())
    chatgpt = next(c for c in report["crawlers"] if c["name"] == "ChatGPT-User")
    assert chatgpt["stoppable"] is False and chatgpt["robots_txt"]["obeys"] == "no"
    assert chatgpt["robots_txt"]["source"].startswith("https://")
    assert {c["name"] for c in report["robots_txt_cannot_stop"]} >= {
        "ChatGPT-User", "Perplexity-User", "Google-Agent", "ChatGPT Agent"}
    assert report["registry"]["version"] == "3"


def test_diff_reports_changed_verdicts_with_lines(tmp_path: os.PathLike[str]) -> None:
    new = os.path.join(str(tmp_path), "new.txt")
    with open(new, "w") as handle:
        handle.write("User-agent: *\nDisallow: /private/\nDisallow: /tmp\n")
    code, out = run("diff", EXAMPLE, new, "--agent", "GPTBot", "--agent", "Other")
    assert code == 1
    assert "GPTBot           /  disallowed -> allowed\n    old: 11: Disallow: /\n" in out
    assert "Other            /tmp  allowed -> disallowed" in out
    assert "    new: 3: Disallow: /tmp" in out
    code, out = run("diff", EXAMPLE, EXAMPLE)
    assert code == 0 and out == "no verdict changes\n"


def test_diff_with_a_url_file_and_json(tmp_path: os.PathLike[str]) -> None:
    urls = os.path.join(str(tmp_path), "urls.txt")
    with open(urls, "w") as handle:
        handle.write("# paths\n/private/press/a\n/doc.pdf\n")
    new = os.path.join(str(tmp_path), "new.txt")
    with open(new, "w") as handle:
        handle.write("User-agent: *\nDisallow: /private/\n")
    code, out = run("diff", EXAMPLE, new, "--urls", urls, "--json", "--agent", "x")
    report = json.loads(out)
    assert code == 1
    assert [(c["url"], c["old"]["allowed"], c["new"]["allowed"]) for c in report["changes"]] == [
        ("/private/press/a", True, False), ("/doc.pdf", False, True)]


def test_toolbox_on_a_corpus_file(corpus_dir: str) -> None:
    path = os.path.join(corpus_dir, "robots", "ebay.com.txt")
    if not os.path.exists(path):
        pytest.skip("ebay.com.txt not in this corpus")
    code, out = run("agents", path)
    assert code == 0 and "GPTBot" in out
    code, out = run("explain", path, "--agent", "Googlebot", "--json", "/itm/123")
    assert code in (0, 1) and json.loads(out)["target"] == "/itm/123"


def test_diff_finds_an_end_anchor_added_to_a_pattern(tmp_path: os.PathLike[str]) -> None:
    # "/*.pdf" matches "/a.pdf?dl=1", "/*.pdf$" does not: the sample paths reach past the
    # pattern's end, so the change is found without a URL list
    old, new = (os.path.join(str(tmp_path), name) for name in ("old.txt", "new.txt"))
    with open(old, "w") as handle:
        handle.write("User-agent: *\nDisallow: /*.pdf\n")
    with open(new, "w") as handle:
        handle.write("User-agent: *\nDisallow: /*.pdf$\n")
    code, out = run("diff", old, new)
    assert code == 1
    assert "*                /x.pdf?x  disallowed -> allowed" in out
