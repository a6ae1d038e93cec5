"""Where a robots.txt history comes from (issue 37's ``--robots-history PATH``).

:func:`read_history` looks at what the path is and reads it with the one reader for it:

* a **folder** of dated files: :func:`robotsrules._audit._inforce.read_folder`;
* a **git repository** (a work tree, or a bare repository): the commits of the first-parent
  line that touch the file (``robots.txt`` at the top, or the path given) are its versions,
  each in force from its committer time (UTC). A commit that deletes the file makes a
  version whose content is not known (the repository no longer says what the site served;
  no request is judged against it). The ``git`` executable does the reading, run with a time
  bound, a bounded number of commits (``git log -n``), output read in bounded pieces, the
  repository's own hooks, file-system monitor, pager, external diff and text conversion
  kept out, and repository discovery stopped at the path (``GIT_CEILING_DIRECTORIES``):
  a folder that is no repository is never read as the enclosing one. Why the executable
  and no library: git is on every machine that holds a git repository, it reads every
  object format and pack that exists (pure-Python readers lag behind: SHA-256
  repositories, reftables), and it adds no dependency;
* a **WARC** file (plain or gzip'd) of robots.txt captures (the project's WARC reader,
  :func:`robotsrules.warc.iter_captures`; the ``warc`` extra): the captures of the site's
  origin, by ``WARC-Date``, read as the fetch policy reads a fetch (RFC 9309 of September
  2022, §2.3.1): a 2xx capture is the file from then on; a 4xx makes everything allowed; a
  5xx (or 429) leaves the previous copy in force (everything disallowed with none before);
  a redirect, an undated or a damaged capture changes nothing (counted);
* a **cache store**: the SQLite file of a :class:`robotsrules.RobotsCache`
  (:class:`robotsrules.cache.sqlite.SQLiteStore`), opened read-only: the site's entry holds
  the last good copy and the latest fetch, each in force from its ``fetched_at``; an
  unreachable latest fetch leaves the good copy in force, as the cache serves it.

Everything read is a stranger's data: bounded in versions, octets per file, octets in all
and time (:class:`Bounds`); whatever is not used is counted in the caller's
:class:`Findings` by kind, with examples, and never raises. Only a path that cannot be
read at all, or that is none of the four, raises (``OSError``,
:class:`robotsrules.errors.InvalidArgument`): the caller's mistake.
"""

from __future__ import annotations

import datetime
import os
import sqlite3
import subprocess
import threading
import time
from collections.abc import Generator
from pathlib import Path
from typing import IO, NamedTuple, Optional, Union

from robotsrules._scope import origin_of
from robotsrules.errors import CorruptEntry, InvalidArgument, InvalidURL, MissingExtra
from robotsrules.policy import OK, UNREACHABLE, FetchResult
from robotsrules.robotstxt import DEFAULT_MAX_BYTES, parse

from ._inforce import (
    EXAMPLES,
    MAX_ENTRIES,
    MAX_TOTAL_BYTES,
    MAX_VERSIONS,
    Findings,
    History,
    Version,
    read_folder,
    with_fetches,
)

__all__ = ["Bounds", "read_history"]

TIMEOUT = 60.0
"""Seconds a history may take to read (the git runs together)."""
_SQLITE = b"SQLite format 3\x00"
_GZIP = b"\x1f\x8b"
_UTC = datetime.timezone.utc
_NO_OBJECT = "0" * 40
_FILE_MODES = ("100644", "100755")  # regular files; 120000 is a symbolic link, 160000 a submodule


class Bounds(NamedTuple):
    """What reading one history may spend."""

    max_versions: int = MAX_VERSIONS
    """Versions kept (the newest)."""
    max_bytes: int = DEFAULT_MAX_BYTES
    """Octets of each file read (the rest is cut, as Google's library cuts it)."""
    max_total_bytes: int = MAX_TOTAL_BYTES
    """Octets of all files together."""
    max_entries: int = MAX_ENTRIES
    """Folder entries or WARC captures looked at."""
    timeout: float = TIMEOUT
    """Seconds for the whole read: the git runs together; a WARC file's reading (checked at
    each robots.txt capture); a cache store's lock wait."""


