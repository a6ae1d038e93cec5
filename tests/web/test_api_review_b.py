"""The second adversarial review of issue 41's JSON service (review-41b), findings G3 and G8,
over real HTTP on loopback and through the command's entry: every outcome is an answer, a
count it states or an exit status, never a duration."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="pip install 'robotsrules[web]'")

from robotsrules import page_signals
from robotsrules._page import page_signals_for
from robotsrules._page._robots import _read_rules
from robotsrules._web._api import Limits
from robotsrules.cli import main

from .test_api import _api, _code, _post

# the review's fifty agents: five crawlers' names and forty-five more product tokens
AGENTS = ["GPTBot", "CCBot", "Googlebot", "Bingbot", "ClaudeBot"] + [
    f"Bot{chr(65 + i)}{chr(65 + j)}" for i in range(9) for j in range(5)]


def test_page_refuses_a_huge_answer_before_making_it() -> None:
    # G3: answers of gigabytes were built before max_answer was checked. Now the header
    # fields' octets x agents are work, then one agent's answer is made and the request
    # refused from its counts, the other agents' never made.
    named = ", ".join(f"{agent}: noai" for agent in AGENTS)[:900]
    with _api() as base:
        for headers, code, said in (
                ([["X-Robots-Tag", "noai," * 180000]], "too-much-work",
                 "octets of header fields x 50 agents"),
                ([["Content-Usage", "train-ai=n," * 90000]], "too-much-work",
                 "octets of header fields x 50 agents"),
                ([["X-Robots-Tag", named]] * 50, "answer-too-large", "would have about")):
            answer = _post(base, "/v1/page", {"headers": headers, "agents": AGENTS})
            assert _code(answer) == code
            assert said in answer.json()["error"]["message"]
        # two of those fields fit, and each agent's "no" is still said
        one = _post(base, "/v1/page", {"headers": [["X-Robots-Tag", named]] * 2,
                                       "agents": AGENTS})
        assert one.status_code == 200
        assert [a["noai"] for a in one.json()] == [True] * len(AGENTS)  # each one named
        # the review's repeated value for two agents: one directive each
        two = _post(base, "/v1/page", {"headers": [["X-Robots-Tag", "noai," * 180000]],
                                       "agents": AGENTS[:2]})
        assert [(a["noai"], len(a["directives"])) for a in two.json()] == [(True, 1)] * 2
    # the review's 10,000 metas: directives x agents are work too
    with _api(limits=Limits(max_work=400_000)) as base:
        metas = _post(base, "/v1/page", {"body": "<meta name=robots content=noai>" * 10000,
                                         "agents": AGENTS})
        assert _code(metas) == "too-much-work"
        assert metas.json()["error"]["message"].startswith("10,000 directives x 50 agents")


def test_a_rule_after_many_repeats_still_restricts(tmp_path: Path) -> None:
    # the repeats are read once, never cut: a "no" after them is still said, by the library
    # and by `page FILE --json` (the same reader)
    value = "noai," * 180000 + " googlebot: noindex, noai"
    before = _read_rules.cache_info().misses
    signals = page_signals({"X-Robots-Tag": value}, agent="Googlebot")
    assert signals.noai and not signals.index and signals.allows("search") is False
    said = [("*", "noai"), ("googlebot", "noindex"), ("googlebot", "noai")]
    assert [(d.scope, d.rule) for d in signals.directives] == said
    # fifty agents more read the long value once in all (each agent's answer reads it)
    every = page_signals_for({"X-Robots-Tag": value}, None, AGENTS)
    assert _read_rules.cache_info().misses - before == 1
    assert [(s.noai, len(s.directives)) for s in every] == [(True, 3)] * 50
    # and the review's long Content-Usage field: read once for fifty agents, still a "no"
    from robotsrules._page._prefs import content_usage

    before = content_usage.cache_info().misses
    usage = page_signals_for({"Content-Usage": "train-ai=n," * 90000}, None, AGENTS)
    assert content_usage.cache_info().misses - before == 1
    assert [s.allows("train-ai") for s in usage] == [False] * 50
    saved = tmp_path / "response.http"
    saved.write_text(f"HTTP/1.1 200 OK\r\nX-Robots-Tag: {value}\r\n\r\n")
    out = io.StringIO()
    assert main(["page", str(saved), "--agent", "Googlebot", "--json"], out=out) == 0
    data = json.loads(out.getvalue())
    assert [(d["scope"], d["rule"]) for d in data["directives"]] == said
    assert data["index"] is False and data["purposes"]["search"]["allowed"] is False


@pytest.mark.parametrize("given", ["pipe", "-"])
def test_workers_refuse_a_token_file_read_only_once(
        given: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # G8: every worker reads --token-file; a pipe (<(echo tok)) or '-' is read once, and the
    # workers crash-looped. Refused before anything is bound (192.0.2.1: no local address).
    read, write = os.pipe()
    os.write(write, b"tok\n")
    os.close(write)
    try:
        path = f"/dev/fd/{read}" if given == "pipe" else "-"
        assert main(["serve", "--api", "--workers", "2", "--host", "192.0.2.1", "--port",
                     "0", "--token-file", path]) == 2
        assert "with --workers, a regular file" in capsys.readouterr().err
    finally:
        os.close(read)
    # a regular file passes that check and goes on to bind, refused for another reason
    (tmp_path / "token").write_text("tok\n")
    assert main(["serve", "--api", "--workers", "2", "--host", "192.0.2.1", "--port", "0",
                 "--token-file", str(tmp_path / "token")]) == 2
    assert "regular file" not in capsys.readouterr().err
