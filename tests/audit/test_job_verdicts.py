"""The done-when of issue 37: over generated logs and robots.txt histories (the caching
window included), every request's verdict in ``audit_logs``' table equals what
``RobotsTxt.allowed`` gives for the file(s) in force at its time (the plain reference of
``test_inforce``), the deciding line is the file in force's, and the log's own robots.txt
answers move the state (a 4xx: all allowed from then on)."""

from __future__ import annotations

import datetime
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pytest.importorskip("duckdb")

from robotsrules import audit_logs, parse
from robotsrules._audit._inforce import History, Version
from tests.audit.test_inforce import AGENTS, DAY, HOUR, SECOND, T0, URLS, body, reference

WINDOWS = [DAY, 6 * HOUR, datetime.timedelta(0)]


def stamp(moment: datetime.datetime) -> str:
    return moment.strftime("%d/%b/%Y:%H:%M:%S +0000")


def log_line(agent: str, url: str, moment: datetime.datetime) -> str:
    return (f'192.0.2.1 - - [{stamp(moment)}] "GET {url} HTTP/1.1" 200 1 "-" '
            f'"Mozilla/5.0 (compatible; {agent}/1.0)"\n')


@st.composite
def scenario(draw: st.DrawFn) -> tuple[list[tuple[int, str]], datetime.timedelta,
                                       list[tuple[str, str, datetime.datetime]]]:
    hours = draw(st.lists(st.integers(0, 96), min_size=1, max_size=4, unique=True))
    bodies = [(hour, draw(body)) for hour in hours]
    window = draw(st.sampled_from(WINDOWS))
    edges = [T0 + h * HOUR + window + d * SECOND for h in hours for d in (-1, 0, 1)]
    edges += [T0 + h * HOUR + d * SECOND for h in hours for d in (-1, 0)]
    moment = st.one_of(st.sampled_from(edges),
                       st.integers(-3600, 130 * 3600).map(lambda s: T0 + s * SECOND))
    requests = draw(st.lists(st.tuples(st.sampled_from(AGENTS), st.sampled_from(URLS), moment),
                             min_size=1, max_size=12))
    return bodies, window, requests


def run(bodies: list[tuple[int, str]], window: datetime.timedelta,
        requests: list[tuple[str, str, datetime.datetime]], folder: Path) -> list[dict]:
    history = folder / "history"
    history.mkdir()
    for hour, text in bodies:
        (history / (T0 + hour * HOUR).strftime("%Y%m%dT%H%M%SZ.txt")).write_text(text)
    log = folder / "access.log"
    log.write_text("".join(log_line(*request) for request in requests))
    with audit_logs(log, site="https://example.com", history=history,
                    window=window.total_seconds() / 3600, verify=False) as audit:
        return audit.table().to_pylist()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario())
def test_each_verdict_is_the_file_in_force(case: tuple[list[tuple[int, str]],
                                                       datetime.timedelta, list]) -> None:
    bodies, window, requests = case
    versions = [Version(T0 + hour * HOUR, parse(text),
                        (T0 + hour * HOUR).strftime("%Y%m%dT%H%M%SZ.txt"))
                for hour, text in bodies]
    with tempfile.TemporaryDirectory() as folder:
        rows = run(bodies, window, requests, Path(folder))
    assert len(rows) == len(requests)  # every request of a crawler has its row
    for (agent, url, moment), row in zip(requests, rows):
        status, now = reference(versions, agent, url, moment, window)
        assert (row["token"], row["url"], row["time"]) == (agent, url, moment)
        assert row["verdict"] == status, (agent, url, moment)
        if now is None:
            assert row["allowed"] is None and row["version"] is None
            continue
        assert row["version"] == now.source
        verdict = now.robots.explain(url, agent=agent)
        assert row["allowed"] == now.robots.allowed(url, agent=agent)
        assert row["line"] == (verdict.rule.line if verdict.rule else None)


def test_a_robots_txt_404_in_the_log_allows_everything_from_then_on(tmp_path: Path) -> None:
    history = tmp_path / "history"
    history.mkdir()
    (history / "2026-11-01.txt").write_text("User-agent: *\nDisallow: /x\n")
    moments = [T0 + 2 * HOUR, T0 + 3 * HOUR, T0 + 4 * HOUR]
    log = tmp_path / "access.log"
    log.write_text(log_line("FooBot", "/x", moments[0])
                   + log_line("FooBot", "/robots.txt", moments[1]).replace(" 200 ", " 404 ")
                   + log_line("FooBot", "/x", moments[2]))
    with audit_logs(log, site="https://example.com", history=history, verify=False) as audit:
        verdicts = [(row["url"], row["verdict"]) for row in audit.table().to_pylist()]
    assert verdicts == [("/x", "violation"), ("/robots.txt", "allowed"), ("/x", "allowed")]


def test_a_request_for_another_host_is_not_judged(tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    log.write_text(f'other.example 192.0.2.1 - - [{stamp(T0)}] "GET /x HTTP/1.1" 200 1 "-" '
                   f'"FooBot/1.0"\n')
    with audit_logs(log, site="https://example.com", robots=b"User-agent: *\nDisallow: /\n",
                    verify=False, format="vhost_combined") as audit:
        [row] = audit.table().to_pylist()
        assert row["verdict"] == "no-file" and audit.summary["totals"]["other_hosts"] == 1
        assert audit.violations == 0


STATUSES = [200, 304, 404, 403, 500, 503, 429, 301]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 48), max_size=3, unique=True),
       st.lists(st.tuples(st.integers(-5, 60), st.sampled_from(STATUSES)), max_size=25))
@example([1], [(0, 404), (0, 200), (2, 404)])  # a version between two alike answers: both count
@example([], [(0, 200), (9, 200), (1, 200), (9, 200), (0, 404)])  # not time order
def test_the_answers_left_out_change_no_state(hours: list[int],
                                               answers: list[tuple[int, int]]) -> None:
    """The job keeps only the log's robots.txt answers that may move the state: the state in
    force at every instant is the one all answers give (given in the log's order)."""
    import pyarrow.parquet as pq

    from robotsrules._audit._job import _Fetches

    history = History([Version(T0 + h * HOUR, parse(f"User-agent: *\nDisallow: /{h}\n"),
                               f"v{h}") for h in hours])
    every = [(T0 + h * HOUR, status) for h, status in answers]
    with tempfile.TemporaryDirectory() as folder:
        fetches = _Fetches(history, f"{folder}/fetches.parquet", pq.ParquetWriter)
        for number, (time, status) in enumerate(every):
            fetches.add("Bot" if number % 2 else "Googlebot", time, status)
        by_token, left_out = fetches.kept()
    for token, theirs in (("Googlebot", every[::2]), ("Bot", every[1::2])):
        check_kept(history, theirs, by_token.get(token, []), left_out)


def check_kept(history: History, every: list[tuple[datetime.datetime, int]],
               kept: list[tuple[datetime.datetime, int]], left_out: int) -> None:
    """One crawler's answers: the kept ones move its state as all of them do."""
    from robotsrules._audit._inforce import with_fetches

    assert left_out == 0 and len(kept) <= len(every)
    full, _ = with_fetches(history, every)
    lean, _ = with_fetches(history, kept)
    moments = {T0 + h * HOUR + d * SECOND for h in range(-6, 62) for d in (-1, 0, 1)}
    for moment in sorted(moments):
        a, b = full.at(moment), lean.at(moment)
        assert (a is None) == (b is None), moment
        if a is not None and b is not None:
            assert a.robots is b.robots or (a.robots is None and b.robots is None), moment
