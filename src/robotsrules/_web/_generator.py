"""The workbench's ``generate`` panel without the web: the choices of the panel's form read
into a :class:`~robotsrules.GeneratePolicy`, the file written by :func:`robotsrules.generate`
(the library call ``robotsrules generate`` makes), its proof shaped for the page, and the
same choices as a ``robotsrules generate`` command line.

Every input is a stranger's: each list is bounded (:data:`MAX_TOKENS`, :data:`MAX_PATHS`,
:data:`MAX_SITEMAPS`, and all the choices together :data:`MAX_CHOICES` characters), and
anything shown is made visible with :func:`~robotsrules._terminal.visible` (the template
escapes HTML). Nothing is fetched: a sitemap or licence URL is only written.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Mapping
from typing import Any, Final, NamedTuple, Optional

from .._generate import GeneratePolicy, generate
from .._generate._policy import USAGE_PURPOSES, canonical_path
from .._tables._crawlers import registry
from .._terminal import visible
from ..errors import RobotsError
from ._tester import TooMuch, changes_of, line_list

__all__ = ["CHOICE_FIELDS", "MAX_CHOICES", "MAX_PATHS", "MAX_SHOWN", "MAX_SITEMAPS",
           "MAX_TOKENS", "Choices", "categories", "generated", "usage_purposes"]

MAX_TOKENS: Final = 100
"""Tokens in the block and allow boxes together, and crawl delays, at most."""
MAX_PATHS: Final = 100
"""Disallowed paths at most."""
MAX_SITEMAPS: Final = 20
"""Sitemap URLs at most."""
MAX_CHOICES: Final = 64 * 1024
"""Characters of all the choices together at most (the file merged into is bounded apart,
as a robots.txt)."""
MAX_SHOWN: Final = 200
"""Changed verdicts listed at most (the count says how many there are)."""

CHOICE_FIELDS: Final = ("g_block", "g_allow", "g_paths", "g_delays", "g_sitemaps", "g_license",
                        "g_merge")
"""The form fields of the panel that hold text (the category boxes and the usage selects
are named ``g_block_category``, ``g_allow_category`` and ``g_usage_<purpose>``)."""


class Choices(NamedTuple):
    """The panel's form as given (each a field's text; categories as ticked)."""

    block: str = ""
    allow: str = ""
    block_categories: tuple[str, ...] = ()
    allow_categories: tuple[str, ...] = ()
    paths: str = ""
    usage: tuple[tuple[str, str], ...] = ()
    """(purpose, ``"y"`` or ``"n"``) for each purpose the owner states."""
    delays: str = ""
    sitemaps: str = ""
    license: str = ""
    merge: bool = False

    @classmethod
    def from_form(cls, form: Mapping[str, str], listed: Mapping[str, list[str]]) -> Choices:
        """The choices of a form: ``form`` a field's (first) value, ``listed`` every value
        of a field given more than once (the category boxes)."""
        return cls(
            block=form.get("g_block", ""), allow=form.get("g_allow", ""),
            block_categories=tuple(listed.get("g_block_category", [])),
            allow_categories=tuple(listed.get("g_allow_category", [])),
            paths=form.get("g_paths", ""),
            usage=tuple((purpose, form[f"g_usage_{purpose}"]) for purpose in USAGE_PURPOSES
                        if form.get(f"g_usage_{purpose}") in ("y", "n")),
            delays=form.get("g_delays", ""), sitemaps=form.get("g_sitemaps", ""),
            license=form.get("g_license", "").strip(), merge=form.get("g_merge") == "on")

    def stated(self, purpose: str) -> str:
        """``"y"``, ``"n"`` or ``""`` (not stated) for a usage purpose."""
        return dict(self.usage).get(purpose, "")

    @property
    def given(self) -> bool:
        """Whether anything was chosen."""
        return any((self.block.strip(), self.allow.strip(), self.block_categories,
                    self.allow_categories, self.paths.strip(), self.usage,
                    self.delays.strip(), self.sitemaps.strip(), self.license))


def categories() -> tuple[tuple[str, str], ...]:
    """The crawler registry's categories: (name, description)."""
    return tuple(registry().categories.items())


def usage_purposes() -> tuple[str, ...]:
    """The purposes the panel offers a choice for (those ``--usage`` takes)."""
    return USAGE_PURPOSES


def _size(choices: Choices) -> int:
    return sum(len(part) for part in (choices.block, choices.allow, choices.paths,
                                      choices.delays, choices.sitemaps, choices.license,
                                      *choices.block_categories, *choices.allow_categories))


def _lines(text: str, what: str, limit: int) -> list[str]:
    """The lines of a box (blank and ``#`` lines left out), each once, at most ``limit``."""
    items = line_list(text, what, MAX_CHOICES)  # the count's own words follow
    if len(items) > limit:
        raise RobotsError(f"{len(items):,} {what} given; the panel takes at most {limit:,} "
                          "(use robotsrules generate --policy FILE for more)")
    return items


def _delays(text: str) -> list[tuple[str, float]]:
    found = []
    for line in _lines(text, "crawl delays", MAX_TOKENS):
        token, sep, value = line.partition("=")
        try:
            seconds = float(value.strip()) if sep and token.strip() else math.nan
        except ValueError:
            seconds = math.nan
        if not (math.isfinite(seconds) and seconds > 0):
            raise RobotsError(f"crawl delay {visible(line)!r}: write TOKEN=SECONDS, a number "
                              "above 0 (GPTBot=10)")
        found.append((token.strip(), seconds))
    return found


