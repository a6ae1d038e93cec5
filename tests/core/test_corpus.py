"""Differential test over the real-world corpus (``../shared/corpus``) against Google's library.

SPEC §0's identity must hold for every file, every URL listed for its host and several
agents: zero disagreements (verdict and deciding line) and zero exceptions. The corpus is
split into shards so that the work spreads over the test workers.
"""

from __future__ import annotations

import os
from collections import defaultdict
from typing import Dict, List

import pytest

import robotsrules
from tests.oracle import CORPUS, oracle, requires_oracle

SHARDS = 16
AGENTS = ["Googlebot", "GPTBot", "QuuxCrawler"]


def _urls(corpus: str) -> Dict[str, List[str]]:
    by_host: Dict[str, List[str]] = defaultdict(list)
    with open(os.path.join(corpus, "urls.txt"), encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            host, _, url = line.rstrip("\n").partition("\t")
            by_host[host].append(url)
    return by_host


@requires_oracle
@pytest.mark.parametrize("shard", range(SHARDS))
def test_corpus_agrees_with_google(corpus_dir: str, shard: int) -> None:
    urls = _urls(corpus_dir)
    names = sorted(os.listdir(os.path.join(corpus_dir, "robots")))[shard::SHARDS]
    checked, problems = 0, []
    for name in names:
        with open(os.path.join(corpus_dir, "robots", name), "rb") as handle:
            body = handle.read()
        robots = robotsrules.parse(body)
        for url in urls.get(name[: -len(".txt")], []):
            for agent in AGENTS:
                checked += 1
                try:
                    verdict = robots.explain(url, agent=agent)
                except Exception as error:
                    problems.append(f"{name} {url!r} {agent}: {error!r}")
                    continue
                expected, line = oracle(body, agent, url)
                ours = verdict.rule.line if verdict.rule else 0
                if verdict.allowed != expected or (verdict.rule and ours != line):
                    problems.append(
                        f"{name} {url!r} {agent}: ours {verdict.allowed}@{ours}, "
                        f"google {expected}@{line}"
                    )
    assert problems == [], f"{len(problems)} of {checked} checks differ:\n" + "\n".join(
        problems[:20])
    assert checked > 0


def test_corpus_present_or_skipped_clearly() -> None:
    if not os.path.isdir(os.path.join(CORPUS, "robots")):
        pytest.skip(f"corpus not found at {os.path.abspath(CORPUS)} (set ROBOTSRULES_CORPUS)")
    assert os.path.isfile(os.path.join(CORPUS, "urls.txt"))
