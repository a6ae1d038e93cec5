"""Writing the file: :func:`generate`, its groups, the merge into an owner's file, the proof.

Theory of operation. The policy is first resolved into one :class:`AgentChoice` per token
(categories expanded through the crawler registry; a token's own choice wins; a token in a
blocked and another category is blocked). Tokens with the same lines (rules and crawl
delay) share one group; each group repeats what it needs of the ``*`` group, because a
crawler named by a group reads nothing else (Google, RFC 9309 §2.2.1): the site-wide
paths of a ``block-paths`` token, and the usage lines of every group.

Three readings must see exactly the choices: Google's (longest match, groups merged by
token), RFC 9309's (escapes of unreserved characters decoded) and the legacy reading
(``urllib.robotparser``: the first rule that matches decides, and the first record whose
token is a *substring* of the crawler's name is its record). Hence ``Allow`` lines come
before the ``Disallow: /`` of an ``allow-paths`` group, and a record whose token is inside
another record's token (``Googlebot`` in ``Googlebot-News``) is written after it.

Nothing is trusted to construction alone: the text is parsed back in the three modes and
every (agent, sample URL) verdict compared with what the policy chose (and, in Google's
reading, every usage preference and crawl delay). The first difference refuses the policy
with :class:`~robotsrules.GenerateError`, one line naming the agent, the URL and the
reading: a file is never written silently wrong.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple, Optional

from .._diff import sample_urls
from .._rules._urls import match_target
from .._tables._crawlers import category_tokens, crawler_for, registry, resolve_category
from .._tables._purposes import AIPREF_REVISION, CONTENT_SIGNALS, CURRENT_CATEGORIES, revision
from ..errors import GenerateError, RobotsError
from ..linter import Diagnostic, lint
from ..model import Group, Rule
from ..robotstxt import DEFAULT_MAX_BYTES, Mode, RobotsTxt, parse
from ._policy import (
    USAGE_PURPOSES,
    AgentChoice,
    GeneratePolicy,
    check_seconds,
    check_token,
    spellings,
)

__all__ = ["MAX_CHECKS", "READINGS", "Generated", "Row", "generate"]

READINGS: Final[Mapping[Mode, str]] = {"google": "Google's reading",
                                       "rfc": "RFC 9309's reading",
                                       "legacy": "the legacy reading (urllib.robotparser)"}
"""The readings every generated file is proven under, with the words a refusal uses."""

MAX_CHECKS: Final = 200_000
"""Agent x sample URL pairs the proof reads at most (each in three readings); a policy or an
owner's file needing more is refused rather than read for minutes."""

_MARK: Final = "# [robotsrules generate] "
_ORIGIN: Final = "https://example.com"  # the sample paths are asked of a site
_RULE_KEYS: Final = frozenset({"user-agent", "allow", "disallow", "crawl-delay", "request-rate",
                               "content-signal", "content-usage"})


class Row(NamedTuple):
    """One line of the verdict table: may ``agent`` fetch ``url``, before and after."""

    agent: str
    url: str
    before: bool
    after: bool


class Generated(NamedTuple):
    """What :func:`generate` wrote, and the proof that it reads as chosen."""

    text: str
    """The robots.txt (UTF-8 text, LF line ends)."""
    rows: tuple[Row, ...]
    """The verdict table in Google's reading: every agent x sample URL, before and after."""
    findings: tuple[Diagnostic, ...]
    """What :func:`robotsrules.lint` says of :attr:`text`."""
    notes: tuple[str, ...]
    """Decisions taken for the owner (a token in a blocked and an allowed category, ...)."""

    @property
    def agents(self) -> tuple[str, ...]:
        """The agents of :attr:`rows`, in order (``*`` stands for every unnamed crawler)."""
        return tuple(dict.fromkeys(row.agent for row in self.rows))

    @property
    def urls(self) -> tuple[str, ...]:
        """The sample URLs of :attr:`rows`, in order."""
        return tuple(dict.fromkeys(row.url for row in self.rows))

    @property
    def changes(self) -> tuple[Row, ...]:
        """The rows whose verdict changed."""
        return tuple(row for row in self.rows if row.before != row.after)

    def to_data(self) -> dict[str, Any]:
        """Plain data for JSON (``generate --json``, a web page): the text, the agents, the
        sample URLs, every row, the findings and the notes."""
        return {"text": self.text, "agents": list(self.agents), "urls": list(self.urls),
                "rows": [row._asdict() for row in self.rows],
                "findings": [finding._asdict() for finding in self.findings],
                "notes": list(self.notes)}


