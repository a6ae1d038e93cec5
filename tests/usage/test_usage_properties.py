"""Property tests: usage-preference lines never change a crawl verdict, never raise.

Invariant: inserting or deleting ``Content-Signal``/``Content-Usage`` lines anywhere in a
file leaves every allow/disallow verdict (and deciding line number, lines renumbered)
unchanged; the usage answers are stable (the same file gives the same answers) and
``usage(...).crawl_allowed`` always equals ``allowed``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import robotsrules
from robotsrules._tables._purposes import PURPOSES
from tests.oracle import AVAILABLE, oracle
from tests.property.test_properties import robots_lines

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

USAGE_KEYS = ["Content-Signal", "content-signal", "Content-Signals", "Content-Usage",
              "content_usage", "CONTENT-USAGE", "Content Signal"]
USAGE_VALUES = [
    "search=yes, ai-train=no", "ai-input=yes", "/ train-ai=n", "/a train-ai=y, search=n",
    "/*.pdf$ train-ai=n", "train-ai=n", "/ bots=n", "garbage ((", "", "/", "/ a=(1 2)",
    "ai-train=no, ai-train=yes", "/ train-ai=n # c", "\u00e9=n",
]
URLS = ["/", "/a", "/a/b", "/b", "/x.pdf", "/robots.txt", "/ab?c", "/%7Ea"]
AGENTS = ["a", "b", "A", "ab", "x", ["a", "b"]]


@st.composite
def usage_line(draw: st.DrawFn) -> str:
    key = draw(st.sampled_from(USAGE_KEYS))
    sep = draw(st.sampled_from([": ", ":", " : ", " "]))
    return key + sep + draw(st.sampled_from(USAGE_VALUES))


def _verdicts(body: bytes) -> list[object]:
    robots = robotsrules.parse(body)
    out: list[object] = []
    for agent in AGENTS:
        for url in URLS:
            verdict = robots.explain(url, agent=agent)
            out.append((verdict.allowed, verdict.rule.value if verdict.rule else None,
                        verdict.reason))
    return out


def _insert(body: bytes, extra: list[str], positions: list[int]) -> bytes:
    lines = body.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    for text, at in zip(extra, positions):
        lines.insert(at % (len(lines) + 1), text.encode("utf-8"))
    return b"\n".join(lines)


@SETTINGS
@given(robots_lines(), st.lists(usage_line(), min_size=1, max_size=5),
       st.lists(st.integers(0, 40), min_size=5, max_size=5))
def test_adding_usage_lines_never_changes_a_verdict(
        body: bytes, extra: list[str], positions: list[int]) -> None:
    plain = body.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if plain.startswith(b"\xef\xbb\xbf"):
        plain = plain[3:]
    with_usage = _insert(plain, extra, positions)
    assert _verdicts(plain) == _verdicts(with_usage)
    robots = robotsrules.parse(with_usage)
    for agent in AGENTS:
        for url in URLS:
            usage = robots.usage(url, agent=agent)
            assert usage.crawl_allowed is robots.allowed(url, agent=agent)
            if url == "/a":
                assert robotsrules.parse(with_usage).usage(url, agent=agent) == usage
            for purpose in PURPOSES:
                assert usage.allows(purpose) in (True, False, None)
            if not usage.crawl_allowed:
                assert usage.preferences == {} and usage.lines == ()
    if AVAILABLE:
        for url in URLS:
            assert oracle(with_usage, "a", url)[0] is robots.allowed(url, agent="a")


@SETTINGS
@given(robots_lines())
def test_removing_usage_lines_never_changes_a_verdict(body: bytes) -> None:
    with_usage = _insert(body.replace(b"\r\n", b"\n").replace(b"\r", b"\n").lstrip(b"\xef\xbb\xbf"),
                         ["Content-Signal: ai-train=no", "Content-Usage: / search=y"], [1, 3])
    parsed = robotsrules.parse(with_usage)
    drop = {ln.number for ln in parsed.lines if ln.key in ("content-signal", "content-usage")}
    assert len(drop) == 2
    lines = with_usage.split(b"\n")
    without = b"\n".join(line for number, line in enumerate(lines, 1) if number not in drop)
    assert _verdicts(without) == _verdicts(with_usage)


@SETTINGS
@given(st.binary(max_size=600), st.sampled_from(URLS))
def test_usage_never_raises(body: bytes, url: str) -> None:
    body = b"User-agent: *\nContent-Usage: /" + body + b"\nContent-Signal: " + body[::-1]
    robots = robotsrules.parse(body)
    assert isinstance(robots.usage(url, agent="a").preferences, dict)
    robots.explain(url, agent="a")
    for mode in ("rfc", "legacy"):
        robotsrules.parse(body, mode=mode).usage(url, agent="a")
