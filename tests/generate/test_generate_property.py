"""The generated file reads exactly as chosen: a property over random choices (issue 40).

Tokens (some inside others, as ``Googlebot`` is in ``Googlebot-News``), registry
categories, paths with ``$``, ``[``, ``|``, ``^``, spaces and non-ASCII characters (sample
URLs in the percent-encoded spelling and in the one a browser sends), usage values,
crawl delays, and an owner's existing file are drawn; for every agent and sample URL the
verdict of our reader in Google's, RFC 9309's and the legacy reading, and of Google's own
library through the oracle (tests/oracle.py), must equal what the choices say. The
expected verdicts are computed here from the drawn choices alone (prefixes of the paths
as a crawler requests them), not by the generator's own check.
"""

from __future__ import annotations

from typing import Any, Optional
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from robotsrules import AgentChoice, GenerateError, GeneratePolicy, generate, parse
from robotsrules._tables._crawlers import category_tokens, registry
from tests.oracle import AVAILABLE, oracle

MODES = ("google", "rfc", "legacy")
STAND_IN = "Unnamed-Stand-In"  # a crawler no group names (for Google's library: '*' is no token)
TOKENS = ("Googlebot", "Googlebot-News", "GPTBot", "bot", "ClaudeBot", "Claude", "Bingbot",
          "CCBot", "ia_archiver", "Applebot-Extended", "Applebot")
CATEGORIES = ("search", "ai-search", "user-triggered", "other")
SAFE = "-._~!&'()+,;=:@/?"  # kept as written in the rules (RFC 3986), '$' and '*' escaped
RAW = "$[]|^"  # what a browser sends as it is (WHATWG path percent-encode set) but SAFE is not

paths = st.builds(lambda parts: "/" + "/".join(parts), st.lists(
    st.text(alphabet="ab$[|^ é/?xZ-", min_size=1, max_size=6).filter(
        lambda s: "index.htm" not in s), min_size=1, max_size=3)).filter(
    lambda p: not p.endswith(("?", "$")) and not p.startswith("//"))  # all refused: legacy
# reading; a '$' at the end (or a '*') makes a pattern, refused as urllib reads it as text
tokens = st.one_of(st.sampled_from(TOKENS), st.from_regex(r"[A-Za-z][A-Za-z_-]{2,9}",
                                                          fullmatch=True))
choices = st.one_of(
    st.sampled_from([AgentChoice("block"), AgentChoice("allow"), AgentChoice("block-paths")]),
    st.builds(AgentChoice, st.just("block-paths"), st.lists(paths, max_size=3).map(tuple)),
    st.builds(AgentChoice, st.just("allow-paths"),
              st.lists(paths, min_size=1, max_size=3).map(tuple)))
usages = st.dictionaries(st.sampled_from(["ai-train", "search", "ai-input"]), st.booleans(),
                         max_size=3)
policies = st.builds(
    lambda agents, categories, site, usage, delays: GeneratePolicy(
        agents=tuple(agents.items()), categories=tuple(categories.items()),
        disallow_paths=tuple(site), usage=tuple(usage.items()),
        crawl_delays=tuple(delays.items())),
    st.dictionaries(tokens, choices, max_size=5, dict_class=dict).filter(
        lambda d: len({k.lower() for k in d}) == len(d) and STAND_IN.lower() not in
        {k.lower() for k in d}),
    st.dictionaries(st.sampled_from(CATEGORIES), st.sampled_from(
        [AgentChoice("block"), AgentChoice("allow")]), max_size=1),
    st.lists(st.one_of(paths, st.sampled_from(["/p/", "/a", "/ab/"])), max_size=3),
    usages,
    st.dictionaries(st.sampled_from(["Bingbot", "CCBot"]), st.integers(1, 30), max_size=1))

# An owner's file: groups for some tokens, comments, a '*' group; drawn from pieces.
owner_groups = st.lists(st.tuples(
    st.lists(st.sampled_from([*TOKENS, "*", "Slurp"]), min_size=1, max_size=2, unique=True),
    st.lists(st.tuples(st.sampled_from(["Allow", "Disallow"]),
                       st.sampled_from(["/", "/a", "/ab/", "/private", "/x$", "/*.pdf",
                                        "/*.html", "/*b$", "/a*"])),
             min_size=1, max_size=3)), min_size=1, max_size=3)


def _owner_file(groups: list[Any]) -> str:
    lines = ["# the owner's own file", ""]
    for agents, rules in groups:
        lines.append("# a group the owner wrote")
        lines += [f"User-agent: {agent}" for agent in agents]
        lines += [f"{key}: {value}" for key, value in rules]
        lines.append("")
    return "\n".join(lines)


def _canonical(path: str) -> str:
    return quote(path, safe=SAFE)


def _one_spelling(url: str) -> str:
    """A URL path with the characters of RAW escaped, as the rules name them."""
    return "".join(quote(c, safe="") if c in RAW else c for c in url)


def _choice_for(policy: GeneratePolicy, token: str) -> Optional[AgentChoice]:
    key = token.lower()
    for name, choice in policy.agents:
        if name.lower() == key:
            return choice
    found = [choice for name, choice in policy.categories
             if key in {t.lower() for t in category_tokens(name)}]
    if found:
        return AgentChoice("block") if AgentChoice("block") in found else found[0]
    if key in {name.lower() for name, _ in policy.crawl_delays}:
        return _choice_for(policy, "*") or AgentChoice("block-paths")
    return None


