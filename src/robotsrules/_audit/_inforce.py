"""The robots.txt in force at each request of a log, and the audit's verdict (issue 37).

Theory of operation. A :class:`History` is the site's robots.txt over time: versions, each
in force from its instant (inclusive) until the next one's (exclusive); before the first
there is no file known. :class:`Judge` answers (agent, URL, time):

* the version in force at the time and its verdict (``RobotsTxt.explain``: the deciding
  line) -- ``allowed`` when it allows;
* when it disallows, the caching allowance of RFC 9309 (September 2022) §2.4 (a crawler
  should not use a cached copy for more than 24 hours) is applied: the request is a
  ``violation`` only if every version in force at some instant of the closed window
  ``[time - window, time]`` disallows it. If one of them allows it, or the window reaches
  back before the first known version (what was in force then is not known), the answer
  is ``caching-allowance``: a crawler with a copy no older than the window may have read
  the URL as allowed. An accusation is made only on evidence;
* before the first version, or while the file's content is not known (see below):
  ``no-file``.

Where the readings differ. The verdict is Google's library's reading (SPEC's default
mode), which compares percent-encoded rules and targets as written (``Disallow: /%7Ejoe``
does not match ``/~joe``); RFC 9309 (September 2022) §2.2.2 decodes percent-encoded
unreserved characters before comparing, so there it does. A request the file in force
allows in Google's reading is also judged in RFC 9309's reading of the same file
(``parse(..., mode="rfc")``, :func:`robotsrules.robotstxt.reparse`: the project's one RFC
reading); when that disallows it, :attr:`Judgement.rfc_disallowed` is true: reported
apart ("disallowed only in RFC 9309's reading"), never a violation. Only a file or target
where the readings can differ is read twice (a ``%`` escape, Google's index.html rule, a
literal ``*`` or ``$`` or a non-ASCII character in the target).

:func:`with_fetches` moves the state in force by the log's own ``/robots.txt`` responses,
read as the fetch policy reads statuses (:func:`robotsrules.policy.outcome_for_status`;
RFC 9309 of September 2022, §2.3.1.3 and §2.3.1.4): a 4xx makes everything allowed from
then on; a 5xx, or a 429 (read as a 5xx, as the policy reads it after Google), leaves the
previous state in force, and with none before it everything is disallowed; a 2xx brings
back the history's file in force then (not known when the history has none then: the log
does not hold the body), and so does a 304 (the copy the crawler holds is still the file);
a new version of the history is in force from its instant whatever the log said before.
A logged redirect (301, 302, 303, 307, 308) says nothing of the final answer and changes
nothing; the other 1xx and 3xx are read as the policy reads them. The job gives each
crawler its own answers only (its own fetches of ``/robots.txt``: :mod:`._job`).

Each distinct (version, agent, URL) is judged once, in a bounded memo.

:func:`read_folder` is the one I/O here: a folder of files named by ISO 8601 date or UTC
timestamp (``2026-11-02.txt`` at midnight UTC, ``2026-11-02T06:00:00Z.txt``, or the basic
form ``20261102T060000Z.txt``), bounded in entries, versions, bytes per file and bytes in
all; whatever it does not use is counted by kind with examples. Git histories, WARC
captures and the robots caches' stored copies as sources of versions come later.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import bisect
import datetime
import os
import re
import stat
from collections.abc import Iterable
from typing import Literal, NamedTuple, Optional, Union

from robotsrules._lru import LRU
from robotsrules._rules._matcher import AgentRules
from robotsrules._tables._purposes import PURPOSE_GROUP_TOKENS
from robotsrules._terminal import visible
from robotsrules.model import Verdict
from robotsrules.policy import OK, REDIRECT_STATUSES, UNREACHABLE, outcome_for_status
from robotsrules.robotstxt import DEFAULT_MAX_BYTES, RobotsTxt, parse, reparse

__all__ = [
    "DAY",
    "Finding",
    "Findings",
    "History",
    "Judge",
    "Judgement",
    "Version",
    "instant_of",
    "read_folder",
    "with_fetches",
]

DAY = datetime.timedelta(hours=24)
"""RFC 9309 §2.4's caching allowance: the default window."""
MAX_ENTRIES = 100_000
"""Directory entries looked at, at most (names only)."""
MAX_VERSIONS = 1_000
"""Versions read, at most (the newest are kept)."""
MAX_TOTAL_BYTES = 64 * 1024 * 1024
"""Octets read from all files of a history together."""
MEMO = 65_536
"""Distinct (version, agent, URL) verdicts remembered."""
LONG_URL = 2_048
"""URLs longer than this are judged each time, never remembered (memory bounded)."""
EXAMPLES = 5