class _Resolved(NamedTuple):
    site_wide: tuple[str, ...]
    star: Optional[AgentChoice]  # the * group's own choice, when the policy names '*'
    tokens: dict[str, tuple[str, AgentChoice]]  # lower-case token -> (as written, choice)
    signals: dict[str, bool]
    labels: dict[str, bool]
    delays: dict[str, float]  # lower-case token (or '*') -> seconds
    notes: tuple[str, ...]


def _checked_url(url: str, what: str) -> str:
    if not isinstance(url, str):
        raise TypeError(f"a {what} URL must be a str, not {type(url).__name__}")
    text = url.strip()
    if (not text.lower().startswith(("http://", "https://")) or len(text) > 2048
            or any(c.isspace() or ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or c == "#"
                   for c in text)):
        raise GenerateError(f"{what} {url[:80]!r} is not an absolute http(s) URL without "
                            "spaces, control characters or '#' (at most 2048 characters)")
    return text


def _usage(policy: GeneratePolicy) -> tuple[dict[str, bool], dict[str, bool]]:
    """The Content-Signal and Content-Usage statements, each purpose mirrored into the
    other vocabulary where the current revision maps it."""
    mapping = revision().signals  # content signal -> label of the current revision
    signals: dict[str, bool] = {}
    labels: dict[str, bool] = {}
    for name, allowed in policy.usage:
        if name not in USAGE_PURPOSES:
            raise GenerateError(f"unknown usage purpose {name!r}; valid: "
                                f"{', '.join(USAGE_PURPOSES)}")
        pairs: list[tuple[dict[str, bool], str]] = []
        if name in CONTENT_SIGNALS:
            pairs.append((signals, name))
            if name in mapping:
                pairs.append((labels, mapping[name]))
        if name in CURRENT_CATEGORIES:
            pairs.append((labels, name))
            pairs += [(signals, signal) for signal, label in mapping.items() if label == name]
        for table, key in pairs:
            if table.get(key, allowed) != allowed:
                raise GenerateError(f"usage {name}={'y' if allowed else 'n'} contradicts "
                                    f"another usage choice for {key} (draft-ietf-aipref-vocab-"
                                    f"{AIPREF_REVISION} maps them onto each other)")
            table[key] = bool(allowed)
    return signals, labels


def _resolve(policy: GeneratePolicy) -> _Resolved:
    if not isinstance(policy, GeneratePolicy):
        raise TypeError(f"policy must be a robotsrules.GeneratePolicy, not {type(policy).__name__}")
    site_wide = AgentChoice("block-paths", tuple(policy.disallow_paths)).checked().paths
    notes: list[tuple[str, str]] = []
    tokens: dict[str, tuple[str, AgentChoice]] = {}
    from_category: dict[str, str] = {}
    for name, choice in policy.categories:
        try:
            category = resolve_category(name)
            members = category_tokens(category)
        except RobotsError as error:
            raise GenerateError(str(error)) from None
        checked = choice.checked()
        for token in members:
            key = token.lower()
            if key in tokens and tokens[key][1] != checked:
                if "block" in (checked.action, tokens[key][1].action):
                    notes.append((key, f"{token} is in categories {from_category[key]} and "
                                       f"{category} with different choices: blocked (choose "
                                       "it by name to decide otherwise)"))
                    tokens[key] = (token, AgentChoice("block"))
                    continue
                raise GenerateError(
                    f"{token} is in categories {from_category[key]} and {category}, which "
                    "choose differently: choose it by name")
            tokens.setdefault(key, (token, checked))
            from_category.setdefault(key, category)
    star: Optional[AgentChoice] = None
    named: dict[str, AgentChoice] = {}
    named_first: dict[str, str] = {}
    for raw, choice in policy.agents:
        token = check_token(raw)
        checked = choice.checked()
        key = token.lower()
        if named.get(key, checked) != checked:
            raise GenerateError(f"{token} is given two different choices")
        named[key] = checked
        if token == "*":
            star = checked
        else:  # the first spelling given is the one written
            tokens[key] = (named_first.get(key, token), checked)
            named_first.setdefault(key, token)
    delays: dict[str, float] = {}
    rounded: list[str] = []
    for raw, seconds in policy.crawl_delays:
        token = check_token(raw)
        asked = check_seconds(seconds, token)
        # urllib.robotparser drops a delay that is not a whole number: round up (a longer
        # wait is what the owner asked, and more)
        delays[token.lower()] = float(math.ceil(asked))
        if asked != math.ceil(asked):
            rounded.append(f"{token}: {asked:g} s written as {math.ceil(asked)} s")
        if token != "*" and token.lower() not in tokens:  # a group of its own, like '*'
            tokens[token.lower()] = (token, star or AgentChoice("block-paths"))
    signals, labels = _usage(policy)
    kept = tuple(words for key, words in notes if key not in named)  # a name decided it
    if rounded:
        kept += ("crawl delays rounded up to whole seconds, which every reader reads ("
                 + "; ".join(rounded[:5]) + (" ..." if len(rounded) > 5 else "") + ")",)
    return _Resolved(site_wide, star, tokens, signals, labels, delays, kept)


