"""FetchResult keeps the body it read and reads its rules on first use (issue 34 §5): the
rules are those parse() gave when fetched; a TDMRep file or a licence document is read by
its own reader and never parsed as a robots.txt, neither when fetched nor when a store is
read; the result stays immutable, picklable and safe to share between threads."""

from __future__ import annotations

import dataclasses
import pickle
import threading
from typing import Optional

import pytest

from robotsrules._page import tdmrep_from
from robotsrules._rsl import license_from
from robotsrules.cache.codec import decode, encode
from robotsrules.policy import Answer, Entry, FetchResult, Policy, effective, fetch_flow
from robotsrules.robotstxt import RobotsTxt, parse

NOW = 1_000_000.0
ROBOTS = b"\xef\xbb\xbfUser-agent: *\r\nDisallow: /private\r\nSitemap: https://a.test/s.xml\r\n"


def fetched(body: bytes, status: Optional[int] = 200, *, url: str = "https://a.test/robots.txt",
            policy: Optional[Policy] = None, truncated: bool = False) -> FetchResult:
    flow = fetch_flow(url, NOW, policy or Policy())
    next(flow)
    try:
        flow.send(Answer(status=status, body=body, truncated=truncated,
                         error=None if status is not None else "connection refused"))
    except StopIteration as stop:
        result: FetchResult = stop.value
        return result
    raise AssertionError("a redirect")


def parsed(result: FetchResult) -> bool:
    """Whether the result's rules have been read (kept once read; see FetchResult.robots)."""
    return "robots" in result.__dict__


@pytest.mark.parametrize("max_bytes", [10, 30, 50, 80, 10_000])
def test_the_rules_read_on_first_use_are_those_parse_gives(max_bytes: int) -> None:
    result = fetched(ROBOTS, policy=Policy(max_bytes=max_bytes))
    assert not parsed(result)
    eager = parse(ROBOTS, max_bytes=max_bytes)
    assert result.robots == eager  # source, truncated, synthetic and mode
    assert result.robots.groups == eager.groups and result.robots.sitemaps == eager.sitemaps
    assert result.cut == eager.truncated and result.body == eager.source
    assert result.robots is result.robots  # read once, then kept


@pytest.mark.parametrize(("status", "rules"), [(404, RobotsTxt.allow_all()),
                                               (503, RobotsTxt.disallow_all()),
                                               (None, RobotsTxt.disallow_all())])
def test_an_outcome_without_a_file_keeps_no_body(status: Optional[int],
                                                 rules: RobotsTxt) -> None:
    result = fetched(b"<html>an error page</html>", status)
    assert result.body == b"" and result.synthetic == rules.synthetic
    assert result.robots == rules
    assert decode(encode(Entry.first(result))).latest.robots == rules


@pytest.mark.parametrize("kind", ["tdmrep", "license"])
def test_a_tdmrep_file_or_licence_is_never_read_as_robots_txt(kind: str) -> None:
    if kind == "tdmrep":
        body = b'[{"location": "/private/*", "tdm-reservation": 1}]'
        url = "https://a.test/.well-known/tdmrep.json"
    else:
        body = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>'
                b'<permits type="usage">search</permits></license></content></rsl>')
        url = "https://l.test/terms.xml"
    entry = Entry.first(fetched(body, url=url))
    for held in (entry, decode(encode(entry))):  # as fetched, and as a store gives it back
        served = effective(held, NOW)
        if kind == "tdmrep":
            assert tdmrep_from(served).reservation("https://a.test/private/x") == 1
        else:
            document = license_from(served, url, origin="https://a.test")
            assert document.license_for("https://a.test/x").status("search") == "permitted"
        assert served.body == body and served.synthetic is None
        assert not parsed(held.latest)


def test_the_30_day_rule_serves_allow_all_from_no_file() -> None:
    entry = Entry.first(fetched(b"", None))
    served = effective(entry, NOW + 31 * 86_400.0)
    assert served.reason == "30-days" and served.copy is None
    assert served.synthetic == "allow-all" and served.body == b"" and not served.cut
    assert served.robots == RobotsTxt.allow_all() and served.robots is served.robots
    assert tdmrep_from(served).state == "absent"


def test_a_result_is_immutable_and_pickles_without_its_parsed_rules() -> None:
    result = fetched(ROBOTS * 200)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.body = b""  # type: ignore[misc]
    assert result.robots.allowed("https://a.test/private", agent="Bot") is False
    data = pickle.dumps(result)
    assert len(data) < 1.5 * len(result.body)  # the body once, not also the rules' source
    back = pickle.loads(data)
    assert back == result and not parsed(back)
    assert back.robots == result.robots
    assert hash(back) == hash(result)


def test_threads_reading_the_rules_at_once_get_one_object() -> None:
    result = fetched(ROBOTS * 500)
    barrier = threading.Barrier(8)
    seen: list[RobotsTxt] = []

    def read() -> None:
        barrier.wait()
        seen.append(result.robots)

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == 8 and all(robots is seen[0] for robots in seen)


def test_with_robots_keeps_the_rules_given() -> None:
    result = fetched(ROBOTS)
    legacy = parse(b"User-agent: *\nDisallow: /x\n", mode="legacy")
    made = result.with_robots(legacy)
    assert made.robots is legacy and made.mode == "legacy" and made.body == legacy.source
    assert decode(encode(Entry.first(made))).latest.robots == legacy
    plain = result.with_robots(RobotsTxt.disallow_all())
    assert plain.body == b"" and plain.synthetic == "disallow-all"
    assert pickle.loads(pickle.dumps(plain)).robots == RobotsTxt.disallow_all()


def test_an_unknown_mode_or_synthetic_kind_is_refused() -> None:
    result = fetched(ROBOTS)
    with pytest.raises(ValueError, match="mode"):
        dataclasses.replace(result, mode="strict")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="synthetic"):
        dataclasses.replace(result, synthetic="allow-some")  # type: ignore[arg-type]