def read_history(source: Union[str, os.PathLike[str]], *, findings: Findings,
                 bounds: Optional[Bounds] = None, site: Optional[str] = None,
                 path_in_repo: str = "robots.txt") -> History:
    """The robots.txt history ``source`` holds (see the module docstring for the four
    kinds). ``site`` (a URL of the site) chooses the origin in a WARC file or a cache store
    (without it: the only origin there, or the first one, the others counted);
    ``path_in_repo`` is the file's path inside a git repository; ``bounds``: the defaults of
    :class:`Bounds` unless given."""
    bounds = bounds if bounds is not None else Bounds()
    path = Path(source)
    if path.is_dir():
        if (path / ".git").exists() or _is_bare(path):
            return _git(path, path_in_repo, bounds, findings)
        history, found = read_folder(path, max_versions=bounds.max_versions,
                                     max_bytes=bounds.max_bytes,
                                     max_total_bytes=bounds.max_total_bytes,
                                     max_entries=bounds.max_entries)
        for kind, number in found.counts.items():  # into the caller's, examples and all
            findings.counts[kind] = findings.counts.get(kind, 0) + number
            kept = findings.examples.setdefault(kind, [])
            kept += found.examples.get(kind, [])[:EXAMPLES - len(kept)]
        return history
    with open(path, "rb") as handle:  # OSError: the caller's mistake, not a finding
        start = handle.read(16)
    wanted = _origin(site)
    if start.startswith(_SQLITE):
        return _cache(path, wanted, bounds, findings)
    if start.startswith(_GZIP) or start[:5].upper() == b"WARC/":
        return _warc(path, wanted, bounds, findings)
    raise InvalidArgument(
        f"{os.fspath(source)!r} is no robots.txt history: a folder of dated files, a git "
        "repository, a WARC file of robots.txt captures or a robots cache's SQLite file")


def _origin(site: Optional[str]) -> Optional[str]:
    if site is None:
        return None
    try:
        return origin_of(site)
    except InvalidURL as error:
        raise InvalidArgument(f"--site: {error}") from None


def _is_bare(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir() and (
        path / "refs").is_dir()


def _newest(versions: list[Version], bounds: Bounds, findings: Findings) -> list[Version]:
    """The newest ``max_versions`` whose bodies fit ``max_total_bytes`` together (counted)."""
    versions.sort(key=lambda version: version.since, reverse=True)
    kept: list[Version] = []
    total = 0
    for number, version in enumerate(versions):
        if len(kept) >= bounds.max_versions:
            findings.count("too_many_versions", version.source, len(versions) - number)
            break
        size = len(version.robots.source) if version.robots is not None else 0
        if total + size > bounds.max_total_bytes:
            findings.count("over_total_bytes", version.source, len(versions) - number)
            break
        total += size
        kept.append(version)
    return kept


# ------------------------------------------------------------------------------- git

class _Runner:
    """``git`` runs in one repository under one deadline, their output read in pieces."""

    def __init__(self, repository: Path, timeout: float) -> None:
        self.repository = repository
        self.deadline = timeout
        self.timed_out = False
        parent = os.fspath(repository.resolve().parent)
        self.env = {**os.environ, "GIT_CEILING_DIRECTORIES": parent, "GIT_TERMINAL_PROMPT": "0",
                    "GIT_OPTIONAL_LOCKS": "0", "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}
        for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                     "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG_PARAMETERS"):
            self.env.pop(name, None)

    def start(self, *arguments: str) -> subprocess.Popen[bytes]:
        command = ["git", "--no-pager", "-c", "core.fsmonitor=false", "-c",
                   "core.hooksPath=/dev/null", "-C", os.fspath(self.repository), *arguments]
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=self.env)
        timer = threading.Timer(self.deadline, self._expire, (process,))
        timer.daemon = True
        timer.start()
        process.timer = timer  # type: ignore[attr-defined]
        return process

    def _expire(self, process: subprocess.Popen[bytes]) -> None:
        self.timed_out = True
        process.kill()

    @staticmethod
    def finish(process: subprocess.Popen[bytes]) -> tuple[int, str]:
        """Wait for ``process``; its exit status and the first line of its errors."""
        assert process.stderr is not None
        error = process.stderr.read(4096).decode("utf-8", "replace")
        status = process.wait()
        process.timer.cancel()  # type: ignore[attr-defined]
        return status, (error.strip().splitlines() or [""])[0]


