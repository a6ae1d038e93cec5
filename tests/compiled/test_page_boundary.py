"""The page layer's public functions read a stranger's values of any type the same way in
both builds (issue 27).

The fold for one agent (``_page._fold``) is compiled in the compiled build; its public
boundary (``_page._signals``: :func:`~robotsrules.page_signals`, ``page_signals_for``,
``read_response``, ``signals_of``, ``page_facts``) stays pure Python and hands on what a
caller gave unchecked, so that a wrong type is read leniently, or refused with the same
error, in both builds, never with a compiled call's ``TypeError`` ("tuple object expected")
where pure Python answers. Each case below runs in the pure run and in the compiled run
(``scripts/test.sh``), with the same expected outcome.
"""

from __future__ import annotations

import datetime
from typing import Any, Callable

import pytest

import robotsrules
from robotsrules._page import (
    page_facts,
    page_signals,
    page_signals_for,
    read_response,
    signals_of,
)

HEAD = b'<meta name=robots content=noindex><link rel=license href="/l">'
LINK = {"Link": "<https://l.example/x>; rel=license"}


def _read() -> Any:
    return read_response(LINK, HEAD)


def _outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return ("value", call())
    except Exception as error:  # the error's type is the outcome compared
        return ("raised", type(error).__name__)


CASES = {
    # Lenient (strict=False, a crawl's record): what is not HTML text is no HTML.
    "html an int, not strict": (
        lambda: page_signals_for({}, 5, ["GPTBot"], strict=False)[0].index, ("value", True)),
    "html a list, not strict": (
        lambda: read_response({}, [b"<meta>"], strict=False).head.metas, ("value", ())),
    "status text, not strict": (
        lambda: read_response({}, None, status="200", strict=False).status, ("value", None)),
    "strict a truthy int": (
        lambda: page_signals_for({}, HEAD, ["GPTBot"], strict=1)[0].index, ("value", False)),
    "strict a falsy int": (
        lambda: page_signals_for({}, 5, ["GPTBot"], strict=0)[0].index, ("value", True)),
    # Refused with the library's own errors, or the error pure Python meets.
    "max_head_bytes text": (
        lambda: read_response({}, None, max_head_bytes="x"), ("raised", "InvalidArgument")),
    "status True": (
        lambda: page_signals(None, HEAD, agent="GPTBot", status=True),  # type: ignore[arg-type]
        ("raised", "InvalidArgument")),
    "html an int, strict": (lambda: read_response({}, 5), ("raised", "TypeError")),
    "a response that is not one": (lambda: signals_of(5, "GPTBot"),  # type: ignore[arg-type]
                                   ("raised", "AttributeError")),
    "facts of what is not a response": (lambda: page_facts(5, None),  # type: ignore[arg-type]
                                        ("raised", "AttributeError")),
    "facts that are not Facts": (
        lambda: signals_of(_read(), "GPTBot", facts=5),  # type: ignore[arg-type]
        ("raised", "AttributeError")),
    "a url that is bytes": (
        lambda: page_facts(_read(), b"https://x.example/"),  # type: ignore[arg-type]
        ("raised", "TypeError")),
    "a url that is an int": (
        lambda: signals_of(_read(), "GPTBot", url=5),  # type: ignore[arg-type]
        ("raised", "TypeError")),
    "now as text": (
        lambda: signals_of(_read(), "GPTBot", now="yesterday"),  # type: ignore[arg-type]
        ("raised", "AttributeError")),
    "now a date": (
        lambda: page_signals_for({}, None, ["GPTBot"],
                                 now=datetime.date(2024, 1, 1)),  # type: ignore[arg-type]
        ("raised", "AttributeError")),
    "tdmrep that is not a file": (
        lambda: signals_of(_read(), "GPTBot", tdmrep=5),  # type: ignore[arg-type]
        ("raised", "TypeError")),
    # And what is right is read: the same answers as ever.
    "a url resolves the licence links": (
        lambda: [link.url for link in page_facts(_read(), "https://x.example/a").licenses],
        ("value", ["https://l.example/x", "https://x.example/l"])),
    "unavailable_after against now": (
        lambda: page_signals_for(
            {}, b'<meta name=robots content="unavailable_after: 2020-01-01">', ["GPTBot"],
            now=datetime.datetime(2024, 1, 1))[0].expired, ("value", True)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_strangers_value_is_read_as_pure_python_reads_it(name: str) -> None:
    call, expected = CASES[name]
    assert _outcome(call) == expected, (name, robotsrules.COMPILED)
