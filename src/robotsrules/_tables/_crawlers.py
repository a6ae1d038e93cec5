"""The crawler registry: crawler names and tokens with provenance, shipped as data.

Theory of operation. ``data/crawlers.json`` (schema ``data/crawlers.schema.json``) lists
crawlers in public use. Each entry has the name as published, the product token robots.txt
reads for it (``None`` when no group can name it: ``ChatGPT Agent`` sends no token of its
own; ``AI2Bot`` is read as ``AI``, which the entry says), the operator, its categories, its
trigger (``crawler``; ``user-triggered`` fetcher; ``control-token``: no request carries it,
its group governs how another crawler's data is used), what the operator states about
obeying robots.txt (:class:`Statement`: yes / no / partly with the page and the date it was
checked, or unknown with the date checked) and how to verify a request
(:class:`Verification`). The registry carries its ``version`` and ``compiled`` date
(:func:`registry_info`, shown by ``robotsrules --version`` and written into bulk output
metadata); its categories and their aliases are read from the data, never restated here.
``scripts/crawler_registry.py`` rebuilds it from the public sources and prints the
differences.

:func:`category_tokens` expands a category (``"ai-training"``, or an alias such as
``"training"``) to its tokens; :func:`unstoppable` names the crawlers whose operator states
robots.txt does not bind them. This module reads the registry only and imports no robots.txt
reader: what a parsed file says to each crawler is :mod:`robotsrules._optout`'s business.
The registry can be extended or replaced from a JSON file (:func:`load_crawlers`: the
registry's shape, or the older ``token``/``category`` shape, or a bare list); a file that is
not one is a :class:`~robotsrules.RobotsError` naming the entry and the field, never another
exception. Nothing is fetched.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import (
    Any,
    Literal,
    NamedTuple,
    Optional,
    Union,
    cast,
)
from urllib.parse import urlsplit

from ..errors import RobotsError
from ._datafile import parse_json, shipped_text

__all__ = [
    "Crawler",
    "Registry",
    "Statement",
    "Verification",
    "categories",
    "category_tokens",
    "crawler_for",
    "crawlers_signing_from",
    "directory_key",
    "known_crawlers",
    "load_crawlers",
    "load_registry",
    "registry",
    "registry_info",
    "resolve_category",
    "unstoppable",
]

Obeys = Literal["yes", "no", "partly", "unknown"]
Trigger = Literal["crawler", "user-triggered", "control-token"]

PathLike = Union[str, "os.PathLike[str]"]

_OBEYS = ("yes", "no", "partly", "unknown")
_READS = ("yes", "no", "unknown")
_TRIGGERS = ("crawler", "user-triggered", "control-token")
_TOKEN = re.compile(r"[A-Za-z_-]{1,100}")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_MONTH = re.compile(r"\d{4}-\d{2}(?:-\d{2})?")
_URL = re.compile(r"https?://\S+")
_RDNS = re.compile(r"[*A-Za-z0-9.-]{1,253}")
_NAME = re.compile(r"[a-z][a-z0-9-]{0,40}")
_LIST_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
_MAX_FILE_BYTES = 16 << 20  # a registry file of any honest size fits many times over
_MAX_ENTRIES = 100_000
_MAX_TEXT = 2000


class Statement(NamedTuple):
    """What an operator states about obeying robots.txt."""

    obeys: Obeys
    """``"yes"``, ``"no"``, ``"partly"`` or ``"unknown"`` (nothing found when checked)."""
    statement: Optional[str]
    """The statement, quoted or summarised (or a note on what was found)."""
    source: Optional[str]
    """The page that states it (``None`` only for ``"unknown"``)."""
    checked: str
    """The date it was read (``YYYY-MM-DD``): for ``"unknown"``, the date it was looked for."""
    stated: Optional[str] = None
    """When the operator said it, where known (``YYYY-MM``)."""
    via: Optional[str] = None
    """A third-party source it was taken from (``"ai.robots.txt@738c80d"``), unverified here."""


class Verification(NamedTuple):
    """How to tell a real request of the crawler from one that only uses its name."""

    ip_ranges: tuple[str, ...] = ()
    """URLs of the operator's published IP-range lists."""
    reverse_dns: tuple[str, ...] = ()
    """Host name patterns the reverse DNS of its addresses match (``*.googlebot.com``)."""
    web_bot_auth: Optional[str] = None
    """The Web Bot Auth (HTTP message signatures) key directory of its signed requests."""
    address_lists: tuple[str, ...] = ()
    """The names of the lists at :attr:`ip_ranges` in the address snapshot
    (``data/crawler-addresses.json``, :func:`robotsrules._tables._addresses.load_snapshot`)."""
    note: Optional[str] = None
    """Why evidence that exists is not used (Meta's AS32934 routes), or other remarks."""

    @property
    def evidence(self) -> tuple[str, ...]:
        """The kinds of evidence the operator publishes: ``address-list``, ``name-pattern``,
        ``web-bot-auth``; none: the crawler is unverifiable.

        >>> Verification(reverse_dns=("*.search.msn.com",)).evidence
        ('name-pattern',)
        """
        kinds = []
        if self.ip_ranges or self.address_lists:
            kinds.append("address-list")
        if self.reverse_dns:
            kinds.append("name-pattern")
        if self.web_bot_auth:
            kinds.append("web-bot-auth")
        return tuple(kinds)

    @property
    def unverifiable(self) -> bool:
        """The operator publishes no evidence: a request's claim can be neither confirmed
        nor refuted (an operator-wide address space is no evidence)."""
        return not self.evidence


