"""Unit tests of cache/codec.py: entries round-trip exactly; anything else is a ValueError."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from collections.abc import Mapping, Sequence
from typing import Any, Optional

import pytest

from robotsrules import parse
from robotsrules.cache import codec
from robotsrules.cache.codec import decode, encode
from robotsrules.policy import Answer, Entry, FetchResult, Policy, Request, fetch_flow
from robotsrules.robotstxt import RobotsTxt

URL = "https://example.com/robots.txt"
BODY = b"User-agent: *\nDisallow: /private\nAllow: /private/ok\nSitemap: https://example.com/s.xml\n"


def drive(answers: Sequence[Answer], *, url: str = URL, now: float = 1_000.0,
          policy: Optional[Policy] = None) -> FetchResult:
    """Run the real fetch policy over canned answers, one per request."""
    flow = fetch_flow(url, now, policy or Policy())
    request: Request = next(flow)
    for answer in answers:
        assert isinstance(request, Request)
        try:
            request = flow.send(answer)
        except StopIteration as stop:
            result: FetchResult = stop.value
            return result
    raise AssertionError("the flow asked for more answers")


def answer(status: Optional[int] = 200, body: bytes = b"", *,
           headers: Optional[Mapping[str, str]] = None, truncated: bool = False,
           error: Optional[str] = None) -> Answer:
    return Answer(status=status, headers=dict(headers or {}), body=body, truncated=truncated,
                  error=error)


def round_trip(entry: Entry) -> Entry:
    decoded = decode(encode(entry))
    assert decoded == entry  # dataclass equality: every field, robots by RobotsTxt.__eq__
    for name in ("latest", "good"):
        before, after = getattr(entry, name), getattr(decoded, name)
        if before is not None:
            assert after.robots == before.robots
            assert after.robots.synthetic == before.robots.synthetic
            assert after.robots.truncated == before.robots.truncated
            assert after.robots.source == before.robots.source
            assert after.robots.sitemaps == before.robots.sitemaps
    assert decoded.unreachable_since == entry.unreachable_since
    return decoded


def test_the_codec_stores_every_fetch_result_field() -> None:
    names = {f.name for f in dataclasses.fields(FetchResult)}
    assert set(codec._FIELDS) | {"body", "cut", "synthetic", "mode"} == names


def test_ok_entry_round_trips_with_one_copy_of_the_body() -> None:
    result = drive([answer(200, BODY, headers={"Cache-Control": "max-age=600"})])
    entry = Entry.first(result)
    assert entry.good is entry.latest
    data = encode(entry)
    assert data.count(BODY) == 1  # "good": "latest", not a second copy
    decoded = round_trip(entry)
    assert decoded.latest.robots.groups == result.robots.groups
    assert decoded.latest.expires_at == 1_600.0
    assert not decoded.latest.robots.allowed("https://example.com/private/x", agent="Bot")
    assert decoded.latest.robots.allowed("https://example.com/private/ok", agent="Bot")
    assert decoded.latest.robots.sitemaps == ("https://example.com/s.xml",)


def test_unavailable_entry_round_trips_as_allow_all() -> None:
    result = drive([answer(404, b"<html>not found</html>")])
    assert result.outcome == "unavailable"
    decoded = round_trip(Entry.first(result))
    assert decoded.latest.robots.synthetic == "allow-all"
    assert decoded.latest.robots == RobotsTxt.allow_all()
    assert decoded.latest.error == "HTTP 404"
    assert decoded.latest.size == len(b"<html>not found</html>")


def test_unreachable_first_fetch_round_trips_with_unreachable_since() -> None:
    result = drive([answer(None, error="connection refused")], now=5_000.5)
    entry = Entry.first(result)
    assert entry.good is None and entry.unreachable_since == 5_000.5
    decoded = round_trip(entry)
    assert decoded.good is None
    assert decoded.latest.status is None
    assert decoded.latest.error == "connection refused"
    assert decoded.latest.robots == RobotsTxt.disallow_all()


def test_unreachable_after_ok_keeps_the_good_copy() -> None:
    good = drive([answer(200, BODY)], now=1_000.0)
    bad = drive([answer(503, b"busy", headers={"Retry-After": "120"})], now=90_000.0)
    entry = Entry.first(good).after(bad).after(
        drive([answer(500)], now=95_000.0))
    assert entry.good == good and entry.unreachable_since == 90_000.0
    decoded = round_trip(entry)
    assert decoded.good is not None and decoded.good.robots.source == BODY
    assert decoded.latest.outcome == "unreachable" and decoded.latest.status == 500


def test_two_different_bodies_come_back_in_their_places() -> None:
    first = drive([answer(200, b"User-agent: a\nDisallow: /a\n")], now=1.0)
    second = drive([answer(200, b"User-agent: b\nDisallow: /b\n")], now=2.0)
    entry = Entry(latest=second, good=first, unreachable_since=None)
    decoded = round_trip(entry)
    assert decoded.latest.robots.agents == ("b",)
    assert decoded.good is not None and decoded.good.robots.agents == ("a",)


def test_non_utf8_bom_nul_and_crlf_bodies_round_trip_octet_for_octet() -> None:
    body = (b"\xef\xbb\xbfUser-agent: *\r\nDisallow: /caf\xe9\r\nDisallow: /\xff\xfe\x00x\r\n"
            b"Allow: /\xe2\x82\xac\n\x80\x81 junk \xc3(\n")
    decoded = round_trip(Entry.first(drive([answer(200, body)])))
    assert decoded.latest.robots.source == body
    assert decoded.latest.robots.lines == parse(body).lines


def test_truncated_body_and_flags_round_trip() -> None:
    body = b"User-agent: *\nDisallow: /a\nDisallow: /b\n" * 10
    policy = Policy(max_bytes=30)
    result = drive([answer(200, body[:100], truncated=True)], policy=policy)
    assert result.truncated and result.robots.truncated
    assert result.robots.source == body[:30]
    decoded = round_trip(Entry.first(result))
    assert decoded.latest.truncated and decoded.latest.robots.truncated
    assert decoded.latest.size == 100
    # The transfer was cut but the parse was not: the two flags are kept apart.
    result = drive([answer(200, body[:20], truncated=True)])
    assert result.truncated and not result.robots.truncated
    decoded = round_trip(Entry.first(result))
    assert decoded.latest.truncated and not decoded.latest.robots.truncated


@pytest.mark.parametrize("mode", ["rfc", "legacy"])
def test_the_reading_mode_round_trips(mode: str) -> None:
    result = drive([answer(200, BODY)])
    robots = parse(BODY + b"\nUser-agent: Bot\nAllow: /%7Ea\n\nDisallow: /x\n", mode=mode)
    entry = Entry.first(result.with_robots(robots))
    decoded = round_trip(entry)
    assert decoded.latest.robots.mode == mode
    assert decoded.latest.robots.groups == robots.groups
    cut = parse(BODY, max_bytes=20, mode=mode)
    decoded = round_trip(Entry.first(result.with_robots(cut)))
    assert decoded.latest.robots.mode == mode and decoded.latest.robots.truncated


def test_an_unknown_mode_is_a_value_error() -> None:
    data = encode(Entry.first(drive([answer(200, BODY)]).with_robots(parse(BODY, mode="rfc"))))
    with pytest.raises(ValueError, match="mode"):
        decode(data.replace(b'"mode":"rfc"', b'"mode":"nope"'))


def test_redirects_forbidden_and_odd_numbers_round_trip() -> None:
    redirected = drive([
        answer(301, headers={"Location": "https://www.example.com/robots.txt"}),
        answer(302, headers={"Location": "/robots-ünïcode.txt?x=1"}),
        answer(200, BODY),
    ], now=1_700_000_000.123456)
    assert len(redirected.redirects) == 2
    round_trip(Entry.first(redirected))
    forbidden = drive([answer(403)], policy=Policy.legacy())
    assert forbidden.outcome == "forbidden"
    round_trip(Entry.first(forbidden))
    empty = drive([answer(200, b"")])
    round_trip(Entry.first(empty))
    odd = dataclasses.replace(redirected, fetched_at=0.1 + 0.2, expires_at=float("inf"))
    round_trip(Entry(latest=odd, good=None, unreachable_since=-1e-300))


def test_a_robots_that_only_looks_synthetic_keeps_its_body() -> None:
    fake = parse(b"User-agent: *\nDisallow: /only-this\n", synthetic="disallow-all")
    result = drive([answer(200, BODY)]).with_robots(fake)
    decoded = round_trip(Entry.first(result))
    assert decoded.latest.robots.allowed("/elsewhere", agent="Bot")


# -- corrupt data ----------------------------------------------------------------------

def sample() -> bytes:
    good = drive([answer(200, BODY)], now=1.0)
    return encode(Entry.first(good).after(drive([answer(503)], now=2.0)))


def header_and_body(data: bytes) -> tuple[dict[str, Any], bytes]:
    head, _, rest = data.partition(b"\n")
    header: dict[str, Any] = json.loads(head)
    return header, rest


def rebuild(header: object, body: bytes) -> bytes:
    return json.dumps(header).encode() + b"\n" + body


@pytest.mark.parametrize("data", [
    b"", b"\n", b"garbage", b"garbage\n", b"{}\n", b"[]\n", b"null\n", b"\xff\xfe\n",
    b'{"format": "robotsrules.entry"}\n',
])
def test_garbage_is_a_value_error(data: bytes) -> None:
    with pytest.raises(ValueError):
        decode(data)


def test_unknown_version_is_a_value_error_naming_it() -> None:
    header, body = header_and_body(sample())
    for version in (2, 0, "1", True, None, 1.5):
        header["version"] = version
        with pytest.raises(ValueError, match="version"):
            decode(rebuild(header, body))


def test_every_cut_and_any_extra_octet_is_a_value_error() -> None:
    data = sample()
    decode(data)
    for end in range(len(data)):
        with pytest.raises(ValueError):
            decode(data[:end])
    with pytest.raises(ValueError, match="trailing"):
        decode(data + b"x")


@pytest.mark.parametrize("path, value", [
    (("latest", "status"), "503"),
    (("latest", "status"), True),
    (("latest", "size"), -1),
    (("latest", "fetched_at"), "yesterday"),
    (("latest", "redirects"), "https://x/"),
    (("latest", "redirects"), [1]),
    (("latest", "truncated"), 0),
    (("latest", "url"), None),
    (("latest", "robots"), {"kind": "pickle"}),
    (("latest", "robots"), {"kind": ["parsed"]}),
    (("latest", "robots"), None),
    (("latest",), None),
    (("good",), "good"),
    (("good",), []),
    (("good", "robots", "length"), 10**9),
    (("good", "robots", "truncated"), "no"),
    (("unreachable_since",), "then"),
])
def test_wrong_types_are_value_errors(path: tuple[str, ...], value: object) -> None:
    header, body = header_and_body(sample())
    node: Any = header
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(ValueError):
        decode(rebuild(header, body))


def test_missing_field_is_a_value_error() -> None:
    header, body = header_and_body(sample())
    del header["good"]["expires_at"]
    with pytest.raises(ValueError, match="expires_at"):
        decode(rebuild(header, body))


def test_a_pickle_is_refused_not_run() -> None:
    entry = Entry.first(drive([answer(200, BODY)]))
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        with pytest.raises(ValueError):
            decode(pickle.dumps(entry, protocol=protocol))


def test_random_damage_gives_an_entry_or_a_value_error_never_anything_else() -> None:
    data = sample()
    rng = random.Random(9309)
    for _ in range(2_000):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        try:
            entry = decode(bytes(damaged))
        except ValueError:
            continue
        assert isinstance(entry, Entry)


def test_decode_wants_bytes() -> None:
    with pytest.raises(TypeError):
        decode(sample().decode("latin-1"))  # type: ignore[arg-type]


# -- tampered entries: checked before anything is built (issue 13, finding 13) -------------

def test_deep_nesting_is_refused_before_the_json_parser_recurses() -> None:
    data = (b'{"format":"robotsrules.entry","version":1,"latest":'
            + b"[" * 100_000 + b"]" * 100_000 + b"}\n")
    with pytest.raises(ValueError, match="nested"):
        decode(data)
    header, body = header_and_body(sample())
    header["latest"]["redirects"] = [[[["x"]]]]  # five deep: still refused by the scan
    with pytest.raises(ValueError, match="nested"):
        decode(rebuild(header, body))


@pytest.mark.parametrize("field, digits", [("size", "9" * 4000), ("fetched_at", "9" * 400),
                                           ("status", "1" + "0" * 19)])
def test_long_numbers_are_refused_unparsed(field: str, digits: str) -> None:
    header, body = header_and_body(sample())
    header["latest"][field] = 0
    data = rebuild(header, body).replace(f'"{field}": 0'.encode(), f'"{field}": {digits}'.encode())
    with pytest.raises(ValueError, match="digits"):
        decode(data)


@pytest.mark.parametrize("field, value", [("size", 2**53 + 1), ("status", 10**19 - 1),
                                          ("fetched_at", 10**19 - 1), ("expires_at", -(2**60))])
def test_numbers_out_of_range_are_refused(field: str, value: int) -> None:
    header, body = header_and_body(sample())
    header["latest"][field] = value
    with pytest.raises(ValueError, match="range"):
        decode(rebuild(header, body))


@pytest.mark.parametrize("outcome", ["great", "OK", "", 200])
def test_an_unknown_outcome_is_refused(outcome: object) -> None:
    header, body = header_and_body(sample())
    header["latest"]["outcome"] = outcome
    with pytest.raises(ValueError, match="outcome"):
        decode(rebuild(header, body))


def test_a_good_copy_that_is_a_failure_is_refused() -> None:
    header, body = header_and_body(sample())
    header["good"]["outcome"] = "unreachable"
    with pytest.raises(ValueError, match="good copy"):
        decode(rebuild(header, body))


def test_an_oversized_header_is_refused() -> None:
    header, body = header_and_body(sample())
    header["latest"]["error"] = "x" * codec.MAX_HEADER
    with pytest.raises(ValueError, match="header"):
        decode(rebuild(header, body))


def test_long_redirect_urls_still_round_trip() -> None:
    long = "https://example.com/" + "a" * 16_000
    result = drive([answer(301, headers={"Location": long + str(n)}) for n in range(5)]
                   + [answer(200, BODY)])
    assert len(result.redirects) == 5
    round_trip(Entry(latest=result, good=dataclasses.replace(result, fetched_at=1.0)))
