"""The owner's choices for :func:`robotsrules.generate`: a frozen, picklable value.

A :class:`GeneratePolicy` says, per crawler token and per registry category, one of four things
(:class:`AgentChoice`): ``block`` (nothing may be fetched), ``block-paths`` (the site-wide
paths and these paths may not be fetched), ``allow`` (everything may be fetched, the
site-wide paths too) or ``allow-paths`` (only these paths may be fetched). Every crawler the
policy does not name reads the ``*`` group: the site-wide paths (``disallow_paths``) are
closed to it. The policy also holds the usage preferences, crawl delays, sitemaps and an RSL
licence URL. :meth:`GeneratePolicy.from_data` and :meth:`GeneratePolicy.to_data` read and
write it as the plain data of a JSON or TOML policy file.

Paths are literal URL path prefixes (``/private/`` closes ``/private/`` and everything
below it); a pattern (``*``, or ``$`` at the end) is refused, as ``urllib.robotparser``
reads it as plain text. :func:`canonical_path` writes a path percent-encoded: ``$``,
``[``, ``]``, ``|``, ``^``, spaces, control characters and non-ASCII characters (UTF-8),
escapes upper-cased; :func:`spellings` adds the spelling a browser sends (``$``, ``[``,
``]``, ``|``, ``^`` as they are), which Google's reader does not equate with the escape.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal, NamedTuple, Optional, Union, cast, get_args

from .._rules._agents import agent_tokens
from .._tables._purposes import CONTENT_SIGNALS, CURRENT_CATEGORIES
from ..errors import GenerateError, InvalidAgent

__all__ = ["ACTIONS", "MAX_ITEMS", "MAX_PATH", "USAGE_PURPOSES", "Action", "AgentChoice",
           "GeneratePolicy", "canonical_path", "check_seconds", "check_token", "spellings"]

Action = Literal["block", "block-paths", "allow", "allow-paths"]
"""What a crawler may fetch: nothing, all but some paths, everything, only some paths."""

ACTIONS: Final[tuple[Action, ...]] = get_args(Action)

USAGE_PURPOSES: Final[tuple[str, ...]] = (*CONTENT_SIGNALS,
                                          *(c for c in CURRENT_CATEGORIES
                                            if c not in CONTENT_SIGNALS))
"""The purposes a policy may state: the Content Signals names and the labels of the
current aipref vocabulary revision (draft-ietf-aipref-vocab-07, 2026-08-19)."""

MAX_PATH: Final = 2048
"""Octets of one path at most, percent-encoded (far below Google's 16,663-octet line cut)."""

MAX_ITEMS: Final = 10_000
"""Tokens, categories, paths, sitemaps or delays a policy holds at most, each."""

# RFC 3986 unreserved and sub-delims but '$' and '*', with ':', '@', '/', '?' and '%':
# kept as written; every other octet is percent-encoded.
_KEPT: Final = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                         b"-._~!&'()+,;=:@/?")
_ESCAPE: Final = re.compile(r"%[0-9A-Fa-f]{2}")


def canonical_path(path: str) -> str:
    """``path`` as a crawler requests it and as the rule is written (see the module
    docstring); raises :class:`~robotsrules.GenerateError` for a path that does not start
    with ``/`` or is too long."""
    if not isinstance(path, str):
        raise TypeError(f"a path must be a str, not {type(path).__name__}")
    if not path.startswith("/"):
        raise GenerateError(f"path {path!r} does not start with '/': robots.txt rules are "
                            "URL paths (write '/' + the path)")
    if path.startswith("//"):
        raise GenerateError(f"path {path[:40]!r} starts with '//', which URL readers such as "
                            "urllib.robotparser take for a host name: write it with one '/'")
    if "#" in path or "%23" in path.upper():
        raise GenerateError(f"path {path[:40]!r} holds '#': urllib.robotparser decodes '%23' "
                            "and cuts the path there, so no rule can name it for every reader")
    if "*" in path or "%2A" in path.upper() or path.endswith("$") or path.upper().endswith(
            "%24"):
        raise GenerateError(f"path {path[:40]!r} is a pattern ('*', or '$' at the end): Google "
                            "and RFC 9309 read it as a wildcard, urllib.robotparser as plain "
                            "text, so no file makes every reader agree; give path prefixes")
    octets = path.encode("utf-8", "surrogateescape")
    out: list[str] = []
    index = 0
    while index < len(octets):
        octet = octets[index]
        if octet == 0x25 and _ESCAPE.fullmatch(octets[index:index + 3].decode("latin-1")):
            out.append(octets[index:index + 3].decode("ascii").upper())
            index += 3
            continue
        out.append(chr(octet) if octet in _KEPT else f"%{octet:02X}")
        index += 1
    written = "".join(out)
    if len(written) > MAX_PATH:
        raise GenerateError(f"path {path[:40]!r}... is {len(written):,} octets percent-encoded; "
                            f"a generated rule holds at most {MAX_PATH:,}")
    return written