_UTC = datetime.timezone.utc
_UNIX = datetime.datetime(1970, 1, 1, tzinfo=_UTC)
_MICROSECOND = datetime.timedelta(microseconds=1)
_FIRST_MICROS = (datetime.datetime.min.replace(tzinfo=_UTC) - _UNIX) // _MICROSECOND
"""The first instant a ``datetime`` holds (year 1), in microseconds since 1970 UTC."""
_NAME = re.compile(
    r"(?P<y>[0-9]{4})-?(?P<mo>[0-9]{2})-?(?P<d>[0-9]{2})"
    r"(?:T(?P<h>[0-9]{2}):?(?P<mi>[0-9]{2}):?(?P<s>[0-9]{2})Z)?\.txt", re.ASCII)

Status = Literal["allowed", "violation", "caching-allowance", "no-file"]
Finding = Literal["not_a_date", "duplicate_instant", "not_a_file", "unreadable", "over_bound",
                  "too_many_versions", "too_many_entries", "over_total_bytes",
                  # the other sources of versions (``_history``)
                  "timeout", "git_error", "other_origin", "undated", "damaged", "redirect"]
"""What :func:`read_folder` counted: a ``.txt`` name (or any name) that is no date or
timestamp, a second file for the same instant (the first by name is kept), an entry that is
no regular file, a read error, a file over the per-file bound (read up to it: parsed as
Google's library does, truncated), versions past :data:`MAX_VERSIONS` (the oldest left out),
entries past :data:`MAX_ENTRIES` (not looked at), files past :data:`MAX_TOTAL_BYTES`
(the oldest left out). :func:`robotsrules._audit._history.read_history` adds: a git run over
its time bound or failing, a WARC capture or cache entry of another origin, a capture with no
date, damaged, or a redirect (none of them changes the version in force)."""


class Version(NamedTuple):
    """One robots.txt, in force from ``since`` (aware, UTC) until the next version's;
    ``robots`` is ``None`` when the file then is not known (a 2xx in the log with no
    version of the history in force, a history file that could not be read)."""

    since: datetime.datetime
    robots: Optional[RobotsTxt]
    source: str


class Judgement(NamedTuple):
    """The answer for one request. ``version`` is the file in force at its time and
    ``verdict`` that file's (both ``None`` for ``no-file``); ``allowing`` is, for
    ``caching-allowance``, the version in the window that allowed the URL or whose content
    is not known (``None`` when the window reaches back before the first version)."""

    status: Status
    version: Optional[Version]
    verdict: Optional[Verdict]
    allowing: Optional[Version] = None
    rfc_disallowed: Optional[bool] = None
    """For ``allowed``: whether RFC 9309's reading of the same file disallows the URL
    (``None`` for the other statuses)."""


def micros_of(time: datetime.datetime) -> int:
    """An aware ``time`` in microseconds since 1970-01-01 UTC (exact)."""
    return (time - _UNIX) // _MICROSECOND


class History:
    """Versions ordered by instant (two at one instant: the first given is kept)."""

    __slots__ = ("_micros", "_sinces", "versions")

    def __init__(self, versions: Iterable[Version]) -> None:
        by_instant: dict[datetime.datetime, Version] = {}
        for version in versions:
            if version.since.tzinfo is None:
                raise ValueError("a version's instant must be aware (UTC)")
            by_instant.setdefault(version.since, version)
        self.versions: tuple[Version, ...] = tuple(
            by_instant[since] for since in sorted(by_instant))
        self._sinces = [version.since for version in self.versions]
        self._micros = [micros_of(since) for since in self._sinces]

    def index_at(self, time: datetime.datetime) -> int:
        """The index of the version in force at ``time``, or -1 before the first."""
        return bisect.bisect_right(self._sinces, time) - 1

    def index_at_micros(self, micros: int) -> int:
        """:meth:`index_at` for a time given in microseconds since 1970 UTC (as a Parquet
        timestamp column holds it: no ``datetime`` made per request)."""
        return bisect.bisect_right(self._micros, micros) - 1

    def at(self, time: datetime.datetime) -> Optional[Version]:
        """The version in force at ``time`` (its own instant included), or ``None``."""
        index = self.index_at(time)
        return self.versions[index] if index >= 0 else None


