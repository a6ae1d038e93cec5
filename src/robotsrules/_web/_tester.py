"""The tester's answers, without the web: a robots.txt, URLs and agents in, records out.

Every answer comes from the library's own functions (:func:`robotsrules.parse`,
:meth:`~robotsrules.RobotsTxt.explain` in each reading mode, :func:`robotsrules.linter.lint`,
the crawler registry's categories and :func:`robotsrules.useragent.product_token`); this
module only bounds the input, expands the agents and puts the answers in the shape the
templates show. Nothing here reads robots.txt a second way.

Bounds (strangers' data): at most :data:`MAX_URLS` URLs, :data:`MAX_AGENTS` agents as
typed and :data:`MAX_CELLS` answers (URLs x agents after categories are expanded); each
URL and agent line at most :data:`MAX_LINE` characters. Past a bound the request is
refused with a message saying which bound, never cut silently. The RSL licence documents
the file names are read by a reader the caller gives (the page's: fetched through the
address guard), at most :data:`MAX_LICENCES` of them; the others are shown as not read,
their terms unknown.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional

from .._diff import diff, sample_urls
from .._page import admit_page
from .._rsl import LicenseDocument, LicenseTerms
from .._rules._agents import agent_tokens
from .._rules._stance import StanceTooComplex, stance_of
from .._tables._crawlers import category_tokens, known_crawlers, resolve_category
from .._tables._purposes import Purpose
from .._tables._words import describe, license_document_json, why
from .._terminal import CONTROL_ESCAPES, visible
from ..errors import RobotsError
from ..linter import Diagnostic, lint
from ..model import Verdict
from ..robotstxt import DEFAULT_MAX_BYTES, Mode, RobotsTxt, parse
from ..useragent import product_token

__all__ = [
    "CRAWLER_URLS",
    "MAX_AGENTS",
    "MAX_CELLS",
    "MAX_DIFF_CHECKS",
    "MAX_LICENCES",
    "MAX_LINE",
    "MAX_STANCE_RULES",
    "MAX_URLS",
    "Answer",
    "Change",
    "CrawlerRow",
    "FileLine",
    "Licence",
    "PageAnswer",
    "ReadLicences",
    "Reading",
    "Tested",
    "TooMuch",
    "agents_of",
    "changes_of",
    "crawler_rows",
    "judge_file",
    "licences_of",
    "line_list",
    "not_read",
    "page_answers",
]

MAX_URLS = 100
MAX_STANCE_RULES = 2_000
"""The rules the crawler table settles stances for, over every distinct set of groups it
reads (settling takes time growing faster than the rules): past it, the stance is
``unknown``."""
MAX_AGENTS = 50
MAX_CELLS = 1_000
MAX_LINE = 2_048
CRAWLER_URLS = 5
"""The crawler table's columns: ``/`` and at most this many of the tested URLs."""
MAX_DIFF_CHECKS = 50_000
"""The most (agent, URL) pairs the diff compares (``robotsrules diff`` for more)."""
MAX_LICENCES = 3
"""The RSL licence documents one test reads (the file's first distinct ``License`` URLs);
the terms of the others are unknown (``robotsrules license`` reads them all)."""
_PURPOSES: tuple[Purpose, ...] = ("search", "ai-input", "ai-train")

_MODES: tuple[tuple[Mode, str], ...] = (
    ("google", "Google"), ("rfc", "RFC 9309"), ("legacy", "legacy (urllib.robotparser)"))


class TooMuch(RobotsError):
    """A request over one of the tester's bounds (the message names the bound)."""


@dataclasses.dataclass(frozen=True)
class Reading:
    """One reading mode's verdict for one URL and agent."""

    mode: str
    allowed: bool
    line: Optional[int]
    decides: str
    """The deciding line (control characters made visible) or the reason in a few words."""