def _rules(choice: Optional[AgentChoice], site_wide: Sequence[str]) -> list[str]:
    if choice is None or choice.action == "block-paths":
        paths = sorted(dict.fromkeys((*site_wide, *(choice.paths if choice else ()))))
        return _lines("Disallow", paths) or ["Allow: /"]
    if choice.action == "block":
        return ["Disallow: /"]
    if choice.action == "allow":
        return ["Allow: /"]
    # allow-paths: Allow lines first, so that the legacy reading's first match agrees
    return [*_lines("Allow", sorted(choice.paths)), "Disallow: /"]


def _lines(directive: str, paths: Sequence[str]) -> list[str]:
    """A rule line per path and per spelling of it (see :func:`spellings`)."""
    return [f"{directive}: {spelling}" for path in paths for spelling in spellings(path)]


_HEADINGS: Final = {"block": "May fetch nothing.", "allow": "May fetch everything.",
                    "block-paths": "May fetch everything but the paths below.",
                    "allow-paths": "May fetch only the paths below."}


def _seconds(value: float) -> str:
    return str(int(value))  # whole seconds (see _resolve)


def _usage_lines(resolved: _Resolved) -> list[str]:
    lines = []
    if resolved.signals:
        lines.append("Content-Signal: " + ", ".join(
            f"{name}={'yes' if resolved.signals[name] else 'no'}"
            for name in CONTENT_SIGNALS if name in resolved.signals))
    if resolved.labels:
        lines.append("Content-Usage: / " + ", ".join(
            f"{name}={'y' if resolved.labels[name] else 'n'}"
            for name in CURRENT_CATEGORIES if name in resolved.labels))
    return lines


def _group(agents: Sequence[str], choice: Optional[AgentChoice], delay: Optional[float],
           resolved: _Resolved) -> list[str]:
    lines = [f"# {_HEADINGS[choice.action if choice else 'block-paths']}"]
    lines += [f"User-agent: {agent}" for agent in agents]
    if delay is not None:
        lines.append("# Crawl-delay: seconds between requests; Google's crawlers ignore it.")
        lines.append(f"Crawl-delay: {_seconds(delay)}")
    # a crawler that may fetch nothing is given no preference (none would apply: lint R606)
    usage = _usage_lines(resolved) if choice is None or choice.action != "block" else []
    return [*lines, *_rules(choice, resolved.site_wide), *usage]


