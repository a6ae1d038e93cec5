"""The robots.txt ``License:`` line (RSL 1.0 §4.4): read beside Sitemap, scoped per §4.4.2,
never a verdict."""

from __future__ import annotations

import pickle

import pytest

import robotsrules
from robotsrules import InvalidAgent

# RSL 1.0 §4.4 example: per-bot licensing.
PER_BOT = (b"User-agent: ExampleBot\nAllow: /\nLicense: https://example.com/examplebot-license.xml\n"
           b"\nUser-agent: *\nAllow: /\nLicense: https://example.com/default-license.xml\n")


@pytest.mark.parametrize("mode", ["google", "rfc", "legacy"])
def test_rsl_4_4_per_bot_licensing(mode: str) -> None:
    robots = robotsrules.parse(PER_BOT, mode=mode)  # type: ignore[arg-type]
    assert robots.licenses == ("https://example.com/examplebot-license.xml",
                               "https://example.com/default-license.xml")
    assert robots.license_urls("ExampleBot/2.0") == ("https://example.com/examplebot-license.xml",)
    assert robots.license_urls("OtherBot") == ("https://example.com/default-license.xml",)
    assert robots.license_urls("*") == ("https://example.com/default-license.xml",)


def test_site_wide_lines_apply_only_where_the_group_has_none() -> None:
    robots = robotsrules.parse(b"License: https://a.example/site.xml\n"
                               b"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /x\n"
                               b"License: https://a.example/ai.xml\n"
                               b"User-agent: Googlebot\nDisallow:\n"
                               b"User-agent: CCBot\nDisallow: /y\n")
    assert robots.license_urls("GPTBot") == ("https://a.example/ai.xml",)
    assert robots.license_urls("CCBot") == ("https://a.example/ai.xml",)  # groups merged
    assert robots.license_urls("Googlebot") == ("https://a.example/site.xml",)
    assert robots.license_urls("NoGroupBot") == ("https://a.example/site.xml",)  # no * group
    assert robots.license_urls(["Googlebot", "GPTBot"]) == ("https://a.example/ai.xml",)


def test_a_line_after_the_last_group_belongs_to_it() -> None:
    # RFC 9309 §2.1: only a user-agent line ends a group; a blank line does not.
    robots = robotsrules.parse(b"User-agent: *\nDisallow: /private\n\n"
                               b"License: https://a.example/l.xml\n"
                               b"User-agent: GPTBot\nDisallow: /\n")
    assert robots.license_urls("CCBot") == ("https://a.example/l.xml",)
    assert robots.license_urls("GPTBot") == ()


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