@dataclasses.dataclass(frozen=True)
class Answer:
    """One URL for one agent: the verdict in words as ``check`` prints it."""

    url: str
    agent: str
    verdict: str
    """``"allowed"`` or ``"disallowed"``."""
    line: Optional[int]
    decides: str
    reason: str
    """The reason in a sentence (``explain``'s words)."""
    readings: tuple[Reading, ...]
    """Every reading mode's verdict when they differ on whether the URL may be fetched;
    empty when all three agree."""
    command: str
    """The same answer on the command line."""
    problem: Optional[str] = None
    """Why this URL could not be judged (an invalid URL), instead of a verdict."""


@dataclasses.dataclass(frozen=True)
class FileLine:
    """One line of the file view: its text, the answers it decides and its lint findings."""

    number: int
    text: str
    decides: tuple[str, ...]
    """``"allowed"``/``"disallowed"`` per answer this line decides (each once)."""
    findings: tuple[Diagnostic, ...]


@dataclasses.dataclass(frozen=True)
class Tested:
    """Everything the tester shows for one file."""

    answers: tuple[Answer, ...]
    lines: tuple[FileLine, ...]
    findings: tuple[Diagnostic, ...]
    """Every lint finding (those of line 0 or past the shown lines too)."""
    agents: tuple[str, ...]
    crawlers: tuple[CrawlerRow, ...]
    crawler_urls: tuple[str, ...]
    """The crawler table's URL columns: ``/`` and the first tested URLs."""
    command: str
    """The whole test on the command line (``robotsrules check``)."""
    changes: Optional[tuple[Change, ...]]
    """The verdicts the edit changes against the compared file; ``None``: none given."""
    cut: bool
    """The file is over the 500 KiB a crawler reads: the rest is ignored."""
    licences: tuple[Licence, ...] = ()
    """The RSL licence documents the file names (``License:`` lines), each once: the first
    :data:`MAX_LICENCES` (the page stays bounded whatever the file names)."""
    more_licences: int = 0
    """How many more the file names: not fetched, their terms unknown."""


@dataclasses.dataclass(frozen=True)
class CrawlerRow:
    """One crawler of the registry under this file (the ``agents`` command's row)."""

    name: str
    token: str
    """Its product token, or ``""`` when no group can name it."""
    operator: str
    categories: str
    verdicts: tuple[str, ...]
    """``"allowed"``/``"disallowed"`` for each URL column (``"-"``: no token)."""
    preferences: tuple[str, ...]
    """``yes``/``no``/``-`` (nothing stated) for search, ai-input and ai-train at ``/``."""
    stance: str
    """What the file disallows it: ``all``, ``some``, ``none``, or ``unknown`` (too complex
    to settle, past :data:`MAX_STANCE_RULES`, or no token)."""
    bound: str
    """What its operator says robots.txt does for it."""
    stoppable: bool
    """Whether robots.txt can stop it, by its operator's word (``False``: it cannot or is
    only partly bound, or the word is unknown)."""
    licences: tuple[str, ...] = ()
    """The RSL licence documents the file names for it (``License:`` lines), each once: the
    first :data:`MAX_LICENCES`."""
    more_licences: int = 0
    """How many more it names (counted in :attr:`terms`: their terms are unknown)."""
    terms: tuple[tuple[str, str, str], ...] = ()
    """What those documents say of ``/``: (purpose, status, why) for search, ai-input and
    ai-train, the status as ``robotsrules license`` gives it (``permitted``, ``licensed``,
    ``prohibited``, ``unstated``, or ``unknown`` when a document could not be fetched or
    read); empty when no licence is named for it."""


@dataclasses.dataclass(frozen=True)
class Licence:
    """One RSL licence document the file names, as ``robotsrules license --json`` reads it
    (:func:`robotsrules._tables._words.license_document_json`), every string made visible."""

    anchor: str
    """The id of its terms on the page (``licence-1``...)."""
    url: str
    state: str
    """``ok``, or why there are no terms: ``invalid``, ``unavailable``, ``unreachable``."""
    problem: str
    """Why it could not be had (``""`` when read): its terms are unknown, never "none"."""
    terms: Mapping[str, Any]
    """The document as ``license --json`` prints it."""


ReadLicences = Callable[[Sequence[str]], Sequence[LicenseDocument]]
"""Reads the licence documents at these URLs (one document for each, in order; never
raises for what a server does: a document that could not be had says so)."""


