"""Differential test over the real-world corpus (``../shared/corpus``) against Google's library.

SPEC §0's identity must hold for every file, every URL listed for its host and several
agents: zero disagreements (verdict and deciding line) and zero exceptions. The suite reads
the corpus's fixed stratified sample (:func:`tests.corpus.sample`, about a seventh of the
URLs); ``--run-slow`` reads all 13,320 files (the run every change to the parse or match
path states in its note). The files are split into shards so that the work spreads over the
test workers.
"""

from __future__ import annotations

import os

import pytest

import robotsrules
from tests import corpus
from tests.oracle import CORPUS, oracle, requires_oracle

AGENTS = ["Googlebot", "GPTBot", "QuuxCrawler"]
SHARDS = 4
"""Shards of the sample; the whole corpus is read in :data:`FULL_SHARDS`."""
FULL_SHARDS = 16

SHARDED = [pytest.param(False, shard, id=f"sample-{shard}") for shard in range(SHARDS)] + [
    pytest.param(True, shard, id=f"full-{shard}", marks=pytest.mark.slow)
    for shard in range(FULL_SHARDS)]
"""(whole corpus?, shard) for the corpus tests: the sample by default, all with --run-slow."""


def files(corpus_dir: str, full: bool, shard: int) -> list[str]:
    """The file names of one shard of the sample or of the whole corpus."""
    if full:
        return corpus.names(corpus_dir)[shard::FULL_SHARDS]
    return corpus.sample(corpus_dir)[shard::SHARDS]


@requires_oracle
@pytest.mark.parametrize(("full", "shard"), SHARDED)
def test_corpus_agrees_with_google(corpus_dir: str, full: bool, shard: int) -> None:
    urls = corpus.urls_by_host(corpus_dir)
    names = files(corpus_dir, full, shard)
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