# Octets a browser sends as they are in a path (WHATWG URL path percent-encode set) but
# canonical_path escapes: each such path is written in both spellings.
_RAW: Final = {"%24": "$", "%5B": "[", "%5D": "]", "%7C": "|", "%5E": "^"}
_RAW_ESCAPE: Final = re.compile("|".join(_RAW))
_RAW_CHARS: Final = re.compile("[" + re.escape("".join(_RAW.values())) + "]")


def spellings(path: str) -> tuple[str, ...]:
    """The spellings of the canonical ``path`` a rule must name: the percent-encoded one and,
    when it differs, the one a browser sends (``$``, ``[``, ``]``, ``|``, ``^`` as they are),
    because Google's reader compares octets and decodes no escape (RFC 9309 §2.2.2 decodes
    only unreserved characters' escapes)."""
    raw = _RAW_ESCAPE.sub(lambda m: _RAW[m.group(0)], path)
    return (path,) if raw == path else (path, raw)


def check_token(token: str) -> str:
    """``token`` as written in a ``User-agent`` line: a product token (``[A-Za-z_-]+``) or
    ``*``; a ``Token/1.0`` form is cut to its token. Raises
    :class:`~robotsrules.GenerateError` for anything else."""
    if not isinstance(token, str):
        raise TypeError(f"a token must be a str, not {type(token).__name__}")
    if token.strip() == "*":
        return "*"
    try:
        tokens = agent_tokens(token)
    except InvalidAgent:
        tokens = ()
    written = token.strip().split("/", 1)[0].strip()
    if len(tokens) != 1 or written.lower() != tokens[0]:
        raise GenerateError(f"{token!r} is not a crawler's product token ([A-Za-z_-]+, as "
                            "Google's reader cuts a User-agent value): no group can name it")
    return written


class AgentChoice(NamedTuple):
    """What one crawler (or every crawler of a category) may fetch."""

    action: Action
    """``"block"``, ``"block-paths"``, ``"allow"`` or ``"allow-paths"``."""
    paths: tuple[str, ...] = ()
    """The paths of ``block-paths`` and ``allow-paths`` (as given; see :func:`canonical_path`)."""

    def checked(self) -> AgentChoice:
        """The same choice with its paths percent-encoded, each once, in order; raises
        :class:`~robotsrules.GenerateError` for a choice that means nothing."""
        if self.action not in ACTIONS:
            raise GenerateError(f"unknown choice {self.action!r}; valid: {', '.join(ACTIONS)}")
        if self.action in ("block", "allow") and self.paths:
            raise GenerateError(f"choice {self.action!r} takes no paths (use "
                                f"'{self.action}-paths')")
        if self.action == "allow-paths" and not self.paths:
            raise GenerateError("choice 'allow-paths' needs at least one path")
        paths = _bounded(self.paths, "paths")
        return AgentChoice(self.action, tuple(dict.fromkeys(canonical_path(p) for p in paths)))

    def allows(self, target: str, site_wide: Iterable[str]) -> bool:
        """Whether the match target ``target`` (either spelling) may be fetched under this
        choice (the checked choice, its paths and ``site_wide`` percent-encoded)."""
        if self.action == "block":
            return False
        if self.action == "allow":
            return True
        target = _RAW_CHARS.sub(lambda m: f"%{ord(m.group(0)):02X}", target)  # one spelling
        if self.action == "allow-paths":
            return any(target.startswith(path) for path in self.paths)
        return not any(target.startswith(path) for path in (*site_wide, *self.paths))


Pairs = tuple[tuple[str, AgentChoice], ...]