def not_read(url: str, why: str) -> LicenseDocument:
    """The document standing for a licence that was not fetched (``why``): every answer
    it gives is ``unknown``."""
    return LicenseDocument(url=url, state="unreachable", error=why)


def _json_shown(value: Any) -> Any:
    """``value`` (JSON data read from a stranger's document) with every string made visible."""
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, list):
        return [_json_shown(item) for item in value]
    if isinstance(value, dict):
        return {_json_shown(key): _json_shown(item) for key, item in value.items()}
    return value


def _licence_terms(documents: tuple[LicenseDocument, ...]) -> tuple[tuple[str, str, str], ...]:
    """What ``documents`` say of ``/`` for each purpose of the table."""
    try:
        terms = LicenseTerms("/", documents)
    except RobotsError as error:  # a path no document without a site can place: unknown
        return tuple((purpose, "unknown", visible(str(error))) for purpose in _PURPOSES)
    answers = [terms.answer(purpose) for purpose in _PURPOSES]
    return tuple((a.name, a.status, visible(a.reason)) for a in answers)


def licences_of(robots: RobotsTxt, read: Optional[ReadLicences]
                ) -> dict[str, LicenseDocument]:
    """The documents of the file's ``License`` URLs, each once: the first
    :data:`MAX_LICENCES` by ``read`` (none without it), the others :func:`not_read`."""
    urls = list(dict.fromkeys(robots.licenses))
    shown = urls[:MAX_LICENCES] if read is not None else []
    found = dict(zip(shown, read(shown) if read is not None and shown else ()))
    for url in urls:
        if url not in found:
            found[url] = not_read(url, (
                f"not fetched: the page reads at most {MAX_LICENCES} licence documents "
                "(robotsrules license reads them all)") if read is not None else
                "not fetched")
    return found


def _first_licences(links: Sequence[str]) -> tuple[tuple[str, ...], int]:
    """The first :data:`MAX_LICENCES` distinct URLs of ``links`` (made visible) and how many
    more there are: a file of many ``License`` lines does not fill every row."""
    distinct = list(dict.fromkeys(links))
    return (tuple(map(visible, distinct[:MAX_LICENCES])),
            max(0, len(distinct) - MAX_LICENCES))


def crawler_rows(robots: RobotsTxt, columns: Sequence[str],
                 documents: Optional[Mapping[str, LicenseDocument]] = None
                 ) -> tuple[CrawlerRow, ...]:
    """Every crawler of the shipped registry under ``robots``: may it fetch each URL of
    ``columns``, its usage preferences at ``/``, its stance, whether robots.txt can stop
    it (:meth:`~robotsrules.RobotsTxt.allowed`, :meth:`~robotsrules.RobotsTxt.usage`,
    :meth:`~robotsrules.RobotsTxt.stance`) and the licence terms its ``License`` URLs give
    ``/`` (``documents``: read by :func:`licences_of`; by default none is read)."""
    documents = licences_of(robots, None) if documents is None else documents
    rows = []
    stances: dict[tuple[int, ...], str] = {}  # by the groups that apply: each settled once
    terms: dict[tuple[str, ...], tuple[tuple[str, str, str], ...]] = {}
    budget = MAX_STANCE_RULES
    for crawler in known_crawlers():
        token = crawler.token
        if token is None:
            verdicts: tuple[str, ...] = ("-",) * len(columns)
            preferences: tuple[str, ...] = ("-",) * len(_PURPOSES)
            stance = "unknown"
        else:
            verdicts = tuple(_verdict_word(robots, url, token) for url in columns)
            usage = robots.usage("/", agent=token)
            preferences = tuple({True: "yes", False: "no", None: "-"}[usage.allows(purpose)]
                                for purpose in _PURPOSES)
            rules = robots.for_agent(token)
            key = tuple(group.line for group in rules.groups)
            if key not in stances:
                size = sum(len(group.rules) for group in rules.groups)
                budget -= size
                try:
                    stances[key] = stance_of(rules).kind if budget >= 0 else "unknown"
                except StanceTooComplex:
                    stances[key] = "unknown"
            stance = stances[key]
        # a License line is global (RSL 1.0 §4.4): a crawler no group can name is bound too
        links = robots.license_urls(token) if token else robots.licenses
        if links not in terms:
            terms[links] = _licence_terms(tuple(documents[url] for url in links)) if links else ()
        rows.append(CrawlerRow(visible(crawler.label), visible(token or ""),
                               visible(crawler.operator),
                               ", ".join(crawler.categories or (crawler.category,)),
                               verdicts, preferences, stance,
                               visible(crawler.robots_txt_note()), crawler.stoppable is True,
                               *_first_licences(links), terms=terms[links]))
    return tuple(rows)


