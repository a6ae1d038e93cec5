"""Every input the command line reads, read through one bounded reader.

A file, ``-`` (standard input) or a URL: :func:`read_input` reads at most what the command
uses (a robots.txt: the 500 KiB a crawler reads, RFC 9309 §2.5; a saved page: its headers
and ``--max-head-bytes``; a licence document: its limit, one octet more so that a longer
one is refused), never the rest, so a 300 MB file costs no more than a 500 KiB one and an
endless pipe (``yes | robotsrules page -``) ends. A URL is fetched by the project's
fetcher, bounded the same way. A URL list (``check --urls-file``, ``diff --urls``) is
streamed line by line, each line at most :data:`MAX_LIST_LINE` octets; ``diff`` holds at
most :data:`MAX_LIST_URLS` of them.

:func:`robots_source` is the one way a command names the robots.txt it reads: its
``FILE_OR_URL`` argument, or ``--robots FILE_OR_URL`` (accepted with a hint).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO, Callable, NamedTuple, Optional

from ..errors import RobotsError
from ..robotstxt import DEFAULT_MAX_BYTES, Mode, RobotsTxt, parse
from ._common import outcome_meaning
from ._options import is_url, signer, source_url, user_agent
from ._output import note

__all__ = [
    "MAX_LIST_LINE",
    "MAX_LIST_URLS",
    "Input",
    "Loaded",
    "explain_fetch",
    "in_mode",
    "list_lines",
    "load",
    "load_source",
    "not_utf8",
    "read_input",
    "read_robots",
    "robots_source",
    "size_words",
    "url_lines",
]

MAX_LIST_LINE = 65_536
"""Octets of a URL list line at most (a longer one is reported, not held in memory)."""

MAX_LIST_URLS = 100_000
"""URLs a command holds from a list at most (``diff --urls``); ``check`` streams."""

_CHUNK = 1 << 16


class Input(NamedTuple):
    """What :func:`read_input` read: at most ``limit`` octets, whether there was more
    (``cut``), and the size when the source knows it (a regular file)."""

    data: bytes
    name: str
    cut: bool
    size: Optional[int]


def _label(name: str) -> str:
    return "<stdin>" if name == "-" else name


def read_input(name: str, limit: int) -> Input:
    """At most ``limit`` octets of the file ``name`` (``'-'``: standard input), and whether
    it holds more. The rest is never read: a pipe fed forever ends here. A directory, a
    missing file or one that cannot be read is a :class:`~robotsrules.RobotsError`."""
    if is_url(name):  # a URL-shaped name is never a file (./name is)
        raise RobotsError(f"{name}: a URL here is not fetched: give a file or '-'")
    with contextlib.ExitStack() as stack:
        handle: BinaryIO
        size: Optional[int] = None
        if name == "-":
            handle = sys.stdin.buffer
        else:
            if os.path.isdir(name):
                raise RobotsError(f"{name}: is a directory, not a file")
            try:
                handle = stack.enter_context(open(name, "rb"))
            except OSError as error:
                raise RobotsError(f"{name}: {error.strerror or error}") from None
            with contextlib.suppress(OSError):
                info = os.fstat(handle.fileno())
                if stat.S_ISREG(info.st_mode):
                    size = info.st_size
        parts = []
        wanted = limit + 1  # one octet more: is there anything past the limit?
        try:
            while wanted > 0:
                chunk = handle.read(min(_CHUNK, wanted))
                if not chunk:
                    break
                parts.append(chunk)
                wanted -= len(chunk)
        except OSError as error:
            raise RobotsError(f"{_label(name)}: cannot read: {error.strerror or error}"
                              ) from None
        data = b"".join(parts)
        return Input(data[:limit], _label(name), len(data) > limit, size)


def size_words(got: Input, limit: int) -> str:
    return (f"is {got.size:,} bytes" if got.size is not None
            else f"holds more than {limit:,} bytes")


def read_robots(name: str, mode: Mode = "google") -> RobotsTxt:
    """A robots.txt file (``'-'``: standard input) parsed in ``mode``: its first 500 KiB,
    as a crawler reads it; a note on standard error when there was more."""
    got = read_input(name, DEFAULT_MAX_BYTES)
    if got.cut:
        note(f"{got.name} {size_words(got, DEFAULT_MAX_BYTES)}: only its first "
             f"{DEFAULT_MAX_BYTES:,} are read, as Google's crawler reads them (RFC 9309 §2.5, "
             "September 2022: a parser reads at least 500 KiB)")
        # one octet past the limit, as the file had: parse cuts there and says so
        # (RobotsTxt.truncated), exactly as it reads the whole file
        return parse(got.data + b"\n", mode=mode)
    return parse(got.data, mode=mode)


def in_mode(robots: RobotsTxt, mode: Mode) -> RobotsTxt:
    """``robots`` read in ``mode``: fetched files are parsed as Google does, then re-read."""
    if robots.mode == mode or robots.synthetic is not None:
        return robots  # allow-all / disallow-all mean the same in every mode
    return parse(robots.source, max_bytes=None, mode=mode)  # already cut when fetched


class Loaded(NamedTuple):
    """A robots.txt a command read: the file, a line saying where from, and the fetch's
    result when it was fetched (``None`` for a file)."""

    robots: RobotsTxt
    origin: str
    fetched: Any


def load(source: str, args: argparse.Namespace) -> tuple[RobotsTxt, str]:
    """A robots.txt from a file path, '-' (stdin) or a URL (fetched); with a note on how."""
    loaded = load_source(source, args)
    return loaded.robots, loaded.origin


def load_source(source: str, args: argparse.Namespace,
                agents: Optional[Sequence[str]] = None) -> Loaded:
    """:func:`load` with the fetch's result; a fetch that found no file, or none that
    could be read, is said on standard error with what it means (the answer on standard
    output is the status rules' answer). ``agents``: the command's agents, for the
    User-Agent header (:func:`robotsrules.cli._options.user_agent`)."""
    mode: Mode = getattr(args, "mode", "google")
    if not is_url(source):
        return Loaded(read_robots(source, mode), source, None)
    from .._fetch._fetcher import fetch

    source_url(source)
    result = fetch(source, user_agent=user_agent(args, agents=agents), timeout=args.timeout,
                   sign=signer(args))
    where = f"{result.url}: HTTP {result.status}" if result.status else result.url
    if result.outcome != "ok":
        where += f", {result.outcome}: {result.error} -> {outcome_meaning(result.outcome)}"
        explain_fetch(result.url, result.outcome, result.error, result.status)
    return Loaded(in_mode(result.robots, mode), where, result)


def explain_fetch(url: str, outcome: str, error: Optional[str], status: Optional[int],
                  cached_until: Optional[str] = None,
                  offline: str = "give a file instead of the URL") -> None:
    """One note on standard error for a robots.txt whose failure disallows every URL of
    its site (RFC 9309 §2.3.1): what happened, what it means, until when it is cached. A
    missing file (4xx: everything allowed) surprises nobody and gets none; the answer on
    stdout says it."""
    kept = (f"; this answer is cached until {cached_until} (--refresh fetches again)"
            if cached_until else "")
    if outcome == "forbidden":
        note(f"{url}: HTTP {status}: the server refuses the robots.txt, read (by the fetch "
             f"policy) as every URL of the site disallowed{kept}")
    elif outcome == "unreachable":
        why = f"HTTP {status}" if status else (error or outcome)
        note(f"{url} could not be fetched ({why}): an unreachable robots.txt means every URL "
             f"of the site is disallowed for now (RFC 9309 §2.3.1.4){kept}; offline, {offline}")


def robots_source(args: argparse.Namespace, command: str, urls: str = "") -> str:
    """The robots.txt a one-file command reads: ``FILE_OR_URL``, or ``--robots`` (the
    form of ``check`` and ``page``), accepted with a hint naming the usual form. ``urls``:
    the attribute of the URLs that follow the file (then, with ``--robots``, the first
    positional argument is one of them)."""
    given = getattr(args, "source", None)
    other = getattr(args, "robots", None)
    if other is not None and given is not None and urls:
        setattr(args, urls, [given, *getattr(args, urls)])
        given = args.source = None
    if other is not None and given is not None:
        raise RobotsError(f"give the robots.txt once: as FILE_OR_URL ({given}) or as "
                          f"--robots ({other}), not both")
    if other is not None:
        note(f"'{command} --robots {other}' read as '{command} {other}' (the file is the "
             "first argument)")
        args.source = other
        return str(other)
    if given is None:
        raise RobotsError(f"no robots.txt given: robotsrules {command} FILE_OR_URL ...")
    return str(given)


def url_lines(name: str, max_octets: Optional[int] = None
              ) -> Iterator[tuple[str, Optional[str], Optional[str]]]:
    """The URLs of a list file ('-': stdin), streamed: ``(where, URL, problem)`` with one
    of URL and problem set. One URL a line, blank lines and '#' comments skipped, of
    ``host<TAB>url`` the last field, a UTF-8 BOM skipped; a ``.gz`` file is decompressed;
    a line longer than :data:`MAX_LIST_LINE` or not UTF-8 is a problem. ``max_octets``:
    a list longer than that (read, not held) is a :class:`~robotsrules.RobotsError`; without
    it a list is a stream, read for as long as it lasts (in constant memory)."""
    for where, line, problem in list_lines(name, max_octets):
        yield where, None if line is None else line.rsplit("\t", 1)[-1].strip(), problem


def not_utf8(octet: int, column: int) -> str:
    """What is wrong with a URL holding ``octet`` (not UTF-8) at ``column``: the one wording of
    a list line's and of a command-line argument's problem."""
    return f"not UTF-8 (octet 0x{octet:02x} at column {column}); percent-encode it (%{octet:02X})"


def list_lines(name: str, max_octets: Optional[int] = None, *, fields: bool = False
               ) -> Iterator[tuple[str, Optional[str], Optional[str]]]:
    """The lines of a list file ('-': stdin), streamed as :func:`url_lines` reads them
    (comments, blank lines and a BOM skipped, ``.gz`` decompressed, over-long or non-UTF-8
    lines a problem), each whole and stripped: ``(where, line, problem)``. With ``fields``
    only the line end and leading white space are stripped: a trailing tab or space still
    says an (empty) field follows."""
    import gzip
    import zlib

    label = _label(name)
    with contextlib.ExitStack() as stack:
        handle: Any
        if name == "-":
            handle = sys.stdin.buffer
        elif os.path.isdir(name):
            raise RobotsError(f"{name}: is a directory, not a file")
        elif name.lower().endswith((".gz", ".gzip")):
            handle = stack.enter_context(gzip.open(name, "rb"))
        else:
            handle = stack.enter_context(open(name, "rb"))
        number = 0
        try:
            for number, (raw, too_long) in enumerate(_lines(handle.readline, label,
                                                            max_octets), 1):
                where = f"{label}:{number}"
                if too_long:
                    yield where, None, f"longer than {MAX_LIST_LINE:,} octets"
                    continue
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    yield where, None, not_utf8(raw[error.start], error.start + 1)
                    continue
                if number == 1:
                    text = text.lstrip("\ufeff")
                line = text.rstrip("\r\n").lstrip() if fields else text.strip()
                if line and not line.startswith("#"):
                    yield where, line, None
        except (EOFError, zlib.error, gzip.BadGzipFile) as error:
            raise RobotsError(f"{label}: cannot read past line {number}: {error}") from None


def _lines(readline: Callable[[int], bytes], label: str = "",
           max_octets: Optional[int] = None) -> Iterator[tuple[bytes, bool]]:
    """The lines of a binary stream, each with True when it was longer than
    :data:`MAX_LIST_LINE` (then only its start is kept; the rest is read and dropped);
    past ``max_octets`` read, a :class:`~robotsrules.RobotsError`."""
    read = 0

    def counted(size: int) -> bytes:
        nonlocal read
        data = readline(size)
        read += len(data)
        if max_octets is not None and read > max_octets:
            raise RobotsError(f"{label}: longer than {max_octets:,} octets: this command "
                              "reads no more of a URL list")
        return data

    while True:
        raw = counted(MAX_LIST_LINE + 1)
        if not raw:
            return
        if len(raw) <= MAX_LIST_LINE or raw.endswith(b"\n"):
            yield raw, False
            continue
        while True:  # skip to the end of the over-long line
            rest = counted(MAX_LIST_LINE)
            if not rest or rest.endswith(b"\n"):
                break
        yield raw[:MAX_LIST_LINE], True
