"""Real files carrying usage-preference lines (tests/usage/corpus, SOURCES.md): no exception,
and stable answers pinned per well-known crawler."""

from __future__ import annotations

from pathlib import Path

import pytest

import robotsrules
from robotsrules import lint
from robotsrules.crawlers import known_crawlers
from robotsrules.purposes import PURPOSES

CORPUS = Path(__file__).resolve().parent / "corpus"
FILES = sorted(CORPUS.glob("*.txt"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_file_every_crawler_every_purpose(path: Path) -> None:
    body = path.read_bytes()
    robots = robotsrules.parse(body)
    for crawler in known_crawlers():
        for url in ("/", "/admin/x", "/robots.txt", "/a?b=c"):
            usage = robots.usage(url, agent=crawler.token)
            assert usage.crawl_allowed is robots.allowed(url, agent=crawler.token)
            answers = [usage.allows(p) for p in PURPOSES]
            again = robotsrules.parse(body).usage(url, agent=crawler.token)
            assert answers == [again.allows(p) for p in PURPOSES]
    lint(body)


def test_serchen_answers() -> None:
    robots = robotsrules.parse((CORPUS / "serchen.com.txt").read_bytes())
    google = robots.usage("https://serchen.com/", agent="Googlebot")
    assert google.crawl_allowed and google.preferences == {
        "search": True, "ai-train": False, "train-ai": False, "train-genai": False}
    assert [line.line for line in google.lines] == [30]
    admin = robots.usage("https://serchen.com/admin/", agent="Googlebot")
    assert not admin.crawl_allowed and admin.preferences == {}
    gpt = robots.usage("https://serchen.com/", agent="GPTBot")
    assert not gpt.crawl_allowed and gpt.allows("ai-train") is None
    # "use=reference" is a known signal (not R602), the file has no usage finding at all
    assert not [d for d in lint((CORPUS / "serchen.com.txt").read_bytes())
                if d.code.startswith("R6")]