class Judge:
    """Verdicts against a :class:`History` with a caching ``window`` (24 hours by default)."""

    __slots__ = ("_bound", "_memo", "_rfc", "_rfc_memo", "_rfc_read", "_rules", "_span",
                 "history", "window")

    def __init__(self, history: History, *, window: datetime.timedelta = DAY,
                 memo: int = MEMO,
                 verdicts: Optional[dict[tuple[int, str, str], Verdict]] = None) -> None:
        if window < datetime.timedelta(0):
            raise ValueError("the caching window cannot be negative")
        self.history = history
        self.window = window
        self._span = window // _MICROSECOND
        self._bound = max(1, memo)
        self._memo: dict[tuple[int, str, str], Verdict] = verdicts if verdicts is not None else {}
        """Verdicts by file (the ``RobotsTxt`` object, alive in :attr:`history`), agent and
        URL; ``verdicts`` shares one memo between judges (one bound for all the crawlers of
        a log, whose histories hold the same files)."""
        self._rfc: dict[int, tuple[RobotsTxt, bool]] = {}
        """By ``id`` of a version's file: the file, and whether its text can read
        differently in RFC 9309's reading (a ``%`` escape, an index.html rule)."""
        self._rfc_read: dict[int, RobotsTxt] = {}
        """By ``id`` of a version's file: its RFC 9309 reading, made when first needed."""
        self._rfc_memo: LRU[tuple[int, str, str], bool] = LRU(memo)
        self._rules: dict[tuple[int, str], tuple[RobotsTxt, Optional[AgentRules]]] = {}
        """By ``id`` of a version's file and agent: the file (so that the id stays its own)
        and its compiled rules for the agent, asked directly when they give
        ``RobotsTxt.explain``'s verdict (no usage line can apply), else ``None``."""

    def _explain(self, robots: RobotsTxt, agent: str, url: str) -> Verdict:
        """``robots.explain(url, agent=agent)``: the agent's compiled rules are kept once per
        file, and asked directly where the file has no line that can state a usage
        preference (none names ``signal`` or ``usage``, and no purpose group is known):
        there ``explain`` adds nothing to their verdict."""
        key = (id(robots), agent)
        held = self._rules.get(key)
        if held is None:
            lowered = robots.source.lower()
            rules = (robots.for_agent(agent) if robots.mode != "legacy"
                     and not PURPOSE_GROUP_TOKENS and b"signal" not in lowered
                     and b"usage" not in lowered else None)
            if len(self._rules) >= MEMO:
                self._rules.clear()
            held = self._rules[key] = (robots, rules)
        rules = held[1]
        return rules.explain(url) if rules is not None else robots.explain(url, agent=agent)

    def _verdict(self, index: int, agent: str, url: str) -> Optional[Verdict]:
        robots = self.history.versions[index].robots
        if robots is None:
            return None
        if len(url) > LONG_URL:  # a verdict holds its URL: a long one is not remembered
            return self._explain(robots, agent, url)
        key = (id(robots), agent, url)  # the file's: a log's fetches make many versions of few
        memo = self._memo
        verdict = memo.get(key)
        if verdict is None:
            verdict = self._explain(robots, agent, url)
            if len(memo) >= self._bound:  # a plain dict emptied when full: most URLs of a
                memo.clear()  # log are asked once, and a hit costs one C call compiled
            memo[key] = verdict
        return verdict

    def _rfc_disallows(self, index: int, agent: str, url: str) -> bool:
        """Whether RFC 9309's reading of version ``index`` disallows ``url`` (see the
        module docstring); false where the readings cannot differ."""
        robots = self.history.versions[index].robots
        if robots is None or robots.synthetic is not None:
            return False  # allow-all and disallow-all read the same in every mode
        held = self._rfc.get(id(robots))
        if held is None:  # the file kept beside its id, so that the id stays its own
            source = robots.source
            held = self._rfc[id(robots)] = (robots, b"%" in source
                                            or b"index.htm" in source.lower())
        if not held[1] and "%" not in url and "*" not in url and "$" not in url \
                and url.isascii():
            return False
        rfc = self._rfc_read.get(id(robots))
        if rfc is None:
            rfc = self._rfc_read[id(robots)] = reparse(robots.source, robots.truncated, None,
                                                       "rfc")
        if len(url) > LONG_URL:
            return not rfc.allowed(url, agent=agent)
        key = (index, agent, url)
        found = self._rfc_memo.get(key)
        if found is None:
            found = not rfc.allowed(url, agent=agent)
            self._rfc_memo.put(key, found)
        return found

    def judge(self, agent: str, url: str, time: datetime.datetime) -> Judgement:
        """The :class:`Judgement` of ``agent`` fetching ``url`` (a path or absolute URL of
        the site) at ``time`` (aware)."""
        return self.judge_micros(agent, url, micros_of(time))

    def judge_micros(self, agent: str, url: str, micros: int) -> Judgement:
        """:meth:`judge` at a time given in microseconds since 1970 UTC."""
        history = self.history
        last = history.index_at_micros(micros)
        if last < 0:
            return Judgement("no-file", None, None)
        version = history.versions[last]
        verdict = self._verdict(last, agent, url)
        if verdict is None:
            return Judgement("no-file", version, None)
        if verdict.allowed:
            return Judgement("allowed", version, verdict, None,
                             self._rfc_disallows(last, agent, url))
        # a window reaching before year 1: from the first instant (no earlier datetime)
        first = history.index_at_micros(max(micros - self._span, _FIRST_MICROS))
        if first < 0:
            return Judgement("caching-allowance", version, verdict)
        for index in range(last - 1, first - 1, -1):  # newest first: most often the one
            earlier = self._verdict(index, agent, url)
            if earlier is None or earlier.allowed:
                return Judgement("caching-allowance", version, verdict, history.versions[index])
        return Judgement("violation", version, verdict)


