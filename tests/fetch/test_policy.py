"""The sans-I/O fetch policy with time passed in: outcomes, redirects, freshness, 30 days."""

from __future__ import annotations

from typing import Optional

import pytest

from robotsrules.policy import (
    DAY,
    FORBIDDEN,
    OK,
    UNAVAILABLE,
    UNREACHABLE,
    Answer,
    Entry,
    FetchResult,
    Policy,
    effective,
    fetch_flow,
    lifetime,
    outcome_for_status,
)

NOW = 1_700_000_000.0
ROBOTS = "http://a.example/robots.txt"
BODY = b"User-agent: *\nDisallow: /private\n"


DEFAULT = Policy()


def run(answers: list[Answer], now: float = NOW, policy: Policy = DEFAULT) -> FetchResult:
    """Drive fetch_flow with canned answers; check it asked for what we expect."""
    flow = fetch_flow(ROBOTS, now, policy)
    request = next(flow)
    assert request.url == ROBOTS
    for answer in answers:
        try:
            request = flow.send(answer)
        except StopIteration as stop:
            result: FetchResult = stop.value
            return result
    raise AssertionError(f"flow still asks for {request.url}")


def redirect(to: str, status: int = 301) -> Answer:
    return Answer(status=status, headers={"Location": to})


@pytest.mark.parametrize(
    ("status", "outcome"),
    [(200, OK), (204, OK), (299, OK), (400, UNAVAILABLE), (401, UNAVAILABLE),
     (403, UNAVAILABLE), (404, UNAVAILABLE), (410, UNAVAILABLE), (451, UNAVAILABLE),
     (429, UNREACHABLE), (500, UNREACHABLE), (503, UNREACHABLE), (599, UNREACHABLE),
     (100, UNREACHABLE), (304, UNAVAILABLE), (600, UNREACHABLE)],
)
def test_status_outcomes(status: int, outcome: str) -> None:
    assert outcome_for_status(status) == outcome


def test_legacy_auth_option() -> None:
    legacy = Policy.legacy()
    assert outcome_for_status(401, legacy) == FORBIDDEN == outcome_for_status(403, legacy)
    assert outcome_for_status(404, legacy) == UNAVAILABLE
    assert legacy.default_lifetime == 7 * DAY
    result = run([Answer(status=403)], policy=legacy)
    assert not result.robots.allowed("/x", agent="a")


def test_ok_parses_body_and_defaults_to_24_hours() -> None:
    result = run([Answer(status=200, body=BODY)])
    assert result.outcome == OK and result.error is None
    assert not result.robots.allowed("/private", agent="a")
    assert result.expires_at - result.fetched_at == DAY
    assert result.is_fresh(NOW + DAY - 1) and not result.is_fresh(NOW + DAY)


def test_unavailable_allows_and_unreachable_disallows() -> None:
    assert run([Answer(status=404)]).robots.allowed("/x", agent="a")
    down = run([Answer(status=503)])
    assert down.outcome == UNREACHABLE and not down.robots.allowed("/x", agent="a")
    assert down.expires_at - down.fetched_at == Policy().retry_after
    error = run([Answer(error="connection refused")])
    assert error.outcome == UNREACHABLE and error.error == "connection refused"


def test_five_redirects_followed_six_are_unavailable() -> None:
    hops = [f"http://h{i}.example/robots.txt" for i in range(6)]
    five = run([redirect(h) for h in hops[:5]] + [Answer(status=200, body=BODY)])
    assert five.outcome == OK and five.redirects == tuple(hops[:5])
    assert five.final_url == hops[4] and five.url == ROBOTS
    six = run([redirect(h) for h in hops])
    assert six.outcome == UNAVAILABLE and "more than 5" in (six.error or "")


def test_redirect_loops_bad_targets_and_missing_location() -> None:
    loop = run([redirect("http://b.example/r"), redirect(ROBOTS)])
    assert loop.outcome == UNAVAILABLE and "loop" in (loop.error or "")
    bad = run([redirect("javascript:alert(1)")])
    assert bad.outcome == UNAVAILABLE
    mailto = run([redirect("mailto:x@y")])
    assert mailto.outcome == UNAVAILABLE
    none = run([Answer(status=302)])
    assert none.outcome == UNAVAILABLE and "Location" in (none.error or "")
    relative = run([redirect("/elsewhere.txt", 307), Answer(status=200, body=BODY)])
    assert relative.final_url == "http://a.example/elsewhere.txt"
    ftp = run([redirect("ftp://f.example/robots.txt"), Answer(status=200, body=BODY)])
    assert ftp.outcome == OK


