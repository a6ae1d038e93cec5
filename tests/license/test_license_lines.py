"""The robots.txt ``License:`` line (RSL 1.0 §4.4): read beside Sitemap, global (every
line for every agent: issue 33's decision), never a verdict."""

from __future__ import annotations

import pickle

import pytest

import robotsrules
from robotsrules import InvalidAgent

# RSL 1.0 §4.4 example: per-bot licensing.
PER_BOT = (b"User-agent: ExampleBot\nAllow: /\nLicense: https://example.com/examplebot-license.xml\n"
           b"\nUser-agent: *\nAllow: /\nLicense: https://example.com/default-license.xml\n")


@pytest.mark.parametrize("mode", ["google", "rfc", "legacy"])
def test_decision_every_license_line_applies_to_every_agent(mode: str) -> None:
    # Issue 33's decision (SPEC 5a): the directive is global (rslstandard.org's robots.txt
    # guide), and the restrictive reading: a licence placed in ExampleBot's group still
    # binds OtherBot, and ExampleBot is bound by the one in the * group too.
    robots = robotsrules.parse(PER_BOT, mode=mode)  # type: ignore[arg-type]
    both = ("https://example.com/examplebot-license.xml",
            "https://example.com/default-license.xml")
    assert robots.licenses == both
    for agent in ("ExampleBot/2.0", "OtherBot", "*", ["ExampleBot", "GPTBot"]):
        assert robots.license_urls(agent) == both  # type: ignore[arg-type]


def test_site_wide_and_group_lines_alike() -> None:
    robots = robotsrules.parse(b"License: https://a.example/site.xml\n"
                               b"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /x\n"
                               b"License: https://a.example/ai.xml\n"
                               b"User-agent: Googlebot\nDisallow:\n"
                               b"User-agent: CCBot\nDisallow: /y\n"
                               b"\nLicense: https://a.example/last.xml\n")
    every = ("https://a.example/site.xml", "https://a.example/ai.xml",
             "https://a.example/last.xml")
    for agent in ("GPTBot", "CCBot", "Googlebot", "NoGroupBot"):
        assert robots.license_urls(agent) == every


def test_values_are_kept_as_written_and_never_change_verdicts() -> None:
    body = "License: https://例え.jp/ライセンス.xml\nLicense:\nUser-agent: *\nDisallow: /a\n"
    robots = robotsrules.parse(body.encode())
    assert robots.licenses == ("https://例え.jp/ライセンス.xml",)
    without = robotsrules.parse(b"User-agent: *\nDisallow: /a\n")
    for url in ("/a", "/b", "/ライセンス.xml"):
        assert robots.allowed(url, agent="x") == without.allowed(url, agent="x")
    again = pickle.loads(pickle.dumps(robots))
    assert again.licenses == robots.licenses
    line = next(line for line in robots.lines if line.number == 2)
    assert (line.key, line.used, line.reason) == ("license", False, "empty-value")


def test_the_key_is_read_whole_and_case_insensitively() -> None:
    robots = robotsrules.parse(b"LICENSE: https://a.example/1.xml\nlicense : https://a.example/2.xml\n"
                               b"Licence: https://a.example/3.xml\nLicenses: https://a.example/4.xml\n")
    assert robots.licenses == ("https://a.example/1.xml", "https://a.example/2.xml")


def test_an_invalid_agent_is_the_callers_mistake() -> None:
    with pytest.raises(InvalidAgent):
        robotsrules.parse(b"User-agent: *\n").license_urls("not a token")
    assert robotsrules.RobotsTxt.allow_all().license_urls("Bot") == ()
