"""The exceptions robotsrules raises on purpose: one tree, split by who is at fault.

Content never raises: any bytes parse into a :class:`~robotsrules.RobotsTxt`, and network
outcomes (a 404, a 503, a time-out) are data (:class:`~robotsrules.FetchResult`), not
exceptions. What is left::

    Exception
     └── RobotsError                 base of every error robotsrules raises on purpose
          ├── InvalidAgent           caller: the agent is not a product token, Token/version,
          │                          '*' or a list of them                    (also ValueError)
          ├── InvalidURL             caller: the URL is neither absolute (scheme://...) nor a
          │                          path '/...'                              (also ValueError)
          ├── InvalidPurpose         caller: the purpose is not a Content-Signal name nor an
          │                          AI-preference category                  (also ValueError)
          ├── InvalidArgument        caller: any other bad argument: an unknown mode or format,
          │                          an option out of range, a table without a needed column
          │                                                                   (also ValueError)
          ├── GenerateError          caller: a choice given to robotsrules.generate that no
          │                          robots.txt can express so that every reading agrees
          │                                                                   (also ValueError)
          ├── EngineError            not the caller: the bulk engine (DuckDB, Spark) failed, or
          │                          an input it was given cannot be read
          ├── CorruptEntry           input: bytes given to robotsrules.cache.codec.decode are not
          │                          a cache entry (damaged, tampered with, another version);
          │                          the stores read it as a miss             (also ValueError)
          ├── MissingExtra           an optional part was used without its extra installed; the
          │                          message says what to pip install        (also ImportError)
          ├── RobotsDisallowed       the HTTP client integrations refuse a request robots.txt
          │                          forbids (robotsrules.httpx, .aiohttp, .scrapy)
          ├── SigningFailed          a request could not be signed (the signer raised, or its
          │                          Host names another authority): not sent (also RuntimeError)
          └── PageRefused            the same integrations refuse a response whose own signals
               │                     (X-Robots-Tag, meta robots, TDMRep...) refuse a purpose
               └── PagePriced        ... or that asks to be paid for (HTTP 402 pay-per-crawl:
                                     nothing is paid, nothing retried)

``except robotsrules.RobotsError`` catches all of them; ``except ValueError`` catches the
caller's mistakes (and a corrupt cache entry, as it always did). An argument of the wrong
*type* (``parse(42)``) raises Python's own :class:`TypeError`, as the standard library does:
that is a programming error, not part of this tree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .model import Verdict

__all__ = ["CorruptEntry", "EngineError", "GenerateError", "InvalidAgent", "InvalidArgument",
           "InvalidPurpose", "InvalidURL", "MissingExtra", "PagePriced", "PageRefused",
           "RobotsDisallowed", "RobotsError", "SigningFailed"]


class RobotsError(Exception):
    """Base class of every exception robotsrules raises on purpose."""


class InvalidAgent(RobotsError, ValueError):
    """The agent is not a product token (``[A-Za-z_-]+``), ``Token/version`` or ``*``."""


class InvalidPurpose(RobotsError, ValueError):
    """The purpose is none of :data:`robotsrules._tables._purposes.PURPOSES`
    (``"ai-train"``, ...)."""


class InvalidURL(RobotsError, ValueError):
    """The URL passed is neither absolute (``scheme://...``) nor a target starting with ``/``."""


class InvalidArgument(RobotsError, ValueError):
    """Any other argument the caller got wrong (a mode, a format, a table's columns)."""


class GenerateError(RobotsError, ValueError):
    """A choice given to :func:`robotsrules.generate` cannot be written so that Google's
    reading, RFC 9309's and the legacy reading all give exactly what was chosen; the message
    is one line saying why (nothing is written)."""


class CorruptEntry(RobotsError, ValueError):
    """Bytes given to :func:`robotsrules.cache.codec.decode` are not a cache entry it can
    read: damaged, tampered with, or written by another version. The stores treat it as a
    miss (and log it); a caller decoding rows itself should do the same."""


class EngineError(RobotsError):
    """The bulk engine failed, or an input it was given cannot be read (not the caller's fault
    in the code, though often in the data: the message says which file or query)."""


class MissingExtra(RobotsError, ImportError):
    """An optional part was used without its extra; the message names the ``pip install``."""

    def __init__(self, feature: str, extra: str, module: str) -> None:
        self.feature = feature
        self.extra = extra
        super().__init__(f"{feature} needs the {module!r} package: pip install "
                         f"'robotsrules[{extra}]'",
                         name=module)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.feature, self.extra, self.name))

    @staticmethod
    def guard(feature: str, extra: str) -> _ImportGuard:
        """A block of imports that need ``extra``: ``with MissingExtra.guard(
        "robotsrules.duckdb", "bulk"): import duckdb`` raises this error, naming the
        missing package and the ``pip install``, when an import in the block fails."""
        return _ImportGuard(feature, extra)