class _Read(NamedTuple):
    data: dict[str, Any]
    argv: list[str]  # the same choices as options of robotsrules generate


def _read(choices: Choices) -> _Read:
    """The policy data and the command's options; raises :class:`RobotsError` for a choice
    over a bound or unreadable."""
    if _size(choices) > MAX_CHOICES:
        raise RobotsError(f"the choices hold {_size(choices):,} characters; the panel takes "
                          f"at most {MAX_CHOICES:,} (use robotsrules generate --policy FILE)")
    block = _lines(choices.block, "tokens to block", MAX_TOKENS)
    allow = _lines(choices.allow, "tokens to allow", MAX_TOKENS)
    if len(block) + len(allow) > MAX_TOKENS:
        raise RobotsError(f"{len(block) + len(allow):,} tokens given; the panel takes at most "
                          f"{MAX_TOKENS:,} (use robotsrules generate --policy FILE)")
    paths = _lines(choices.paths, "paths", MAX_PATHS)
    sitemaps = _lines(choices.sitemaps, "sitemap URLs", MAX_SITEMAPS)
    delays = _delays(choices.delays)
    # as the command reads its options: a later choice for one token wins (allow after block)
    agents: dict[str, tuple[str, str]] = {}
    argv: list[str] = []
    for option, action, tokens in (("--block", "block", block), ("--allow", "allow", allow)):
        for token in tokens:
            agents[token.lower()] = (token, action)
            argv.append(f"{option}={token}")
    chosen: dict[str, str] = {}
    for option, action, names in (("--block-category", "block", choices.block_categories),
                                  ("--allow-category", "allow", choices.allow_categories)):
        for name in names:
            chosen[name] = action
            argv.append(f"{option}={name}")
    argv += [f"--disallow-path={path}" for path in paths]
    argv += [f"--usage={purpose}={value}" for purpose, value in choices.usage]
    argv += [f"--crawl-delay={token}={seconds:g}" for token, seconds in delays]
    argv += [f"--sitemap={url}" for url in sitemaps]
    if choices.license:
        argv.append(f"--license={choices.license}")
    data: dict[str, Any] = {
        "agents": dict(agents.values()), "categories": chosen, "disallow_paths": paths,
        "usage": dict(choices.usage), "crawl_delay": dict(delays), "sitemaps": sitemaps}
    if choices.license:
        data["license"] = choices.license
    return _Read(data, argv)


def _command(argv: list[str], merge: bool) -> Optional[str]:
    """The command line, each word quoted for a POSIX shell, every value joined to its
    option with ``=`` (a value cannot become an option); None when a word holds a control,
    bidi or other character a terminal would not show as itself."""
    words = ["robotsrules", "generate", *argv]
    if merge:
        words.append("--from=robots.txt")
    command = " ".join(shlex.quote(word) for word in words)
    return command if visible(command) == command else None


def _shown(changes: Any, merged: bool) -> list[Any]:
    """The first :data:`MAX_SHOWN` changes: the diff panel's (with the deciding lines) for a
    merge, else the proof's rows (against no file)."""
    if merged:
        return list(changes[:MAX_SHOWN])
    return [{"agent": visible(row.agent), "url": visible(row.url),
             "before": "allowed" if row.before else "disallowed",
             "after": "allowed" if row.after else "disallowed"} for row in changes[:MAX_SHOWN]]


def generated(choices: Choices, robots: str) -> dict[str, Any]:
    """The panel's answer for ``choices`` (merged into ``robots`` when the owner asks):
    ``text`` (the file), ``lines`` (its lines made visible), ``agents`` (per agent: the
    sample URLs allowed before and after), ``changes`` (the verdicts the file
    changes, at most :data:`MAX_SHOWN`: for a merge as the diff panel finds them, with the
    deciding lines, else the proof's rows), ``changed`` (how many), ``merge_problem`` (a
    merge's changes over the diff's bound), ``findings``, ``notes``,
    ``command`` (None when not offered), or ``problem``: the refusal, in one line."""
    try:
        read = _read(choices)
        made = generate(GeneratePolicy.from_data(read.data),
                        robots.replace("\r\n", "\n") if choices.merge else None)
    except RobotsError as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        return {"problem": visible(first)}
    # a path as the file writes it (percent-encoded): the command then shows only ASCII
    argv = [f"--disallow-path={canonical_path(word.split('=', 1)[1])}"
            if word.startswith("--disallow-path=") else word for word in read.argv]
    agents = []
    for agent in made.agents:
        rows = [row for row in made.rows if row.agent == agent]
        agents.append({"agent": visible(agent), "samples": len(rows),
                       "before": sum(row.before for row in rows),
                       "after": sum(row.after for row in rows)})
    changes: Any = made.changes
    merge_problem = None
    if choices.merge:  # what the merge changes, as the diff panel (robotsrules diff) finds it
        try:
            changes = changes_of(robots.replace("\r\n", "\n"), made.text, made.urls,
                                 made.agents)
        except TooMuch as error:
            merge_problem = visible(str(error))
    return {"problem": None, "merge_problem": merge_problem, "text": made.text,
            "lines": [visible(line) for line in made.text.splitlines()],
            "agents": agents, "changed": len(changes), "merged": choices.merge,
            "changes": _shown(changes, choices.merge),
            "findings": [{"code": f.code, "severity": f.severity, "line": f.line,
                          "message": visible(f.message)} for f in made.findings],
            "notes": [visible(note) for note in made.notes],
            "command": _command(argv, choices.merge)}