def _commits(runner: _Runner, path_in_repo: str, bounds: Bounds,
             findings: Findings) -> list[tuple[datetime.datetime, str, str]]:
    """(committer time, commit, blob or :data:`_NO_OBJECT` for a deletion), newest first."""
    process = runner.start(
        "log", "--first-parent", "--no-renames", "--no-ext-diff", "--no-textconv",
        "--no-abbrev", "--raw", "--format=%x00%H %ct", "-n", str(bounds.max_versions + 1),
        "--", f":(literal){path_in_repo}")
    assert process.stdout is not None and process.stdin is not None
    process.stdin.close()
    # -n bounds the commits; each holds one line and one raw line of this one path.
    output = process.stdout.read(256 * (bounds.max_versions + 1) + 4 * len(path_in_repo) * (
        bounds.max_versions + 1))
    process.stdout.close()
    status, error = runner.finish(process)
    if runner.timed_out:
        findings.count("timeout", f"git log: over {bounds.timeout:g} s")
        return []
    if status != 0:
        findings.count("git_error", f"git log: {error or f'exit status {status}'}")
        return []
    found: list[tuple[datetime.datetime, str, str]] = []
    for chunk in output.decode("utf-8", "replace").split("\0")[1:]:
        head, _, rest = chunk.partition("\n")
        commit, _, seconds = head.partition(" ")
        raw = next((line.split() for line in rest.splitlines()
                    if line.startswith(":") and len(line.split()) >= 5), None)
        if raw is None or not seconds.isdigit():
            continue  # a commit that left the file as it was (a merge's first parent)
        when = datetime.datetime.fromtimestamp(int(seconds), _UTC)
        blob = raw[3]
        if raw[1] not in _FILE_MODES and blob != _NO_OBJECT:  # a symbolic link, a submodule
            findings.count("not_a_file", f"git {commit[:12]} {path_in_repo}: mode {raw[1]}")
            blob = _NO_OBJECT  # its content is a link's target, not the file: not known
        found.append((when, commit, blob))
    if len(found) > bounds.max_versions:
        findings.count("too_many_versions", f"git: commits before {found[-1][1][:12]}")
        del found[bounds.max_versions:]
    return found


def _blobs(runner: _Runner, wanted: list[str], bounds: Bounds,
           findings: Findings) -> Generator[tuple[str, bytes], None, None]:
    """(blob, its first ``max_bytes + 1`` octets) for each of ``wanted`` that git has."""
    process = runner.start("cat-file", "--batch")
    assert process.stdout is not None and process.stdin is not None
    stdin, stdout = process.stdin, process.stdout

    def ask() -> None:  # a thread: git may fill its output before reading all names
        try:
            stdin.write("".join(f"{blob}\n" for blob in wanted).encode("ascii"))
            stdin.close()
        except OSError:  # git ended (killed at the deadline)
            pass

    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    stopped = True  # by the caller (enough read), or by an error here
    try:
        for _ in wanted:
            head = stdout.readline(200).split()
            if len(head) != 3 or not head[2].isdigit():
                break  # "<blob> missing", or git was stopped
            size = int(head[2])
            body = _read_part(stdout, size, bounds.max_bytes + 1)
            if body is None:
                break
            yield head[0].decode("ascii", "replace"), body
        stopped = False
    finally:
        if stopped:
            process.kill()
        stdout.close()
        asking.join()
        status, error = runner.finish(process)
        if runner.timed_out:
            findings.count("timeout", f"git cat-file: over {bounds.timeout:g} s")
        elif status != 0 and not stopped:
            findings.count("git_error", f"git cat-file: {error or f'exit status {status}'}")


def _read_part(stream: IO[bytes], size: int, keep: int) -> Optional[bytes]:
    """The first ``keep`` of the next ``size`` octets (and the newline after them) of
    ``stream``; the rest is read and dropped in pieces. ``None`` if the stream ends first."""
    pieces: list[bytes] = []
    left = size + 1
    kept = 0
    while left > 0:
        piece = stream.read(min(left, 1 << 16))
        if not piece:
            return None
        left -= len(piece)
        if kept < keep:
            pieces.append(piece[:keep - kept])
            kept += len(pieces[-1])
    body = b"".join(pieces)
    return body[:size]


def _git(repository: Path, path_in_repo: str, bounds: Bounds, findings: Findings) -> History:
    runner = _Runner(repository, bounds.timeout)
    commits = _commits(runner, path_in_repo, bounds, findings)
    present = [blob for _, _, blob in commits if blob != _NO_OBJECT]
    bodies: dict[str, bytes] = {}
    total = 0
    wanted = list(dict.fromkeys(present))  # newest first: the oldest are left out
    over = False
    reading = _blobs(runner, wanted, bounds, findings)
    for blob, body in reading if wanted else ():
        if total + len(body) > bounds.max_total_bytes:
            findings.count("over_total_bytes", f"git: blob {blob[:12]} and older",
                           len(wanted) - len(bodies))
            over = True
            break
        total += len(body)
        bodies[blob] = body
    reading.close()
    versions: list[Version] = []
    for when, commit, blob in commits:
        label = f"git {commit[:12]} {path_in_repo}"
        if blob == _NO_OBJECT:
            versions.append(Version(when, None, f"{label}: deleted or no file, not known"))
            continue
        kept = bodies.get(blob)
        if kept is None:  # over the total bound (counted), or not given by git
            if not over:
                findings.count("unreadable", f"{label}: not read")
            versions.append(Version(when, None, f"{label}: not read, not known"))
            continue
        versions.append(_parsed(when, kept, label, bounds, findings))
    return History(versions)