class _ImportGuard:
    """What :meth:`MissingExtra.guard` returns: a failed import in its block becomes a
    :class:`MissingExtra` naming the top-level package that was missing."""

    __slots__ = ("extra", "feature")

    def __init__(self, feature: str, extra: str) -> None:
        self.feature = feature
        self.extra = extra

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, error: Optional[BaseException], trace: object) -> None:
        if isinstance(error, ImportError) and not isinstance(error, MissingExtra):
            module = (error.name or "").partition(".")[0]
            raise MissingExtra(self.feature, self.extra, module) from error


class SigningFailed(RobotsError, RuntimeError):
    """A request could not be signed (Web Bot Auth): the signer raised, or the request's
    ``Host`` names another authority than its URL. The request is not sent. Not a
    :class:`ValueError`: a robots.txt fetch that could not be sent is ``unreachable`` (RFC
    9309 (September 2022) §2.3.1.4: a complete disallow), never ``unavailable``."""


class RobotsDisallowed(RobotsError):
    """A request that the robots.txt of its origin forbids (raised instead of sending it).

    ``url`` is the URL refused, ``agent`` the product token obeyed, ``verdict`` the
    :class:`~robotsrules.Verdict` with the deciding rule (``verdict.rule``, with its line
    number; ``None`` when no file decided, e.g. an unreachable robots.txt), and ``detail``
    what the fetch of the robots.txt said when it did not succeed (``"unreachable: HTTP
    503"``), else ``None``. ``str()`` says all of it.
    """

    def __init__(self, url: str, agent: str, verdict: Verdict,
                 detail: Optional[str] = None) -> None:
        self.url = url
        self.agent = agent
        self.verdict = verdict
        self.detail = detail
        super().__init__(url, agent, verdict, detail)

    def __str__(self) -> str:
        if self.verdict.rule is not None:
            why = f"line {self.verdict.rule} ({self.verdict.reason})"
        else:
            why = self.verdict.reason
        if self.detail:
            why = f"{why}; {self.detail}"
        return f"robots.txt disallows {self.url} for {self.agent}: {why}"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.url, self.agent, self.verdict, self.detail))


class PageRefused(RobotsError):
    """A response whose own signals refuse a purpose the client declared.

    ``url`` is the response's URL, ``purpose`` the purpose refused (``"ai-train"``...),
    ``why`` the deciding directive's description (``"header X-Robots-Tag (header #2):
    noai"``) and ``signals`` the :class:`robotsrules.PageSignals` read.
    """

    def __init__(self, url: str, purpose: str, why: str, signals: object = None) -> None:
        self.url = url
        self.purpose = purpose
        self.why = why
        self.signals = signals
        super().__init__(url, purpose, why)

    def __str__(self) -> str:
        return f"{self.url} refuses {self.purpose}: {self.why}"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.url, self.purpose, self.why))


class PagePriced(PageRefused):
    """A response that asks to be paid for: HTTP 402 with ``crawler-price`` (Cloudflare's
    pay-per-crawl), met by a client integration that declared purposes.

    The content was not served, so no purpose can be met; robotsrules never pays (no
    ``crawler-exact-price`` or ``crawler-max-price`` is ever sent) and never retries it.
    ``purpose`` is ``"*"`` (every purpose), ``why`` the price described
    (:meth:`robotsrules.Pricing.describe`: ``HTTP 402: asks USD 0.01 per crawl; terms
    https://...``), ``pricing`` the :class:`robotsrules.Pricing` and ``signals`` the
    :class:`robotsrules.PageSignals` read.
    """

    def __init__(self, url: str, why: str, signals: object = None,
                 pricing: object = None) -> None:
        super().__init__(url, "*", why, signals)
        self.pricing = pricing
        self.args = (url, why)

    def __str__(self) -> str:
        return f"{self.url} asks to be paid for: {self.why}"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.url, self.why))