def _expected(policy: GeneratePolicy, token: str, url: str, before: bool) -> bool:
    site = [_canonical(p) for p in policy.disallow_paths]
    choice = _choice_for(policy, token)
    url = _one_spelling(url)  # Google's reader sees two spellings; a crawler means one path
    if choice is None:
        return before and not any(url.startswith(p) for p in site)
    own = [_canonical(p) for p in choice.paths]
    if choice.action == "block":
        return False
    if choice.action == "allow":
        return True
    if choice.action == "allow-paths":
        return any(url.startswith(p) for p in own)
    return not any(url.startswith(p) for p in (*site, *own))


def _urls(policy: GeneratePolicy) -> list[str]:
    every = [*policy.disallow_paths, *(p for _, c in policy.agents for p in c.paths)]
    # URLs as a crawler requests them: percent-encoded, and with RAW as a browser sends it
    found = {"/", "/zz", "/a", "/ab/c", "/private/x", "/x", "/x%24", "/x$", "/d.pdf"}
    for path in every:
        for spelled in (_canonical(path), quote(path, safe=SAFE + RAW)):
            found.update({spelled, spelled + "z",
                          (spelled[:-3] if spelled[-3:-2] == "%" else spelled[:-1]) or "/"})
    return sorted(found)


def _under(policy: GeneratePolicy, existing: str) -> set[str]:
    """URLs below each site-wide path that the owner's wildcard patterns match."""
    patterns = {line.split(":", 1)[1].strip() for line in existing.splitlines()
                if line.startswith(("Allow:", "Disallow:")) and any(c in line for c in "*$")}
    return {_canonical(site).rstrip("/") + "/" + pattern.replace("*", "x").rstrip("$")[1:]
            for site in policy.disallow_paths for pattern in patterns}


def _check(policy: GeneratePolicy, existing: Optional[str]) -> None:
    try:
        made = generate(policy, existing)
    except GenerateError as error:
        assert "\n" not in str(error)
        if existing is None:
            raise  # nothing drawn for a fresh file is beyond expression
        return
    text = made.text
    # Nothing worse than info on a line the generator wrote (an owner's kept line may keep
    # its own findings), but R213, which speaks of a crawler that says robots.txt does not
    # bind it, not of the file, and R302 on an added 'Disallow: /a' that an owner's
    # 'Disallow: /a*' outranks in Google's reading (urllib.robotparser needs it: '*' is
    # plain text there).
    owners = set((existing or "").splitlines())
    written = text.splitlines()
    assert not [str(d) for d in made.findings if d.severity != "info" and d.code != "R213"
                and written[d.line - 1] not in owners
                and not (d.code == "R302" and written[d.line - 1] + "*" in owners)]
    agents = sorted({t for t, _ in policy.agents} | {"Slurp", *TOKENS[:4]}
                    | {t for name, _ in policy.categories for t in category_tokens(name)[:3]})
    urls = sorted({*_urls(policy), *_under(policy, existing or "")})
    # unnamed registry tokens holding a chosen token: the legacy reading's substring trap
    chosen = {t.lower() for t, _ in policy.agents if t != "*"} | {
        t.lower() for name, _ in policy.categories for t in category_tokens(name)}
    captured = sorted({c.token for c in registry().crawlers if c.token and c.token.lower()
                       not in chosen and c.trigger != "control-token"  # fetches nothing
                       and any(n in c.token.lower() for n in chosen)})
    agents = sorted({*agents, *captured[:12]})
    for mode in MODES:
        old, new = parse(existing or "", mode=mode), parse(text, mode=mode)
        named = {t.lower() for t, _ in policy.agents} | {
            t.lower() for name, _ in policy.categories for t in category_tokens(name)} | {
            a for g in old.groups for a in g.agents} | {t.lower() for t, _ in policy.crawl_delays}
        for agent in [*agents, "*"]:
            if mode == "legacy" and agent.lower() not in named | {"*"} | {
                    c.lower() for c in captured}:
                continue  # the legacy reading gives a crawler the first group whose token is
                # inside its name: only the agents the file names are read as chosen there
            for path in urls:
                url = "https://example.com" + path
                before = old.allowed(url, agent=agent)
                want = _expected(policy, agent, path, before)
                assert new.allowed(url, agent=agent) is want, (mode, agent, url, text)
                if mode == "google" and AVAILABLE:
                    who = STAND_IN if agent == "*" else agent
                    assert oracle(text.encode(), who, url)[0] is want, (agent, url, text)
                if mode == "google" and want:
                    usage = new.usage(url, agent=agent)
                    for purpose, allowed in policy.usage:
                        got = usage.allows(purpose)  # type: ignore[arg-type]
                        assert got is allowed, (agent, url, purpose)
    google = parse(text)
    for token, seconds in policy.crawl_delays:
        assert google.crawl_delay(token) == seconds


CI = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@CI
@given(policies)
@example(GeneratePolicy(agents=(("Googlebot", AgentChoice("allow")),), disallow_paths=("/p/",)))
def test_a_fresh_file_reads_as_chosen_in_every_reading(policy: GeneratePolicy) -> None:
    _check(policy, None)


@CI
@given(policies, owner_groups)
@example(GeneratePolicy(disallow_paths=("/p/",)), [(["*"], [("Allow", "/*.html")])])  # F2
@example(GeneratePolicy(agents=(("Googlebot", AgentChoice("allow")),), disallow_paths=("/p/",)),
         [(["*"], [("Disallow", "/a")])])  # F3
def test_a_merged_file_reads_as_chosen_or_is_refused(policy: GeneratePolicy,
                                                     groups: list[Any]) -> None:
    _check(policy, _owner_file(groups))


@pytest.mark.slow
@LONG
@given(policies, st.one_of(st.none(), owner_groups.map(_owner_file)))
def test_long_run(policy: GeneratePolicy, existing: Optional[str]) -> None:
    _check(policy, existing)