def _records(resolved: _Resolved) -> list[list[str]]:
    """Tokens with the same lines share a record; a record whose token is inside another
    record's token comes after it (the legacy reading takes the first record whose token
    is a substring of the crawler's name)."""
    by_lines: dict[tuple[tuple[str, ...], Optional[float], str], list[str]] = {}
    order = {"block": 0, "block-paths": 1, "allow-paths": 2, "allow": 3}
    for key, (token, choice) in sorted(resolved.tokens.items(),
                                       key=lambda item: (order[item[1][1].action], item[0])):
        lines = tuple(_rules(choice, resolved.site_wide))
        # a usage-control token (Google-Extended) never shares a group with a crawler: its
        # rules would then stop the crawler's fetching too (lint R212)
        entry = crawler_for(token)
        alone = key if entry is not None and entry.trigger == "control-token" else ""
        by_lines.setdefault((lines, resolved.delays.get(key), alone), []).append(token)
    records = list(by_lines.items())

    def captures(later: list[str], earlier: list[str]) -> bool:
        return any(a.lower() in b.lower() and a.lower() != b.lower()
                   for a in later for b in earlier)

    ordered: list[tuple[tuple[tuple[str, ...], Optional[float], str], list[str]]] = []
    pending = records[:]
    while pending:
        ready = [r for r in pending if not any(captures(r[1], other[1])
                                               for other in pending if other is not r)]
        if not ready:  # a circle between merged records: one record per token, longest first
            ordered = [((lines, delay, token), [token])
                       for (lines, delay, _alone), tokens in records for token in tokens]
            ordered.sort(key=lambda r: -len(r[1][0]))
            break
        ordered.append(ready[0])
        pending.remove(ready[0])
    result = []
    for (_lines, delay, _alone), tokens in ordered:
        choice = resolved.tokens[tokens[0].lower()][1]
        result.append(_group(tokens, choice, delay, resolved))
    return result


def _star_group(resolved: _Resolved) -> list[str]:
    return _group(["*"], resolved.star, resolved.delays.get("*"), resolved)


def _tail(policy: GeneratePolicy, existing: Optional[RobotsTxt], head: bool = False) -> list[str]:
    have_maps = set(existing.sitemaps) if existing else set()
    have_licenses = set(existing.licenses) if existing else set()
    if head:
        if policy.license is None or policy.license.strip() in have_licenses:
            return []
        # RSL's robots.txt guide: a site-wide line, read for every crawler; above the groups
        # so that no reader scopes it to one (lint R705)
        return [f"License: {_checked_url(policy.license, 'licence')}"]
    return [f"Sitemap: {_checked_url(url, 'sitemap')}" for url in policy.sitemaps
            if url.strip() not in have_maps]


def _fresh(resolved: _Resolved, policy: GeneratePolicy) -> str:
    blocks = [["# robots.txt written by robotsrules generate. Each crawler named below reads",
               "# only its own group, so every group repeats the lines it needs.",
               *_tail(policy, None, head=True)],
              _star_group(resolved), *_records(resolved)]
    tail = _tail(policy, None)
    if tail:
        blocks.append(tail)
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def _group_end(group: Group) -> int:
    return max((*group.agent_lines, *(r.line for r in group.rules),
                *(u.line for u in group.usage)))


def _closed(rules: Sequence[Rule]) -> bool:
    """Whether rules let nothing be fetched (a ``Disallow: /`` and no ``Allow``)."""
    return not any(r.directive == "allow" for r in rules) and any(
        r.pattern == "/" for r in rules)


def _reaches(pattern: str, prefix: str) -> bool:
    """Whether a URL path starting with ``prefix`` can match ``pattern`` as Google's reader
    matches (``*`` any octets, a final ``$`` the end, else a prefix)."""
    end = pattern.endswith("$")
    body = pattern[:-1] if end else pattern

    def closed(states: set[int]) -> set[int]:
        found = set(states)
        for index in sorted(states):
            while index < len(body) and body[index] == "*":
                index += 1
                found.add(index)
        return found

    states = closed({0})
    for octet in prefix:
        if not end and len(body) in states:
            return True
        states = closed({i + (body[i] != "*") for i in states
                         if i < len(body) and body[i] in ("*", octet)})
        if not states:
            return False
    return True


def _check_wildcards(group: Group, site_wide: Sequence[str]) -> None:
    """Refuse a kept ``Allow`` pattern (``*`` or ``$``) that can match below a site-wide
    path and is at least as long as its ``Disallow``: Google's reader lets it win there."""
    for rule in group.rules:
        if rule.directive != "allow" or not any(c in rule.pattern for c in "*$"):
            continue
        for path in site_wide:
            for spelling in spellings(path):
                if len(rule.pattern) >= len(spelling) and _reaches(rule.pattern, spelling):
                    raise GenerateError(
                        f"the owner's 'Allow: {rule.pattern[:60]}' (line {rule.line}) can "
                        f"match below {spelling[:60]} and outweighs the added 'Disallow: "
                        f"{spelling[:60]}' in Google's reading: narrow or remove it first")