class GeneratePolicy(NamedTuple):
    """The choices :func:`robotsrules.generate` writes (frozen and picklable).

    >>> GeneratePolicy(categories=(("ai-training", AgentChoice("block")),),
    ...        usage=(("ai-train", False),)).tokens
    ()
    """

    agents: Pairs = ()
    """Per crawler product token (``"GPTBot"``; ``"*"`` for every crawler no group names):
    its :class:`AgentChoice`. A token's own choice wins over its categories'."""
    categories: Pairs = ()
    """Per crawler registry category (``"ai-training"``, ``"search"``, ...): the choice for
    every token of the category. A token in a blocked and an allowed category is blocked."""
    disallow_paths: tuple[str, ...] = ()
    """Paths closed to every crawler (the ``*`` group, and each ``block-paths`` token)."""
    usage: tuple[tuple[str, bool], ...] = ()
    """Usage preferences: a purpose of :data:`USAGE_PURPOSES` and whether it is allowed."""
    crawl_delays: tuple[tuple[str, float], ...] = ()
    """Per token, the seconds between requests it is asked to wait (Google ignores it)."""
    sitemaps: tuple[str, ...] = ()
    """Sitemap URLs, in order."""
    license: Optional[str] = None
    """The URL of an RSL licence document (a ``License:`` line)."""

    @property
    def tokens(self) -> tuple[str, ...]:
        """The tokens named by :attr:`agents`, in order."""
        return tuple(token for token, _ in self.agents)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> GeneratePolicy:
        """A policy from the plain data of a JSON or TOML policy file::

            {"agents": {"GPTBot": "block", "Googlebot": {"allow-paths": ["/news/"]}},
             "categories": {"ai-training": "block"}, "disallow_paths": ["/private/"],
             "usage": {"ai-train": "n"}, "crawl_delay": {"Bingbot": 5},
             "sitemaps": ["https://example.com/sitemap.xml"],
             "license": "https://example.com/license.xml"}

        Raises :class:`~robotsrules.GenerateError` naming the first field it cannot read.
        """
        if not isinstance(data, Mapping):
            raise GenerateError("a policy is a table (a JSON object or a TOML document)")
        unknown = sorted(set(data) - set(_FIELDS))
        if unknown:
            raise GenerateError(f"unknown policy field {unknown[0]!r}; valid: "
                                f"{', '.join(_FIELDS)}")
        license_url = data.get("license")
        if license_url is not None and not isinstance(license_url, str):
            raise GenerateError("policy field 'license' must be a URL (a string)")
        return cls(
            agents=_choices(data.get("agents", {}), "agents"),
            categories=_choices(data.get("categories", {}), "categories"),
            disallow_paths=_strings(data.get("disallow_paths", []), "disallow_paths"),
            usage=tuple((name, _yes_no(value, name))
                        for name, value in _table(data.get("usage", {}), "usage")),
            crawl_delays=tuple((name, check_seconds(value, name))
                               for name, value in _table(data.get("crawl_delay", {}),
                                                         "crawl_delay")),
            sitemaps=_strings(data.get("sitemaps", []), "sitemaps"),
            license=license_url)

    def to_data(self) -> dict[str, Any]:
        """The policy as plain data (:meth:`from_data` reads it back; empty fields left out)."""
        def choice(value: AgentChoice) -> Union[str, dict[str, list[str]]]:
            return value.action if not value.paths else {value.action: list(value.paths)}

        data: dict[str, Any] = {
            "agents": {token: choice(c) for token, c in self.agents},
            "categories": {name: choice(c) for name, c in self.categories},
            "disallow_paths": list(self.disallow_paths),
            "usage": {name: "y" if allowed else "n" for name, allowed in self.usage},
            "crawl_delay": {token: seconds for token, seconds in self.crawl_delays},
            "sitemaps": list(self.sitemaps),
            "license": self.license,
        }
        return {key: value for key, value in data.items() if value}


_FIELDS: Final = ("agents", "categories", "disallow_paths", "usage", "crawl_delay", "sitemaps",
                  "license")


def _bounded(values: Any, field: str) -> tuple[Any, ...]:
    items = tuple(values)
    if len(items) > MAX_ITEMS:
        raise GenerateError(f"policy field {field!r} holds {len(items):,} items; at most "
                            f"{MAX_ITEMS:,}")
    return items


def _table(value: Any, field: str) -> tuple[tuple[str, Any], ...]:
    if not isinstance(value, Mapping):
        raise GenerateError(f"policy field {field!r} must be a table of name = value")
    items = _bounded(value.items(), field)
    for name, _ in items:
        if not isinstance(name, str):
            raise GenerateError(f"policy field {field!r}: names are strings")
    return cast("tuple[tuple[str, Any], ...]", items)


def _strings(value: Any, field: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not all(
            isinstance(item, str) for item in value):
        raise GenerateError(f"policy field {field!r} must be a list of strings")
    return _bounded(value, field)


def _choices(value: Any, field: str) -> Pairs:
    found = []
    for name, raw in _table(value, field):
        if isinstance(raw, str):
            found.append((name, AgentChoice(cast(Action, raw))))
        elif isinstance(raw, Mapping) and len(raw) == 1:
            ((action, paths),) = raw.items()
            found.append((name, AgentChoice(action, _strings(paths, f"{field}.{name}"))))
        else:
            raise GenerateError(f"policy field {field}.{name}: a choice is one of "
                                f"{', '.join(ACTIONS)}, or {{\"block-paths\": [PATH, ...]}} "
                                "or {\"allow-paths\": [PATH, ...]}")
    return tuple(found)


_YES: Final = {"y": True, "yes": True, "n": False, "no": False}


def _yes_no(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _YES:
        return _YES[value.strip().lower()]
    raise GenerateError(f"usage {name!r}: the value is y or n (or true/false)")


def check_seconds(value: Any, name: str) -> float:
    """A crawl delay for ``name``: a finite number of seconds, more than 0 and at most a
    day; raises :class:`~robotsrules.GenerateError` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise GenerateError(f"crawl delay for {name!r}: a number of seconds")
    seconds = float(value)
    if not math.isfinite(seconds) or not 0 < seconds <= 86_400:
        raise GenerateError(f"crawl delay for {name!r}: more than 0 and at most 86400 seconds")
    return seconds