_UNKNOWN = Statement("unknown", None, None, "")
_NO_VERIFY = Verification()


class Crawler(NamedTuple):
    """One registry entry."""

    token: Optional[str]
    """The product token robots.txt reads for it; ``None``: no group can name it."""
    operator: str
    purpose: str
    source: str
    category: str = "other"
    """The first of :attr:`categories`."""
    name: str = ""
    """The name as published (``"Brightbot 1.0"``); empty: the token."""
    categories: tuple[str, ...] = ()
    trigger: Trigger = "crawler"
    robots_txt: Statement = _UNKNOWN
    verify: Verification = _NO_VERIFY
    token_note: Optional[str] = None
    """Why the token differs from the name, or why there is none."""
    note: Optional[str] = None
    crawl_delay: Statement = _UNKNOWN
    """Whether its operator says it reads ``Crawl-delay`` (``obeys`` here is ``"yes"``,
    ``"no"`` or ``"unknown"``), with the source and the date it was read."""

    @property
    def reads_crawl_delay(self) -> str:
        """``"yes"``, ``"no"`` or ``"unknown"``: does it read ``Crawl-delay``, by its
        operator's word (the log audit judges request rates only on ``"yes"``)."""
        return self.crawl_delay.obeys

    @property
    def label(self) -> str:
        """The name as published (the token when the entry has no other name)."""
        return self.name or self.token or ""

    @property
    def stoppable(self) -> Optional[bool]:
        """Whether a robots.txt group can stop its requests, by its operator's word:
        ``False`` when the operator states robots.txt does not bind it, or no group can name
        it (no token) or it sends no requests (a control token); ``True`` when the operator
        states it obeys; ``None`` when the operator's word is unknown or "partly"."""
        if self.token is None or self.trigger == "control-token":
            return False
        if self.robots_txt.obeys == "no":
            return False
        return True if self.robots_txt.obeys == "yes" else None

    def robots_txt_note(self) -> str:
        """One line on what robots.txt does for it (for ``agents`` and ``stance``)."""
        said = self.robots_txt
        when = f"checked {said.checked}" if said.checked else "not checked"
        if said.via:
            when += f", as {said.via.split('@')[0]} cites it"
        who = self.operator if self.operator != "unknown" else "its operator"
        if self.token is None:
            return "robots.txt cannot name it (no product token of its own)"
        if self.trigger == "control-token":
            return "control token: no request carries it; its group governs use, not fetching"
        if said.obeys == "no":
            return f"NOT bound by robots.txt, says {who} ({when})"
        if said.obeys == "partly":
            return f"only partly bound by robots.txt, says {who} ({when})"
        if said.obeys == "yes":
            return f"obeys robots.txt, says {who} ({when})"
        return f"whether it obeys robots.txt is unknown ({when})"


class Registry(NamedTuple):
    """The registry as read: its entries, categories and provenance."""

    version: int
    compiled: str
    crawlers: tuple[Crawler, ...]
    categories: Mapping[str, str]
    """Category -> description, in the data's order."""
    aliases: Mapping[str, str]
    """Alias -> category (``"training"`` -> ``"ai-training"``)."""
    sources: Mapping[str, Any]


def _fail(where: str, problem: str) -> RobotsError:
    return RobotsError(f"{where}: {problem}")


def _text(value: Any, where: str, field: str, optional: bool = False) -> Optional[str]:
    if value is None and optional:
        return None
    if not isinstance(value, str) or (not value and not optional):
        raise _fail(where, f"'{field}' is not a string")
    return value[:_MAX_TEXT]