def _merged(resolved: _Resolved, policy: GeneratePolicy, old: RobotsTxt, text: str) -> str:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    keys = {line.number: line.key for line in old.lines}
    chosen = set(resolved.tokens) | ({"*"} if resolved.star is not None else set())
    commented: set[int] = set()
    after: dict[int, list[str]] = {}
    starts = sorted(group.line for group in old.groups)
    kept_star = False
    have: dict[str, set[str]] = {}
    for group in old.groups:
        gone = [n for n, agent in zip(group.agent_lines, group.agents) if agent in chosen]
        if len(gone) == len(group.agent_lines):
            nxt = next((s for s in starts if s > group.line), len(lines) + 1)
            commented.update(n for n in range(group.line, nxt)
                             if keys.get(n) in _RULE_KEYS)
            continue
        commented.update(gone)
        kept_star = kept_star or "*" in group.agents
        # Google merges the groups naming one agent: a line one of them has (or was given)
        # is not written again (lint R302); the legacy reading reads only the first.
        agents = [a for a in group.agents if a not in chosen]
        for agent in agents:
            have.setdefault(agent, set()).update(
                f"Disallow: {r.pattern}" for r in group.rules if r.directive == "disallow")
        _check_wildcards(group, resolved.site_wide)
        wanted = _lines("Disallow", resolved.site_wide)
        # where nothing may be fetched no preference applies (lint R606); Google reads the
        # rules of every group naming the agent
        if not all(_closed([r for g in old.groups if a in g.agents for r in g.rules])
                   for a in agents):
            wanted += _usage_lines(resolved)
        extra = [line for line in wanted if not all(line in have[a] for a in agents)]
        for agent in agents:
            have[agent].update(extra)
        if "*" in group.agents and resolved.delays.get("*") is not None:
            extra.append(f"Crawl-delay: {_seconds(resolved.delays['*'])}")
        # the site-wide Disallow lines right below the User-agent lines: the legacy reading
        # takes the first rule that matches, and an owner's Allow line must not come first
        closing = [line for line in extra if line.startswith("Disallow:")
                   and any(r.directive == "allow" for r in group.rules)]
        extra = [line for line in extra if line not in closing]
        if closing:
            after.setdefault(max(group.agent_lines), []).extend([f"{_MARK}added:", *closing])
        if extra:
            after.setdefault(_group_end(group), []).extend(
                [f"{_MARK}added:", *extra])
    out = []
    for number, line in enumerate(lines, 1):
        out.append(_MARK + line if number in commented else line)
        out.extend(after.get(number, ()))
    blocks = [[f"{_MARK}the groups below were added (a token marked above has its own)."]]
    if not kept_star:
        blocks.append(_star_group(resolved))
    blocks += _captured_group(resolved, old, kept_star)
    blocks += _records(resolved)
    tail = _tail(policy, old)
    if tail:
        blocks.append(tail)
    out[:0] = _tail(policy, old, head=True)
    return "\n".join(out).rstrip("\n") + "\n\n" + "\n\n".join(
        "\n".join(block) for block in blocks) + "\n"


def _samples(resolved: _Resolved, old: Optional[RobotsTxt]) -> list[str]:
    paths = {"/", "/x"}
    every = [*resolved.site_wide, *(p for _, c in resolved.tokens.values() for p in c.paths),
             *(resolved.star.paths if resolved.star else ())]
    for path in every:
        shorter = path[:-3] if path[-3:-2] == "%" else path[:-1]  # never half an escape
        for spelling in spellings(path):  # as written and as a browser sends it
            paths.update({spelling, spelling + "x", path.rsplit("/", 1)[0] + "/"})
        paths.add(shorter or "/")
    if old is not None:  # the owner's rules: paths they match, and each pattern as written
        paths.update(sample_urls(old))
        paths.update(rule.pattern for group in old.groups for rule in group.rules
                     if rule.pattern.startswith("/"))
    paths.discard("/robots.txt")  # always allowed (RFC 9309 §2.2.2)
    return sorted(paths)