@dataclasses.dataclass(frozen=True)
class Change:
    """One (agent, URL) whose verdict the edit changes (:func:`robotsrules._diff.diff`)."""

    agent: str
    url: str
    before: str
    after: str
    """``"allowed"`` or ``"disallowed"``."""
    old: str
    new: str
    """The deciding line (or the reason) in the compared file and in the edited one."""


def changes_of(base: bytes | str, content: bytes | str, urls: Sequence[str],
               agents: Sequence[str]) -> tuple[Change, ...]:
    """The verdicts that change from ``base`` (the live file, or another version) to
    ``content``, as ``robotsrules diff`` finds them: for every agent either file names
    (and ``*``) and the given ``agents``, on the given ``urls`` and a path for every rule of
    both files. Raises :class:`TooMuch` past :data:`MAX_DIFF_CHECKS` pairs."""
    old, new = parse(base), parse(content)
    paths = [path for path in dict.fromkeys([*urls, *sample_urls(old, new)])
             if _readable(path, old)]  # a URL no file can read has its answer's problem
    named = len(set(old.agents) | set(new.agents)) + 1 + len(agents)
    if named * len(paths) > MAX_DIFF_CHECKS:
        raise TooMuch(f"comparing the files takes {named * len(paths):,} verdicts; the page "
                      f"compares at most {MAX_DIFF_CHECKS:,} (use robotsrules diff)")
    found = {(c.agent, c.url): c for c in diff(old, new, paths)}
    if agents:
        found.update({(c.agent, c.url): c for c in diff(old, new, paths, agents)})
    return tuple(Change(visible(c.agent), visible(c.url),
                        "allowed" if c.old.allowed else "disallowed",
                        "allowed" if c.new.allowed else "disallowed",
                        describe(c.old), describe(c.new)) for c in found.values())


@dataclasses.dataclass(frozen=True)
class PageAnswer:
    """What a page's headers and HTML head say to one agent, and with the file's answer
    (``robotsrules page --robots``)."""

    agent: str
    signals: tuple[str, ...]
    """Every signal read, described, with whether it applies to this agent."""
    purposes: tuple[tuple[str, str, str], ...]
    """(purpose, ``allowed``/``refused``/``not stated``, why) for search, ai-input and
    ai-train: the page's signals combined with the robots.txt (a URL the agent may not
    fetch is refused)."""


def page_answers(headers: Sequence[tuple[str, str]], body: bytes, status: Optional[int],
                 url: str, content: bytes | str, agents: Sequence[str]
                 ) -> tuple[PageAnswer, ...]:
    """A fetched page's signals for each agent, combined with ``content`` (the robots.txt
    being edited) by :func:`robotsrules._page.admit_page`, the step ``robotsrules page``
    takes. Strangers' data: read with ``strict=False``."""
    robots = parse(content)
    admission = admit_page(list(headers), body, agents=list(agents), purposes=_PURPOSES,
                           url=url, usage=lambda agent: robots.usage(url, agent=agent),
                           status=status, strict=False)
    found = []
    for number, (agent, signals) in enumerate(zip(agents, admission.signals)):
        answers = admission.answers[number * len(_PURPOSES):(number + 1) * len(_PURPOSES)]
        read = tuple(visible(f"{d.describe()} [{'applies' if d.applies else 'other crawler'}"
                             f"{'' if d.valid else ', ignored: value not understood'}]")
                     for d in signals.directives)
        found.append(PageAnswer(visible(agent), read, tuple(
            (a.purpose, {True: "allowed", False: "refused", None: "not stated"}[a.answer.allowed],
             visible(a.answer.describe())) for a in answers)))
    return tuple(found)