def _parsed(when: datetime.datetime, body: bytes, label: str, bounds: Bounds,
            findings: Findings) -> Version:
    if len(body) > bounds.max_bytes:  # kept one octet over: parse marks the file truncated
        findings.count("over_bound", label)
    return Version(when, parse(body, max_bytes=bounds.max_bytes), label)


# ------------------------------------------------------------------------------ WARC

def _warc(path: Path, wanted: Optional[str], bounds: Bounds, findings: Findings) -> History:
    with MissingExtra.guard("robots.txt histories from WARC files", "warc"):
        from robotsrules.warc import WarcStats, iter_captures
    stats = WarcStats()
    versions: list[Version] = []
    fetches: list[tuple[datetime.datetime, int]] = []
    captures = iter_captures(path, max_bytes=bounds.max_bytes + 1, stats=stats)
    deadline = time.monotonic() + bounds.timeout
    for seen, capture in enumerate(captures, 1):
        if seen > bounds.max_entries:
            findings.count("too_many_entries", capture.url)
            break
        if time.monotonic() > deadline:  # checked at each capture: a WARC of pages is long
            findings.count("timeout", f"WARC: over {bounds.timeout:g} s, at {capture.url}")
            break
        wanted = wanted if wanted is not None else capture.origin
        label = f"WARC {capture.date:%Y-%m-%dT%H:%M:%SZ} {capture.url}" if capture.date else (
            f"WARC {capture.url}")
        if capture.origin != wanted:
            findings.count("other_origin", capture.url)
        elif capture.date is None:
            findings.count("undated", label)
        elif capture.damaged is not None or capture.status is None:
            findings.count("damaged", f"{label}: {capture.damaged}")
        elif 300 <= capture.status < 400:
            findings.count("redirect", f"{label}: {capture.status}")
        elif 200 <= capture.status < 300:
            versions.append(_parsed(capture.date, capture.body, label, bounds, findings))
        else:
            fetches.append((capture.date, capture.status))
    for note in stats.errors:
        findings.count("unreadable", f"WARC: {note}")
    history, left_out = with_fetches(History(_newest(versions, bounds, findings)), fetches,
                                     max_changes=bounds.max_versions)
    if left_out:
        findings.count("too_many_versions", "WARC: answers after the last change kept",
                       left_out)
    return history


# ----------------------------------------------------------------------- cache store

def _cache(path: Path, wanted: Optional[str], bounds: Bounds, findings: Findings) -> History:
    from robotsrules.cache.codec import decode

    uri = f"{path.resolve().as_uri()}?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True, timeout=bounds.timeout)
    except sqlite3.Error as error:
        findings.count("unreadable", f"cache: {error}")
        return History(())
    try:
        # The robots.txt entries are stored by origin ("scheme://host[:port]"); other
        # files by their URL or a prefix: skipped by the shape of the name.
        rows = connection.execute(
            "SELECT origin, data FROM entries WHERE origin NOT LIKE '%://%/%' "
            "ORDER BY origin LIMIT ?", (bounds.max_entries + 1,)).fetchall()
    except sqlite3.Error as error:
        findings.count("unreadable", f"cache: {error}")
        return History(())
    finally:
        connection.close()
    versions: list[Version] = []
    for number, (origin, data) in enumerate(rows):
        if number >= bounds.max_entries:
            findings.count("too_many_entries", str(origin))
            break
        wanted = wanted if wanted is not None else str(origin)
        if origin != wanted:
            findings.count("other_origin", str(origin))
            continue
        if not isinstance(data, bytes) or len(data) > bounds.max_total_bytes:
            findings.count("unreadable", f"cache {origin}: not an entry")
            continue
        try:
            entry = decode(data)
        except (CorruptEntry, ValueError) as error:
            findings.count("unreadable", f"cache {origin}: {error}")
            continue
        results: list[FetchResult] = [] if entry.good is None else [entry.good]
        if entry.latest is not entry.good and (
                entry.latest.outcome != UNREACHABLE or entry.good is None):
            results.append(entry.latest)  # unreachable: the good copy stays, as served
        for result in results:
            when = datetime.datetime.fromtimestamp(result.fetched_at, _UTC)
            label = (f"cache {when:%Y-%m-%dT%H:%M:%SZ} {origin}: {result.outcome}"
                     f"{f' {result.status}' if result.status is not None else ''}")
            if result.outcome == OK and len(result.body) > bounds.max_bytes:
                versions.append(_parsed(when, result.body, label, bounds, findings))
            else:
                versions.append(Version(when, result.robots, label))
    return History(_newest(versions, bounds, findings))