# ------------------------------------------------------- the log's own robots.txt fetches

MAX_CHANGES = 100_000
"""Changes of state made by the log's robots.txt fetches, at most."""
NOT_MODIFIED = 304
_ALLOW_ALL = RobotsTxt.allow_all()
_DISALLOW_ALL = RobotsTxt.disallow_all()


def with_fetches(history: History, fetches: Iterable[tuple[datetime.datetime, int]], *,
                 max_changes: int = MAX_CHANGES) -> tuple[History, int]:
    """``history`` with the state moved by the log's ``/robots.txt`` responses (aware
    time, status), in any order; and how many fetches were left out (0 normally): past
    ``max_changes`` changes of state, the file is not known from the next change on (its
    requests are ``no-file``, never judged against a stale state). A fetch at a version's
    instant is read after it."""
    events: list[tuple[datetime.datetime, int, int]] = [
        (version.since, 0, number) for number, version in enumerate(history.versions)]
    for time, status in fetches:
        if time.tzinfo is None:
            raise ValueError("a fetch's time must be aware (UTC)")
        if status in REDIRECT_STATUSES:
            continue
        events.append((time, 1, status))
    events.sort()
    states: list[Version] = []
    current: Optional[Version] = None  # the history's file, as last published
    state: Optional[Version] = None  # what is in force
    left_out = 0
    for position, (time, kind, value) in enumerate(events):
        if kind == 0:
            current = history.versions[value]
            new: Optional[Version] = current
        else:
            outcome = OK if value == NOT_MODIFIED else outcome_for_status(value)
            if outcome == OK:
                new = (Version(time, None, f"log: {value}, no version known") if current is None
                       else current)
            elif outcome == UNREACHABLE:
                new = state if state is not None else Version(
                    time, _DISALLOW_ALL, f"log: {value}, no earlier copy: all disallowed")
            else:  # unavailable (4xx), or forbidden under a legacy policy: never here
                new = Version(time, _ALLOW_ALL, f"log: {value}, all allowed")
        if new is None or (state is not None and new.robots is state.robots):
            continue
        if len(states) >= max_changes:  # from here on, not known: judged as no file
            states.append(Version(time, None, "log: too many changes of state"))
            left_out = sum(1 for event in events[position:] if event[1] == 1)
            break
        state = new
        states.append(new._replace(since=time))
    latest: dict[datetime.datetime, Version] = {}
    for version in states:  # the last state at an instant is the one in force
        latest[version.since] = version
    return History(latest.values()), left_out