def _match(pattern: re.Pattern[str], value: Any, where: str, field: str,
           optional: bool = False) -> Optional[str]:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise _fail(where, f"'{field}' is not valid: {str(value)[:80]!r}")
    return value


def _statement(value: Any, where: str, field: str = "robots_txt", key: str = "obeys",
               values: tuple[str, ...] = _OBEYS) -> Statement:
    """An operator's statement: ``robots_txt`` (``obeys``), or ``crawl_delay``
    (``reads``, without ``stated`` or ``via``)."""
    if value is None:
        return _UNKNOWN
    if not isinstance(value, dict):
        raise _fail(where, f"'{field}' is not an object")
    obeys = value.get(key)
    if obeys not in values:
        raise _fail(where, f"{field} '{key}' is not one of {', '.join(values)}")
    source = _match(_URL, value.get("source"), where, f"{field}.source", optional=True)
    if obeys != "unknown" and source is None:
        raise _fail(where, f"{field} says {obeys!r} without a 'source' URL")
    checked = _match(_DATE, value.get("checked"), where, f"{field}.checked")
    return Statement(cast(Obeys, obeys),
                     _text(value.get("statement"), where, f"{field}.statement", True),
                     source, cast(str, checked),
                     _match(_MONTH, value.get("stated"), where, f"{field}.stated", True),
                     _text(value.get("via"), where, f"{field}.via", True))