def _expected(resolved: _Resolved, agent: str, target: str, before: bool) -> bool:
    agent = agent.lower()
    if agent in resolved.tokens:
        return resolved.tokens[agent][1].allows(target, resolved.site_wide)
    if agent == "*" and resolved.star is not None:
        return resolved.star.allows(target, resolved.site_wide)
    return before and AgentChoice("block-paths").allows(target, resolved.site_wide)


def _said(allowed: bool) -> str:
    return "allowed" if allowed else "disallowed"


def _prove(resolved: _Resolved, source: str, text: str, agents: Sequence[str],
           urls: Sequence[str]) -> list[Row]:
    rows: list[Row] = []
    for mode, reading in READINGS.items():
        old, new = parse(source, mode=mode), parse(text, mode=mode)
        for agent in agents:
            was, now = old.for_agent(agent), new.for_agent(agent)
            for url in urls:
                full = _ORIGIN + url  # a path alone starting '//' would name a host
                before, verdict = was.allowed(full), now.explain(full)
                want = _expected(resolved, agent, match_target(full), before)
                if verdict.allowed != want:
                    cause = f" (line {verdict.rule})" if verdict.rule else ""
                    raise GenerateError(
                        f"cannot write this so that every reading agrees: {agent} would be "
                        f"{_said(verdict.allowed)} {url} in {reading}{cause}, but the choice "
                        f"is {_said(want)}")
                if mode == "google":
                    rows.append(Row(agent, url, before, verdict.allowed))
                    if want and (resolved.signals or resolved.labels):
                        _prove_usage(resolved, new, agent, full)
    google = parse(text)
    for agent, seconds in resolved.delays.items():
        if google.crawl_delay(agent) != seconds:
            raise GenerateError(f"cannot write a crawl delay of {seconds:g} s for {agent}: "
                                f"the file gives it {google.crawl_delay(agent)}")
    return rows


def _prove_usage(resolved: _Resolved, robots: RobotsTxt, agent: str, url: str) -> None:
    usage = robots.usage(url, agent=agent)
    for table in (resolved.signals, resolved.labels):
        for name, allowed in table.items():
            got = usage.allows(name)  # type: ignore[arg-type]
            if got != allowed:
                raise GenerateError(
                    f"cannot state {name}={'y' if allowed else 'n'} for {agent}: on {url} "
                    f"the file states {'nothing' if got is None else _said(got)} for it "
                    "(an owner's line that says otherwise is kept)")


def _captured(resolved: _Resolved) -> dict[str, str]:
    """Registry tokens no group names that hold a named token inside their name
    (``Googlebot-Image`` holds ``Googlebot``): the legacy reading gives them that group."""
    named = [key for key in resolved.tokens if key != "*"]
    found: dict[str, str] = {}
    for crawler in registry().crawlers:
        token = crawler.token
        key = token.lower() if token else ""
        if (key and key not in resolved.tokens and crawler.trigger != "control-token"
                and any(n in key for n in named)):  # a control token fetches nothing
            found.setdefault(key, token or key)
    return found


def _own_groups(resolved: _Resolved) -> _Resolved:
    """A fresh file names each captured registry token (see :func:`_captured`) in a group
    of its own that repeats the ``*`` group, so that the legacy reading gives it what every
    unnamed crawler is given; a crawler outside the registry is not covered (a note says)."""
    captured = _captured(resolved)
    if not captured:
        return resolved
    tokens = dict(resolved.tokens)
    delays = dict(resolved.delays)
    for key, token in captured.items():
        tokens[key] = (token, resolved.star or AgentChoice("block-paths"))
        if "*" in delays:
            delays[key] = delays["*"]
    shown = ", ".join(sorted(captured.values(), key=str.lower)[:5])
    more = f" and {len(captured) - 5} more" if len(captured) > 5 else ""
    note = (f"{shown}{more} given the '*' group's lines in groups of their own: the legacy "
            "reading (urllib.robotparser) would give them the group of a token inside their "
            "name; a crawler outside the registry whose name holds a named token still is")
    return resolved._replace(tokens=tokens, delays=delays, notes=(*resolved.notes, note))


