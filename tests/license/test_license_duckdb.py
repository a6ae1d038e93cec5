"""RSL in SQL: robots_license_urls, robots_license and robots_license_allows on real DuckDB."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

import robotsrules.duckdb as engine

FIXTURES = Path(__file__).parent / "fixtures"
ROBOTS = (b"License: https://example.com/license.xml\n"
          b"User-agent: GPTBot\nDisallow: /private\nLicense: https://example.com/gpt.xml\n"
          b"User-agent: *\nDisallow:\n")


@pytest.fixture
def con() -> duckdb.DuckDBPyConnection:
    connection = duckdb.connect()
    engine.register(connection)
    return connection


def test_license_urls_per_agent(con: duckdb.DuckDBPyConnection) -> None:
    rows = con.execute(
        "SELECT robots_license_urls(body, agent) FROM (VALUES (?, 'GPTBot'), (?, 'CCBot'), "
        "(?, NULL), (NULL, 'GPTBot'), (?, 'CCBot')) t(body, agent)",
        [ROBOTS, ROBOTS, ROBOTS, "User-agent: *\nDisallow:\n"]).fetchall()
    both = ["https://example.com/license.xml", "https://example.com/gpt.xml"]
    # issue 33's decision: every License line applies to every agent
    assert [r[0] for r in rows] == [both, both, both, None, []]


def test_answers_per_row_from_a_joined_licence_table(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("CREATE TABLE licences(site VARCHAR, xml VARCHAR)")
    con.execute("INSERT INTO licences VALUES ('a', ?), ('b', ?), ('c', '<html/>')",
                [(FIXTURES / "articles.xml").read_text(),
                 (FIXTURES / "pay-per-crawl.xml").read_text()])
    con.execute("CREATE TABLE pages(site VARCHAR, url VARCHAR)")
    con.execute("INSERT INTO pages VALUES ('a', 'https://example.com/articles/1'), "
                "('a', 'https://example.com/about'), ('b', 'https://example.com/x'), "
                "('c', 'https://example.com/x'), ('a', 'not a url')")
    rows = con.execute(
        "SELECT url, robots_license(xml, url, 'ai-train'), "
        "robots_license_allows(xml, url, 'train-ai') FROM pages JOIN licences USING (site) "
        "ORDER BY site, url").fetchall()
    assert rows == [
        ("https://example.com/about", "permitted", True),
        ("https://example.com/articles/1", "prohibited", False),
        ("not a url", None, None),
        ("https://example.com/x", "licensed", False),
        ("https://example.com/x", "unknown", None),
    ]


def test_refused_documents_and_unmatchable_paths_are_never_permitted(
        con: duckdb.DuckDBPyConnection) -> None:
    trap = ('<rsl:rsl xmlns:rsl="https://rslstandard.org/rsl"><rsl:content url="/">'
            '<rsl:license><prohibits type="usage">ai-train</prohibits></rsl:license>'
            '</rsl:content></rsl:rsl>')
    full = (FIXTURES / "full-urls.xml").read_text()
    # issue 33 §2 review: misplaced elements and misread attributes read permitted
    misplaced = ('<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><prohibits '
                 'type="usage">ai-train</prohibits><license/></content></rsl>')
    namespaced = ('<rsl xmlns="https://rslstandard.org/rsl" xmlns:r="https://rslstandard.org/'
                  'rsl"><content url="/"><license><payment r:type="crawl"/></license>'
                  '</content></rsl>')
    rows = con.execute(
        "SELECT robots_license(xml, url, 'all'), robots_license_allows(xml, url, "
        "'all') FROM (VALUES (?, 'https://example.com/a'), (?, '/news/a.html'), "
        "(?, 'https://example.com/news/a.html'), (?, '/a'), (?, '/a')) t(xml, url)",
        [trap, full, full, misplaced, namespaced]).fetchall()
    # the skipped prohibition read permitted; a path against full-URL contents read
    # unstated: now unknown, and no answer (the path cannot be matched)
    assert rows == [("unknown", None), (None, None), ("prohibited", False),
                    ("unknown", None), ("unknown", None)]


def test_an_unknown_purpose_is_the_querys_mistake(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(duckdb.Error, match="unknown purpose 'ai_train'"):
        con.execute("SELECT robots_license(?, '/', 'ai_train')",
                    [(FIXTURES / "articles.xml").read_bytes()]).fetchall()
