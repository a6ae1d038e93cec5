"""The second adversarial review of issue 41's JSON service (review-41b), findings G3 and G8,
over real HTTP on loopback and through the command's entry: every outcome is an answer, a
count it states or an exit status, never a duration."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="pip install 'robotsrules[web]'")

from robotsrules.cli import main

from .test_api import _api, _code, _post

# the review's fifty agents: five crawlers' names and forty-five more product tokens
AGENTS = ["GPTBot", "CCBot", "Googlebot", "Bingbot", "ClaudeBot"] + [
    f"Bot{chr(65 + i)}{chr(65 + j)}" for i in range(9) for j in range(5)]


def test_page_refuses_a_huge_answer_from_one_agents_answer() -> None:
    # G3: answers of gigabytes were built before max_answer was checked; now one agent's
    # answer is made, and the request is refused from its counts, the others never made.
    named = ", ".join(f"{agent}: noai" for agent in AGENTS)[:900]
    with _api() as base:
        huge = _post(base, "/v1/page", {"headers": [["X-Robots-Tag", "noai," * 180000]],
                                        "agents": AGENTS})
        assert _code(huge) == "too-much-work"
        assert huge.json()["error"]["message"].startswith("180,000 directives x 50 agents")
        for headers in ([["X-Robots-Tag", named]] * 1000,
                        [["Content-Usage", "train-ai=n," * 90000]]):
            answer = _post(base, "/v1/page", {"headers": headers, "agents": AGENTS})
            assert _code(answer) == "answer-too-large"
            assert "would have about" in answer.json()["error"]["message"]
        # two of those fields fit, and each agent's "no" is still said
        one = _post(base, "/v1/page", {"headers": [["X-Robots-Tag", named]] * 2,
                                       "agents": AGENTS})
        assert one.status_code == 200
        assert [a["noai"] for a in one.json()] == [True] * len(AGENTS)  # each one named


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