def _captured_group(resolved: _Resolved, old: RobotsTxt, kept_star: bool) -> list[list[str]]:
    """In a merge, the captured registry tokens (see :func:`_captured`) no owner's group
    names: one group repeating the owner's ``*`` rules and the site-wide paths, written
    before the chosen groups so that the legacy reading gives it to them."""
    owners = {agent.lower() for group in old.groups for agent in group.agents}
    tokens = [t for key, t in sorted(_captured(resolved).items()) if key not in owners]
    if not tokens:
        return []
    stars = [g for g in old.groups if "*" in g.agents] if kept_star else []
    rules = [f"{r.directive.capitalize()}: {r.pattern}" for g in stars for r in g.rules]
    if not kept_star:
        return [_group(tokens, resolved.star, resolved.delays.get("*"), resolved)]
    rules += [line for line in _lines("Disallow", resolved.site_wide) if line not in rules]
    usage = [] if _closed([r for g in stars for r in g.rules]) else _usage_lines(resolved)
    delay = resolved.delays.get("*")
    return [[f"{_MARK}as '*' above, for crawlers whose name holds a chosen token (legacy "
             "reading)", *(f"User-agent: {t}" for t in tokens),
             *([f"Crawl-delay: {_seconds(delay)}"] if delay is not None else []),
             *(rules or ["Allow: /"]), *usage]]


def _agents(resolved: _Resolved, old: Optional[RobotsTxt]) -> list[str]:
    names = {key: token for key, (token, _) in resolved.tokens.items()}
    names.update((key, token) for key, token in _captured(resolved).items() if key not in names)
    if old is not None:
        for group in old.groups:
            names.update((a, a) for a in group.agents if a and a != "*" and a not in names)
    return [*sorted(names.values(), key=str.lower), "*"]


def generate(policy: GeneratePolicy, existing: Optional[str | bytes] = None) -> Generated:
    """Write a robots.txt that every crawler reads exactly as ``policy`` chose.

    ``existing`` is an owner's file to merge into: its groups, comments and order are kept,
    a token the policy chooses for is moved to a group of its own (its old lines kept as
    comments), and the site-wide paths and usage lines are added to the groups that stay.
    The result is parsed back in Google's reading, RFC 9309's and the legacy reading and
    compared with the choices for every agent and sample URL; a choice no file can express
    so (or that a kept line of the owner's contradicts) raises
    :class:`~robotsrules.GenerateError`, one line saying why. Pure: no I/O.

    >>> from robotsrules import AgentChoice, GeneratePolicy, generate
    >>> made = generate(GeneratePolicy(agents=(("GPTBot", AgentChoice("block")),)))
    >>> print(made.text.split("\\n\\n")[2], end="")
    # May fetch nothing.
    User-agent: GPTBot
    Disallow: /
    """
    resolved = _resolve(policy)
    if existing is None:
        source, old = "", None
        resolved = _own_groups(resolved)
        text = _fresh(resolved, policy)
    else:
        if isinstance(existing, (bytes, bytearray)):
            existing = bytes(existing).decode("utf-8", "replace")
        if not isinstance(existing, str):
            raise TypeError(f"existing must be str or bytes, not {type(existing).__name__}")
        if len(existing.encode("utf-8", "surrogateescape")) > DEFAULT_MAX_BYTES:
            raise GenerateError(f"the existing file is over {DEFAULT_MAX_BYTES:,} octets, past "
                                "what crawlers read (RFC 9309 §2.5): shorten it first")
        existing = existing.removeprefix("\ufeff")  # a License line goes above, not before it
        source, old = existing, parse(existing)
        text = _merged(resolved, policy, old, existing)
    size = len(text.encode("utf-8", "surrogateescape"))
    if size > DEFAULT_MAX_BYTES:
        raise GenerateError(f"the file would be {size:,} octets, past the {DEFAULT_MAX_BYTES:,} "
                            "crawlers read (RFC 9309 §2.5): choose fewer paths or tokens")
    agents, urls = _agents(resolved, old), _samples(resolved, old)
    if len(agents) * len(urls) > MAX_CHECKS:
        raise GenerateError(f"the proof would read {len(agents):,} agents x {len(urls):,} sample "
                            f"URLs, over {MAX_CHECKS:,} pairs (time and memory): merge into a "
                            "shorter file, or choose fewer tokens or paths")
    rows = _prove(resolved, source, text, agents, urls)
    return Generated(text, tuple(rows), tuple(lint(text)), resolved.notes)