def _readable(url: str, robots: RobotsTxt) -> bool:
    try:
        robots.explain(url, agent="*")
    except RobotsError:
        return False
    return True


def _verdict_word(robots: RobotsTxt, url: str, token: str) -> str:
    try:
        return "allowed" if robots.allowed(url, agent=token) else "disallowed"
    except RobotsError:
        return "not judged"


def line_list(text: str, what: str, limit: int) -> list[str]:
    """The lines of a box of the page, stripped, blank and ``#`` lines left out, each once;
    raises :class:`TooMuch` past ``limit`` lines or :data:`MAX_LINE` characters a line."""
    items = [line.strip() for line in text.splitlines()]
    items = [line for line in items if line and not line.startswith("#")]
    if len(items) > limit:
        raise TooMuch(f"{len(items):,} {what} given; the page takes at most {limit:,} at once "
                      f"(use robotsrules check --urls-file for more)")
    for item in items:
        if len(item) > MAX_LINE:
            raise TooMuch(f"a {what[:-1]} of {len(item):,} characters; the page takes at most "
                          f"{MAX_LINE:,} per line")
    return list(dict.fromkeys(items))


def agents_of(text: str) -> tuple[str, ...]:
    """The agents of the agents box: one a line, each a product token, a full User-Agent
    string (its product token, as :func:`robotsrules.useragent.product_token` reads it) or
    a registry category such as ``ai-training`` (its crawlers' tokens); each once, in order.
    Raises :class:`~robotsrules.RobotsError` for a line that is none of these."""
    agents: list[str] = []
    for item in line_list(text, "agents", MAX_AGENTS):
        try:  # "AI training", "ai-Training": a category, whatever the case and spacing
            category: Optional[str] = resolve_category("-".join(item.split()))
        except RobotsError:
            category = None
        if category is not None:
            agents.extend(category_tokens(category))
            continue
        if len(item.split()) > 1 and "/" not in item:
            # words that are no category and no User-Agent string (whose product has a
            # version, Name/1.0): reading its first word as the agent would judge another
            raise RobotsError(f"agent {visible(item)!r}: neither a product token, a "
                              "User-Agent string (Name/version ...) nor a crawler category")
        token = product_token(item) if (" " in item or "(" in item) else item
        try:
            agent_tokens(token)
        except RobotsError as error:
            raise RobotsError(f"agent {visible(item)!r}: {error}") from None
        agents.append(token)
    return tuple(dict.fromkeys(agents))


def _reading(robots: RobotsTxt, url: str, agent: str, label: str) -> Reading:
    verdict = robots.explain(url, agent=agent)
    return Reading(label, verdict.allowed, verdict.rule.line if verdict.rule else None,
                   describe(verdict))