def headers(**items: str) -> dict[str, str]:
    return {k.replace("_", "-"): v for k, v in items.items()}


@pytest.mark.parametrize(
    ("control", "expected"),
    [("max-age=120", 120.0), ("public, max-age=3600", 3600.0), ("max-age=0", 60.0),
     ("max-age=999999999", 7 * DAY), ("no-store", 60.0), ("no-cache", 60.0),
     ("private", DAY), ("s-maxage=600", 600.0), ('max-age="300"', 300.0)],
)
def test_cache_control_lifetimes(control: str, expected: float) -> None:
    assert lifetime(OK, headers(Cache_Control=control), NOW) == expected
    assert lifetime(UNAVAILABLE, {"cache-control": control}, NOW) == expected


def test_retry_after_for_unreachable() -> None:
    assert lifetime(UNREACHABLE, {"Retry-After": "120"}, NOW) == 120.0
    assert lifetime(UNREACHABLE, {"Retry-After": "Tue, 14 Nov 2023 22:33:20 GMT"}, NOW) == 1200.0
    assert lifetime(UNREACHABLE, {"Retry-After": "soon"}, NOW) == Policy().retry_after
    assert lifetime(UNREACHABLE, {}, NOW, Policy(retry_after=5)) == 60.0  # min_lifetime


def good(at: float) -> FetchResult:
    return run([Answer(status=200, body=BODY)], now=at)


def down(at: float) -> FetchResult:
    return run([Answer(status=503)], now=at)


def test_fresh_then_stale() -> None:
    entry = Entry.first(good(NOW))
    assert effective(entry, NOW + 10).reason == "fresh"
    stale = effective(entry, NOW + 2 * DAY)
    assert stale.reason == "stale" and not stale.robots.allowed("/private", agent="a")


@pytest.mark.parametrize("days", [1, 29, 31, 365])
def test_unreachable_with_a_cached_copy_keeps_serving_it(days: int) -> None:
    entry = Entry.first(good(NOW)).after(down(NOW + DAY)).after(down(NOW + days * DAY))
    served = effective(entry, NOW + days * DAY + 1)
    assert served.reason == "last-good-copy"
    assert not served.robots.allowed("/private", agent="a")
    assert served.robots.allowed("/public", agent="a")
    assert entry.unreachable_since == NOW + DAY


@pytest.mark.parametrize(("days", "allowed", "reason"),
                         [(0, False, "unreachable"), (29, False, "unreachable"),
                          (31, True, "30-days")])
def test_unreachable_without_a_copy_disallows_then_allows_after_30_days(
    days: int, allowed: bool, reason: str
) -> None:
    entry = Entry.first(down(NOW))
    later: Optional[float] = None
    for day in range(1, days + 1):
        later = NOW + day * DAY
        entry = entry.after(down(later))
    served = effective(entry, (later or NOW) + 1)
    assert served.reason == reason
    assert served.robots.allowed("/anything", agent="a") is allowed


def test_a_good_answer_ends_the_unreachable_streak() -> None:
    entry = Entry.first(down(NOW)).after(good(NOW + 40 * DAY))
    assert entry.unreachable_since is None and entry.good is entry.latest
    entry = entry.after(down(NOW + 41 * DAY))
    assert entry.unreachable_since == NOW + 41 * DAY
    assert effective(entry, NOW + 41 * DAY).reason == "last-good-copy"


def test_unavailable_is_a_good_answer_too() -> None:
    entry = Entry.first(run([Answer(status=404)])).after(down(NOW + 2 * DAY))
    assert effective(entry, NOW + 2 * DAY).robots.allowed("/x", agent="a")


def test_body_is_cut_at_max_bytes() -> None:
    body = b"User-agent: *\n" + b"#" * 600 + b"\nDisallow: /\n"
    result = run([Answer(status=200, body=body)], policy=Policy(max_bytes=100))
    assert result.robots.allowed("/x", agent="a")