# ------------------------------------------------------------------- the folder reader

def instant_of(name: str) -> Optional[datetime.datetime]:
    """The instant a history file's name gives (UTC), or ``None`` for no valid one."""
    match = _NAME.fullmatch(name)
    if match is None:
        return None
    try:
        return datetime.datetime(
            int(match["y"]), int(match["mo"]), int(match["d"]), int(match["h"] or 0),
            int(match["mi"] or 0), int(match["s"] or 0), tzinfo=_UTC)
    except ValueError:  # 2026-02-30, hour 24 and the like
        return None


class Findings:
    """Counts of :data:`Finding` kinds with up to :data:`EXAMPLES` examples each (control
    characters made visible)."""

    def __init__(self) -> None:
        self.counts: dict[Finding, int] = {}
        self.examples: dict[Finding, list[str]] = {}

    def count(self, kind: Finding, example: str, number: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + number
        kept = self.examples.setdefault(kind, [])
        if len(kept) < EXAMPLES:
            kept.append(visible(example[:200]))


def read_folder(
    path: Union[str, os.PathLike[str]], *,
    max_versions: int = MAX_VERSIONS,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_total_bytes: int = MAX_TOTAL_BYTES,
    max_entries: int = MAX_ENTRIES,
) -> tuple[History, Findings]:
    """The history a folder holds, and what was not used of it, counted.

    Raises ``OSError`` only when the folder itself cannot be listed.
    """
    findings = Findings()
    named: list[tuple[datetime.datetime, str, str]] = []
    seen = 0
    with os.scandir(path) as entries:
        for entry in entries:
            seen += 1
            if seen > max_entries:
                findings.count("too_many_entries", entry.name)
                break
            since = instant_of(entry.name)
            if since is None:
                findings.count("not_a_date", entry.name)
                continue
            named.append((since, entry.name, entry.path))
    named.sort()
    chosen: list[tuple[datetime.datetime, str, str]] = []
    for since, name, where in named:
        if chosen and chosen[-1][0] == since:
            findings.count("duplicate_instant", name)
        else:
            chosen.append((since, name, where))
    versions: list[Version] = []
    total = 0
    for number, (since, name, where) in enumerate(reversed(chosen)):  # newest first
        if len(versions) >= max_versions:
            findings.count("too_many_versions", name, len(chosen) - number)
            break
        body = _read(where, name, max_bytes, findings)
        if body is None:  # a version whose content is not known: never the one before it
            versions.append(Version(since, None, f"{name} (not read)"))
            continue
        if total + len(body) > max_total_bytes:
            findings.count("over_total_bytes", name, len(chosen) - number)
            break
        total += len(body)
        versions.append(Version(since, parse(body, max_bytes=max_bytes), name))
    return History(versions), findings


def _read(where: str, name: str, max_bytes: int, findings: Findings) -> Optional[bytes]:
    """Up to ``max_bytes + 1`` octets of a regular file (``None``, counted, otherwise):
    opened without blocking (a FIFO), checked on the open descriptor (no race with a
    rename), never read past the bound (``/dev/zero``, a sparse gigabyte)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(where, flags)
    except OSError as error:
        findings.count("unreadable", f"{name}: {error.strerror or error}")
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            findings.count("not_a_file", name)
            return None
        pieces: list[bytes] = []
        wanted = max_bytes + 1
        while wanted > 0:
            piece = os.read(descriptor, min(wanted, 1 << 16))
            if not piece:
                break
            pieces.append(piece)
            wanted -= len(piece)
    except OSError as error:
        findings.count("unreadable", f"{name}: {error.strerror or error}")
        return None
    finally:
        os.close(descriptor)
    body = b"".join(pieces)
    if len(body) > max_bytes:  # kept one octet over: parse marks the file truncated
        findings.count("over_bound", name)
    return body
