"""Pay-per-crawl: a response that asks to be paid for (HTTP 402 with ``crawler-price``).

Cloudflare's Pay Per Crawl (AI Crawl Control documentation, developers.cloudflare.com,
pages "Crawl pages", "Error codes" and "Advanced configuration" as of the
cloudflare-docs commits of 2026-06 read on 2026-11-25; changelog entries 2025-07-01
launch, 2025-12-05 custom terms URL, 2025-12-10 ``crawler-error`` codes): a crawler that is
charged gets ``HTTP 402 Payment Required`` with ``crawler-price: USD 0.01`` (a currency
code, a space, an amount); it may pay by repeating the request with ``crawler-exact-price``
or ``crawler-max-price``; errors carry a ``crawler-error`` code (``InvalidCrawlerExactPrice``,
``MissingCrawlerPrice``...); a site's custom "Terms URL" is sent in the ``Link`` header of
the 200 and 402 responses (the documentation does not name the link relation; we read
``rel="terms-of-service"``, RFC 6903 §4, and ``rel="license"``). With dynamic pricing the
``crawler-price`` header "is only forwarded to the client when the client is being asked to
pay": a ``crawler-price`` field on its own therefore also means "asked to pay" where the
status is not known (a stored header block without its status line).

robotsrules reads this and reports it (:class:`Pricing`); it never pays: no client
integration sends ``crawler-exact-price`` or ``crawler-max-price``, and a 402 is never
retried as a failure. Header values are strangers' text: each is kept to
:data:`MAX_PRICE_TEXT` characters as written (control characters made visible only where
shown to a terminal). Pure: standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple, Optional

from ._headers import Field

__all__ = ["CRAWLER_ERROR", "CRAWLER_PRICE", "MAX_PRICE_TEXT", "PAYMENT_REQUIRED", "Pricing",
           "pricing"]

CRAWLER_PRICE = "crawler-price"
CRAWLER_ERROR = "crawler-error"
PAYMENT_REQUIRED = 402
MAX_PRICE_TEXT = 200
"""Characters of a ``crawler-price`` or ``crawler-error`` value kept (as written)."""
MAX_TERMS = 16
"""Terms links kept."""

# "USD 0.01": an ISO 4217 code, blanks, a non-negative decimal amount.
_PRICE = re.compile(r"([A-Za-z]{3})[ \t]+([0-9]{1,15}(?:\.[0-9]{1,12})?)")


class Pricing(NamedTuple):
    """What a response says about paying for it.

    ``status`` is the HTTP status when known; ``price`` the ``crawler-price`` as written
    (several disagreeing fields: the first, ``valid`` false), ``currency`` (upper-cased) and
    ``amount`` (the decimal as written) when it reads as ``CUR 0.00``; ``error`` the
    ``crawler-error`` code(s); ``terms`` the terms links (resolved URLs); ``asked`` whether
    the response asks the crawler to pay (a 402, or a ``crawler-price`` without a known
    status); ``valid`` whether the price (if any) was understood.
    """

    status: Optional[int]
    price: Optional[str]
    currency: Optional[str]
    amount: Optional[str]
    error: Optional[str]
    terms: tuple[str, ...]
    asked: bool
    valid: bool

    def describe(self) -> str:
        """``HTTP 402: asks USD 0.01 per crawl (terms https://...)``, or similar."""
        head = f"HTTP {self.status}" if self.status is not None else "status unknown"
        if self.currency is not None and self.amount is not None:
            what = f"asks {self.currency} {self.amount} per crawl"
        elif self.price is not None:
            what = f"asks a price not understood ({self.price!r})"
        else:
            what = "asks payment, no crawler-price given" if self.asked else "no price"
        if not self.asked:
            what = what.replace("asks", "names", 1)
        parts = [f"{head}: {what}"]
        if self.error:
            parts.append(f"crawler-error {self.error}")
        if self.terms:
            parts.append("terms " + " ".join(self.terms))
        return "; ".join(parts)


def _kept(value: str) -> str:
    return value if len(value) <= MAX_PRICE_TEXT else value[:MAX_PRICE_TEXT - 3] + "..."


def pricing(fields: Sequence[Field], status: Optional[int],
            terms: Sequence[str] = ()) -> Optional[Pricing]:
    """The :class:`Pricing` of a response (``None`` when it says nothing about paying: not a
    402 and neither a ``crawler-price`` nor a ``crawler-error`` field).

    >>> from ._headers import read_headers
    >>> found = pricing(read_headers({"crawler-price": "USD 0.01"}), 402)
    >>> found.asked, found.currency, found.amount
    (True, 'USD', '0.01')
    """
    prices = [f.value for f in fields if f.key == CRAWLER_PRICE]
    errors = [f.value for f in fields if f.key == CRAWLER_ERROR]
    if status != PAYMENT_REQUIRED and not prices and not errors:
        return None
    price = currency = amount = None
    valid = True
    if prices:
        price = _kept(prices[0])
        found = _PRICE.fullmatch(prices[0].strip(" \t"))
        if found is not None:
            currency, amount = found.group(1).upper(), found.group(2)
        valid = found is not None and all(p.strip(" \t") == prices[0].strip(" \t")
                                          for p in prices)
    error = _kept(", ".join(errors)) if errors else None
    asked = status == PAYMENT_REQUIRED or (status is None and bool(prices))
    kept: list[str] = list(dict.fromkeys(terms))[:MAX_TERMS]
    return Pricing(status, price, currency, amount, error, tuple(kept), asked, valid)