def _strings(value: Any, pattern: re.Pattern[str], where: str, field: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > 100:
        raise _fail(where, f"'{field}' is not a list")
    return tuple(cast(str, _match(pattern, item, where, field)) for item in value)


def _verification(value: Any, where: str) -> Verification:
    if value is None:
        return _NO_VERIFY
    if not isinstance(value, dict):
        raise _fail(where, "'verify' is not an object")
    return Verification(_strings(value.get("ip_ranges"), _URL, where, "verify.ip_ranges"),
                        _strings(value.get("reverse_dns"), _RDNS, where, "verify.reverse_dns"),
                        _match(_URL, value.get("web_bot_auth"), where, "verify.web_bot_auth",
                               optional=True),
                        _strings(value.get("address_lists"), _LIST_NAME, where,
                                 "verify.address_lists"),
                        _note(value.get("note"), where))


def _note(value: Any, where: str) -> Optional[str]:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 2000:
        raise _fail(where, "'verify.note' is not text of at most 2,000 characters")
    return value


def _entry(row: Any, number: int, where: str, known: Mapping[str, str],
           aliases: Mapping[str, str]) -> Crawler:
    place = f"{where}: crawler {number}"
    if not isinstance(row, dict):
        raise _fail(place, "not an object")
    if "name" not in row and "token" not in row:
        raise _fail(place, "has no 'name' or 'token'")
    token = row.get("token")
    name = row.get("name", token)
    name = _text(name, place, "name")
    place = f"{where}: crawler {number} ({str(name)[:60]!r})"
    if token is not None and (not isinstance(token, str) or not _TOKEN.fullmatch(token)):
        raise _fail(place, f"token {str(token)[:60]!r} is not a product token (letters, '-' "
                           "and '_'); give the published form as 'name' and the token "
                           "robots.txt reads for it as 'token'")
    listed = row.get("categories")
    if listed is None:
        listed = [row.get("category", "other")]
    if not isinstance(listed, list) or not listed or len(listed) > 20:
        raise _fail(place, "'categories' is not a non-empty list")
    found: list[str] = []
    for item in listed:
        if not isinstance(item, str):
            raise _fail(place, "a category is not a string")
        key = item.strip().lower()
        key = aliases.get(key, key)
        if key not in known:
            raise _fail(place, f"unknown category {item[:60]!r}; valid: {', '.join(known)}")
        if key not in found:
            found.append(key)
    trigger = row.get("trigger")
    if trigger is None:
        trigger = ("user-triggered" if "user-triggered" in found else
                   "control-token" if "usage-control" in found else "crawler")
    if trigger not in _TRIGGERS:
        raise _fail(place, f"trigger {str(trigger)[:40]!r} is not one of {', '.join(_TRIGGERS)}")
    return Crawler(
        token, _text(row.get("operator", ""), place, "operator", True) or "",
        _text(row.get("purpose", ""), place, "purpose", True) or "",
        _text(row.get("source", ""), place, "source", True) or "",
        found[0], name or "", tuple(found), cast(Trigger, trigger),
        _statement(row.get("robots_txt"), place), _verification(row.get("verify"), place),
        _text(row.get("token_note"), place, "token_note", True),
        _text(row.get("note"), place, "note", True),
        _statement(row.get("crawl_delay"), place, "crawl_delay", "reads", _READS))


def _categories(data: Any, where: str) -> tuple[dict[str, str], dict[str, str]]:
    if not isinstance(data, dict) or not data:
        raise _fail(where, "'categories' is not an object of categories")
    described: dict[str, str] = {}
    aliases: dict[str, str] = {}
    for name, value in data.items():
        _match(_NAME, name, where, "categories")
        if not isinstance(value, dict):
            raise _fail(where, f"category {name!r} is not an object")
        described[name] = cast(str, _text(value.get("description"), where,
                                          f"categories.{name}.description"))
        for alias in _strings(value.get("aliases"), _NAME, where, f"categories.{name}.aliases"):
            aliases[alias] = name
    clash = set(aliases) & set(described)
    if clash:
        raise _fail(where, f"alias {sorted(clash)[0]!r} is also a category")
    return described, aliases


def load_registry(text: str, where: str = "crawlers.json",
                  base: Optional[Registry] = None) -> Registry:
    """Read a registry (or a list of entries) from JSON text, checking every field.

    ``base`` gives the categories a file of entries may use (the shipped registry's); a file
    with its own ``categories`` uses those. Raises :class:`~robotsrules.RobotsError` naming
    the entry and the field; never another exception, whatever the text.
    """
    data = parse_json(text, where, _MAX_FILE_BYTES)
    rows = data.get("crawlers") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise _fail(where, "expected a list of crawlers (or {'crawlers': [...]})")
    if len(rows) > _MAX_ENTRIES:
        raise _fail(where, f"more than {_MAX_ENTRIES} crawlers")
    if isinstance(data, dict) and "categories" in data:
        described, aliases = _categories(data["categories"], where)
    elif base is not None:
        described, aliases = dict(base.categories), dict(base.aliases)
    else:
        raise _fail(where, "no 'categories'")
    crawlers = tuple(_entry(row, number, where, described, aliases)
                     for number, row in enumerate(rows, 1))
    version = data.get("version", 0) if isinstance(data, dict) else 0
    compiled = data.get("compiled", "") if isinstance(data, dict) else ""
    sources = data.get("sources", {}) if isinstance(data, dict) else {}
    if not isinstance(version, int) or not isinstance(compiled, str) or not isinstance(
            sources, dict):
        raise _fail(where, "'version', 'compiled' or 'sources' has the wrong type")
    return Registry(version, compiled[:20], crawlers, MappingProxyType(described),
                    MappingProxyType(aliases), MappingProxyType(sources))


_SHIPPED: list[Registry] = []


def _shipped() -> Registry:
    if not _SHIPPED:
        _SHIPPED.append(load_registry(shipped_text("crawlers.json")))
    return _SHIPPED[0]


def load_crawlers(path: PathLike) -> tuple[Crawler, ...]:
    """Crawlers from a JSON file: the registry's shape, the older shape (``token``,
    ``operator``, ``category``, ``purpose``, ``source``) or a bare list of entries.
    Raises :class:`~robotsrules.RobotsError` for a file that is not one."""
    where = os.fspath(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(_MAX_FILE_BYTES + 1)
    except OSError as error:
        raise _fail(where, f"cannot read: {error.strerror or error}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _fail(where, "not UTF-8") from None
    return load_registry(text, where, _shipped()).crawlers


def registry(table: Optional[PathLike] = None, *, replace: bool = False) -> Registry:
    """The shipped registry; with ``table`` (see :func:`load_crawlers`) its entries are
    added, an entry for a name already listed (case-insensitive) replacing the shipped one;
    with ``replace=True`` only the file's entries are used."""
    shipped = _shipped()
    if table is None:
        return shipped
    extra = load_crawlers(table)
    if replace:
        return shipped._replace(crawlers=extra)
    merged: dict[str, Crawler] = {c.label.lower(): c for c in shipped.crawlers}
    for crawler in extra:
        merged[crawler.label.lower()] = crawler
    return shipped._replace(crawlers=tuple(merged.values()))


def known_crawlers(
    table: Optional[PathLike] = None, *, replace: bool = False
) -> tuple[Crawler, ...]:
    """The registry's crawlers, in registry order (see :func:`registry`)."""
    return registry(table, replace=replace).crawlers


def registry_info() -> dict[str, str]:
    """Version, compiled date and size of the shipped registry (``--version``, metadata)."""
    shipped = _shipped()
    return {"version": str(shipped.version), "compiled": shipped.compiled,
            "entries": str(len(shipped.crawlers))}


def categories() -> tuple[str, ...]:
    """The registry's categories, in its order."""
    return tuple(_shipped().categories)


def resolve_category(name: str) -> str:
    """The category ``name`` means (a category of the registry or one of its aliases, such as
    ``"training"``); raises :class:`~robotsrules.RobotsError` for anything else."""
    shipped = _shipped()
    key = name.strip().lower() if isinstance(name, str) else ""
    key = shipped.aliases.get(key, key)
    if key not in shipped.categories:
        raise RobotsError(
            f"unknown crawler category {name!r}; valid: {', '.join(shipped.categories)} "
            f"(aliases: {', '.join(sorted(shipped.aliases))})")
    return key


def category_tokens(
    categories: Union[str, Iterable[str]], crawlers: Optional[Sequence[Crawler]] = None
) -> tuple[str, ...]:
    """The tokens of the crawlers in ``categories`` (one name or several), registry order,
    each once; entries no robots.txt group can name are left out."""
    names = [categories] if isinstance(categories, str) else list(categories)
    wanted = {resolve_category(name) for name in names}
    table = known_crawlers() if crawlers is None else crawlers
    found: dict[str, str] = {}
    for crawler in table:
        if crawler.token and wanted.intersection(crawler.categories or (crawler.category,)):
            found.setdefault(crawler.token.lower(), crawler.token)
    return tuple(found.values())


def crawler_for(name: str, crawlers: Optional[Sequence[Crawler]] = None) -> Optional[Crawler]:
    """The registry entry for ``name``: a published name, or a product token (the first
    entry reading that token), case-insensitive; ``None`` when none lists it."""
    table = known_crawlers() if crawlers is None else crawlers
    key = name.strip().lower()
    by_token: Optional[Crawler] = None
    for crawler in table:
        if crawler.label.lower() == key:
            return crawler
        if by_token is None and crawler.token is not None and crawler.token.lower() == key:
            by_token = crawler
    return by_token


def directory_key(url: str) -> Optional[str]:
    """A key directory URL in the one form compared: scheme and host lower-cased, the
    default port dropped, an empty path as ``/``, path and query as sent (never
    percent-decoded); ``None`` for a URL that is not ``http(s)`` with a plain ASCII host
    (a ``%`` or a non-ASCII letter in a host is refused: a fetcher may read it otherwise).

    >>> directory_key("HTTPS://ChatGPT.com:443/.well-known/x")
    'https://chatgpt.com/.well-known/x'
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = parts.hostname or ""
    if scheme not in ("http", "https") or not host or not host.isascii() or "%" in host \
            or not parts.netloc.isascii() or "%" in parts.netloc:
        return None
    if ":" in host:
        host = f"[{host}]"
    if port is not None and port != {"http": 80, "https": 443}[scheme]:
        host = f"{host}:{port}"
    query = f"?{parts.query}" if parts.query else ""
    return f"{scheme}://{host}{parts.path or '/'}{query}"


def crawlers_signing_from(directory_url: str,
                          crawlers: Optional[Sequence[Crawler]] = None) -> tuple[Crawler, ...]:
    """The registry's crawlers whose Web Bot Auth key directory (``verify.web_bot_auth``) is
    exactly ``directory_url`` (compared by :func:`directory_key`), registry order; none for
    a URL that is no directory. The same origin is not enough: another JWK Set on a shared
    host (a storage bucket, a site where anyone can publish a file) is another signer.

    >>> [c.operator for c in crawlers_signing_from(
    ...     "https://chatgpt.com/.well-known/http-message-signatures-directory")]
    ['OpenAI']
    >>> crawlers_signing_from("https://chatgpt.com/elsewhere/jwks.json")
    ()
    """
    wanted = directory_key(directory_url)
    if wanted is None:
        return ()
    table = known_crawlers() if crawlers is None else crawlers
    return tuple(crawler for crawler in table if crawler.verify.web_bot_auth
                 and directory_key(crawler.verify.web_bot_auth) == wanted)


def unstoppable(crawlers: Optional[Sequence[Crawler]] = None) -> tuple[Crawler, ...]:
    """The crawlers robots.txt cannot stop by their operators' word (:attr:`Crawler.stoppable`
    is ``False``): user-triggered fetchers whose operator says robots.txt does not bind them,
    names no group can address; control tokens are left out (they fetch nothing)."""
    table = known_crawlers() if crawlers is None else crawlers
    return tuple(c for c in table
                 if c.stoppable is False and c.trigger != "control-token")