def _word(text: str) -> str:
    """``text`` as one shell word that shows every character: quoted by :func:`shlex.quote`,
    or, holding a character :func:`visible` escapes, in bash's ``$'...'`` quoting with that
    character as its escape, so the copied command tests the very same text."""
    if visible(text) == text:
        return shlex.quote(text)
    escaped = []
    for char in text:
        code = ord(char)
        if char in "\\'":
            escaped.append("\\" + char)
        elif code in CONTROL_ESCAPES:
            escaped.append(f"\\x{code:02x}" if code < 0x80 else
                           f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            escaped.append(char)
    return "$'" + "".join(escaped) + "'"


def _agent_option(agent: str) -> str:
    """``--agent TOKEN``; ``--agent=TOKEN`` for a token that starts with ``-`` (a product
    token may), which the parser would read as an option of its own."""
    return f"--agent={_word(agent)}" if agent.startswith("-") else f"--agent {_word(agent)}"


def _command(url: str, agent: str) -> str:
    return f"robotsrules explain robots.txt {_agent_option(agent)} {_word(url)}"


def _answer(readings: Sequence[RobotsTxt], url: str, agent: str) -> Answer:
    try:
        verdict: Verdict = readings[0].explain(url, agent=agent)
        others = [_reading(robots, url, agent, label)
                  for robots, (_, label) in zip(readings[1:], _MODES[1:])]
    except RobotsError as error:
        return Answer(visible(url), visible(agent), "", None, "", "", (),
                      _command(url, agent), problem=visible(str(error)))
    first = Reading(_MODES[0][1], verdict.allowed,
                    verdict.rule.line if verdict.rule else None, describe(verdict))
    differ = any(other.allowed != verdict.allowed for other in others)
    return Answer(visible(url), visible(agent), "allowed" if verdict.allowed else "disallowed",
                  first.line,
                  first.decides, why(verdict.reason), (first, *others) if differ else (),
                  _command(url, agent))


def judge_file(content: bytes | str, urls_text: str, agents_text: str,
               base: Optional[bytes | str] = None,
               read_licences: Optional[ReadLicences] = None) -> Tested:
    """Judge every URL (one a line) for every agent (:func:`agents_of`) by ``content``, in
    the Google reading (the verdict) and the RFC 9309 and legacy readings (shown where they
    differ), and lint the file; with ``base``, the verdicts that change from it to
    ``content`` (:func:`changes_of`); with ``read_licences``, the terms of the RSL licence
    documents the file names (:func:`licences_of`). Raises :class:`TooMuch` past a bound."""
    urls = line_list(urls_text, "URLs", MAX_URLS)
    agents = agents_of(agents_text)
    if len(urls) * len(agents) > MAX_CELLS:
        raise TooMuch(f"{len(urls):,} URLs x {len(agents):,} agents = "
                      f"{len(urls) * len(agents):,} answers; the page gives at most "
                      f"{MAX_CELLS:,} at once")
    readings = [parse(content, mode=mode) for mode, _ in _MODES]
    answers = tuple(_answer(readings, url, agent) for url in urls for agent in agents)
    findings = tuple(lint(content))
    decided: dict[int, dict[str, None]] = {}
    for answer in answers:
        if answer.line is not None:
            decided.setdefault(answer.line, {})[answer.verdict] = None
    by_line: dict[int, list[Diagnostic]] = {}
    for finding in findings:
        by_line.setdefault(finding.line, []).append(finding)
    google = readings[0]
    shown = google.lines
    if shown and shown[-1].raw == "" and len(shown) > 1:
        shown = shown[:-1]  # the empty "line" after the final line break (as explain)
    lines = tuple(FileLine(line.number, visible(line.raw), tuple(decided.get(line.number, ())),
                           tuple(by_line.get(line.number, ()))) for line in shown)
    size = len(content.encode("utf-8", "surrogateescape") if isinstance(content, str)
               else content)
    columns = ("/", *[url for url in urls if url != "/"][:CRAWLER_URLS])
    changes = None if base is None else changes_of(base, content, urls, agents)
    named = " ".join(map(_agent_option, agents))
    # the URLs judged: one the page could not judge (not a URL or a path: "--robots=x")
    # would be read as an option, or refused, by the command
    judged = [url for url in urls if not url.startswith("-") and not any(
        answer.problem for answer in answers if answer.url == visible(url))]
    command = (f"robotsrules check --robots robots.txt {named} "
               f"{' '.join(map(_word, judged))}").rstrip()
    documents = licences_of(google, read_licences) if google.licenses else {}
    licences = tuple(Licence(f"licence-{number}", visible(url), document.state,
                             visible(document.error or "") if document.state != "ok" else "",
                             _json_shown(license_document_json(document)))
                     for number, (url, document) in enumerate(documents.items(), 1))

    # the page names the first documents and counts the others (more_licences)
    return Tested(answers, lines, findings, agents, crawler_rows(google, columns, documents),
                  tuple(visible(url) for url in columns), command, changes,
                  size > DEFAULT_MAX_BYTES, licences[:MAX_LICENCES],
                  max(0, len(documents) - MAX_LICENCES))
