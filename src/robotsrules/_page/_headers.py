"""Response headers in every form a caller, a client library or a stored crawl gives them.

One reader, :func:`read_headers`, turns all of them into the same ordered tuple of
:class:`Field` records, one per field line, so that every entry point (``page_signals``,
``robotsrules page``, ``bulk --pages-warc``, the DuckDB and Spark functions, the datatrove
filters, the client integrations) reads the same response the same way:

* a mapping (``dict``; Scrapy ``Headers``, whose values are lists; a ``multidict``; an
  ``email.message.Message`` / ``http.client.HTTPMessage``, whose ``items()`` repeat names);
  a value that is a list or tuple is one field line per element;
* ``httpx.Headers`` (through ``multi_items``) and anything else with ``multi_items``;
* an iterable of ``(name, value)`` pairs (tuples or ``[name, value]`` lists), or of
  ``{"name": ..., "value": ...}`` / ``{"key": ..., "value": ...}`` records (a DuckDB
  ``LIST(STRUCT)`` or an Arrow ``MAP`` column as Python reads it);
* a raw header block (``str`` or ``bytes``: ``Name: value`` lines as a crawl stores them,
  an optional status line first), read by :func:`header_block`. A dump of several
  responses (a redirect chain saved by ``curl -iL``, a ``100 Continue`` before the answer:
  each block after a blank line, starting with a status line) is read for its **final**
  response's block only (:func:`final_block`, the one rule every entry point follows).

Names and values may be ``str`` or ``bytes`` (bytes are latin-1: RFC 9110 §5.5 field values
are octets, and latin-1 keeps every one of them). Obsolete line folding (a line starting
with a space or tab continues the previous field, RFC 9112 §5.2) is replaced by one space,
in a raw block and inside a value alike. A name is compared case-insensitively with its
surrounding blanks removed (Leniency: RFC 9112 §5.1 forbids the blank before the colon;
what a server sent with one is still what it said).

The same field given twice stays two fields: where a client joined them with ``", "``
(``requests``' ``CaseInsensitiveDict`` and others fold repeated fields that way, as RFC 9110
§5.3 allows for list-valued fields), the readers of list-valued fields join the fields
themselves (:func:`joined`) before reading, so both forms give one answer.

Strict and lenient: for a caller's own headers (``strict=True``) a name or value of another
type is a programming error (``TypeError``); for a stranger's data (datatrove metadata,
engine rows, WARC records: ``strict=False``) an entry that cannot be read is skipped and the
others are read. Nothing here performs I/O.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import (
    Any,
    Final,
    NamedTuple,
    Optional,
    Union,
)

__all__ = ["MAX_HEADER_BLOCK", "Field", "Headers", "block_status", "content_type", "final_block",
           "header_block", "is_html", "joined", "read_headers", "response_start"]

Headers = Union[Mapping[Any, Any], Iterable[Any], str, bytes, None]
"""Response headers in any of the forms :func:`read_headers` reads."""

_TEXT_TYPES = (bytes, bytearray, memoryview)
_FOLD = re.compile(r"[\r\n]+[ \t]*")
_LINE_END = re.compile(r"\r\n|\n|\r")
# A status line (RFC 9112 §4, June 2022): HTTP-version SP 3DIGIT [SP reason-phrase], to the
# line's end (a tab for the space, "HTTP/2" without a minor version and "http" in lower
# case are read too: a block they start is still a response's).
_STATUS_LINE = re.compile(r"(?i:HTTP)/\d(?:\.\d)?[ \t]+([0-9]{3})(?:[ \t][^\r\n]*)?(?=[\r\n]|\Z)")
# A blank line: two line ends in a row (CRLF, LF or a CR not followed by LF, as
# :data:`_LINE_END` splits lines), and in text holding a LF (where a bare CR is a space,
# RFC 9112 §2.2), two LF line ends in a row.
_BLANK_LINE = re.compile(r"(?:\r\n|\n|\r(?!\n))(?:\r\n|\n|\r)")
_BLANK_LINE_LF = re.compile(r"\r?\n\r?\n")
_BARE_CR = re.compile(r"\r(?!\n)")
_NAME = re.compile(r"[^\s:]+")
# Controls a field value may not hold (RFC 9110 §5.5: CR, LF and NUL replaced by SP; the
# other C0 controls and DEL too, so that no control joins two words). HTAB stays.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_LINE_ENDS = "\r\n"
_BLANKS = "\r\n \t"  # what may come before a dump's first status line
_BOMS = ("\ufeff", "\xef\xbb\xbf")  # a UTF-8 byte order mark, as text or as latin-1 octets
MAX_HEADER_BLOCK: Final = 1 << 20
"""Characters (octets) of a raw header block or dump read (a raw ``str`` or ``bytes`` given
as headers): 1 MiB, far past any server's own limit; what follows is not read."""
_KEYS: Final[dict[str, str]] = {}
# Field names remembered (the few dozen a crawl's responses use recur): a plain dict, not
# _lru.LRU, on the compiled per-header-line path (the figure is in _lru's docstring).
_MAX_KEYS: Final = 512
_MAX_KEY_LENGTH: Final = 64  # longer names are checked each time, never kept (a bound on memory)


def _key(name: str) -> Optional[str]:
    """The lower-case key of a field name (blanks already stripped), or ``None`` when it is
    no field name (empty, or a blank or colon inside). Names that recur are remembered: at
    most :data:`_MAX_KEYS` of at most :data:`_MAX_KEY_LENGTH` characters (all dropped when
    full: a bound, not an LRU)."""
    key = _KEYS.get(name)
    if key is not None:
        return key
    if _NAME.fullmatch(name) is None:
        return None
    key = name.lower()
    if len(name) <= _MAX_KEY_LENGTH:
        if len(_KEYS) >= _MAX_KEYS:
            _KEYS.clear()
        _KEYS[name] = key
    return key


class Field(NamedTuple):
    """One header field line: ``name`` as written (blanks stripped), ``key`` its lower-case
    form, ``value`` (unfolded, blanks around it stripped) and ``number``, its 0-based place
    among the response's fields."""

    name: str
    key: str
    value: str
    number: int


def _text(value: Any) -> Optional[str]:
    if isinstance(value, str):
        return value
    if isinstance(value, _TEXT_TYPES):
        return bytes(value).decode("latin-1")
    return None


def _value_texts(value: Any, strict: bool) -> list[str]:
    """The field values one mapping entry or pair carries (a list is several lines)."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        out: list[str] = []
        for item in value:
            out.extend(_value_texts(item, strict) if not isinstance(item, (list, tuple))
                       else ([] if strict is False else _bad_value(item)))
        return out
    text = _text(value)
    if text is not None:
        return [text]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [str(value)]  # Content-Length given as a number by some libraries
    if strict:
        return _bad_value(value)
    return []


def _bad_value(value: Any) -> list[str]:
    raise TypeError(f"header values must be str or bytes (or a list of them), not "
                    f"{type(value).__name__}")


def _unfold(value: str) -> str:
    if not value.isprintable() and _CONTROL.search(value) is not None:
        value = _CONTROL.sub(" ", _FOLD.sub(" ", value))
    return value.strip(" \t")


def _pairs(headers: Any) -> Iterable[Any]:
    multi = getattr(headers, "multi_items", None)
    if callable(multi):
        return multi()  # type: ignore[no-any-return]
    if isinstance(headers, Mapping) or callable(getattr(headers, "items", None)):
        return headers.items()  # type: ignore[no-any-return]
    return headers  # type: ignore[no-any-return]


def read_headers(headers: Headers, *, strict: bool = True) -> tuple[Field, ...]:
    """Every field line of ``headers``, in order, whatever its form (module docstring).

    >>> [(f.key, f.value) for f in read_headers({"X-Robots-Tag": ["noindex", b"noai"]})]
    [('x-robots-tag', 'noindex'), ('x-robots-tag', 'noai')]
    >>> block = b"HTTP/1.1 200 OK\\r\\nX-Robots-Tag: a,\\r\\n b\\r\\n"
    >>> [(f.name, f.value) for f in read_headers(block)]
    [('X-Robots-Tag', 'a, b')]
    """
    if headers is None:
        return ()
    if type(headers) is tuple:  # (name, value) str pairs, a WARC record's: read at once
        done = _str_pairs(headers)
        if done is not None:
            return done
    if isinstance(headers, (str, bytes, bytearray, memoryview)):
        return header_block(headers)
    if isinstance(headers, (int, float)) or (not hasattr(headers, "__iter__") and \
            not callable(getattr(headers, "items", None))):
        if not strict:
            return ()  # a stranger's data that holds no headers
        raise TypeError("headers must be a mapping, an iterable of (name, value) pairs or a "
                        f"raw header block, not {type(headers).__name__}")
    fields: list[Field] = []
    for pair in _pairs(headers):
        name: Any
        value: Any
        if isinstance(pair, Field):
            name, value = pair.name, pair.value
        elif isinstance(pair, Mapping):
            name = pair.get("name", pair.get("key"))
            value = pair.get("value")
        else:
            try:
                name, value = pair
            except (TypeError, ValueError):
                if strict:
                    raise TypeError(f"not a (name, value) header pair: {pair!r}") from None
                continue
        name_text = _text(name)
        if name_text is None:
            if strict:
                raise TypeError(f"header names must be str or bytes, not "
                                f"{type(name).__name__}")
            continue
        name_text = name_text.strip(" \t")
        key = _key(name_text)
        if key is None:
            continue  # no field name: nothing a server could have meant by it
        for text in _value_texts(value, strict):
            fields.append(Field(name_text, key, _unfold(text), len(fields)))
    return tuple(fields)


def _str_pairs(headers: tuple[Any, ...]) -> Optional[tuple[Field, ...]]:
    """:func:`read_headers` of a tuple of ``(str, str)`` tuples, read as the general path
    reads them (``None``: another item is among them, read them the general way)."""
    fields: list[Field] = []
    for pair in headers:
        if type(pair) is not tuple or len(pair) != 2:
            return None
        name, value = pair
        if type(name) is not str or type(value) is not str:
            return None
        name = name.strip(" \t")
        key = _key(name)
        if key is None:
            continue
        fields.append(Field(name, key, _unfold(value), len(fields)))
    return tuple(fields)


def _start(text: str) -> int:
    """Where a dump's first block starts: after a byte-order mark and blank lines (and the
    blanks before a status line)."""
    start = 0
    if text.startswith(_BOMS):
        start = 1 if text[0] == "\ufeff" else 3
    size = len(text)
    first = start
    while start < size and text[start] in _BLANKS:
        start += 1
    if start == first or _STATUS_LINE.match(text, start) is not None:
        return start
    start = first  # no status line: the block starts at the first line that is not blank
    while start < size and text[start] in _LINE_ENDS:
        start += 1
    return start


def response_start(text: str) -> Optional[int]:
    """Where the status line of a saved response starts (after a byte-order mark and blank
    lines), or ``None`` when the text does not start with one: whether a file is a saved
    response or a bare body (one rule with :func:`final_block`)."""
    start = _start(text[:4096])
    return start if _STATUS_LINE.match(text, start) is not None else None


def _continued(text: str, start: int, end: int) -> bool:
    """Whether the block ``text[start:end]`` is an earlier response of the exchange that a
    later block may follow: an interim (1xx), a redirect (3xx), an authentication or proxy
    authentication challenge (401, 407), or the answer to a ``CONNECT`` (a 2xx with no
    field, or saying "Connection established")."""
    status = _STATUS_LINE.match(text, start, end)
    if status is None:
        return False
    code = int(status.group(1))
    if 100 <= code < 200 or 300 <= code < 400 or code in (401, 407):
        return True
    if 200 <= code < 300:
        return (not text[status.end():end].strip(" \t\r\n")
                or "connection established" in status.group(0).lower())
    return False


def final_block(text: str) -> tuple[int, int, int]:
    r"""Where the final response's header block of a raw dump lies: ``(start, end, body)``,
    the block being ``text[start:end]`` and its body starting at ``body``.

    A byte-order mark and blank lines before the first block are skipped. A block ends at
    the first blank line (CRLF, LF or CR line ends; in text holding a LF a bare CR is no
    line end, RFC 9112 §2.2). A later block is the final response's only when the next
    line that is not blank is a status line (RFC 9112 §4: ``HTTP/1.1 200 OK``, ``HTTP/2
    200``) and the block before it is an interim response, a redirect, a 401/407 challenge
    or a ``CONNECT`` answer (:func:`_continued`); otherwise the body starts after the blank
    line. Without a blank line the block runs to the end (no body). Linear in the text.

    >>> dump = ("HTTP/1.1 301 Moved\r\nLocation: /b\r\n\r\n"
    ...         "HTTP/2 200\r\nx-robots-tag: noindex\r\n\r\n<p>")
    >>> start, end, body = final_block(dump)
    >>> dump[start:end], dump[body:]
    ('HTTP/2 200\r\nx-robots-tag: noindex', '<p>')
    """
    size = len(text)
    start = _start(text)
    blank_line = _BLANK_LINE_LF if "\n" in text else _BLANK_LINE
    while True:
        blank = blank_line.search(text, start)
        if blank is None:
            return start, size, size
        after = blank.end()
        while after < size and text[after] in _LINE_ENDS:
            after += 1
        if _STATUS_LINE.match(text, after) is None or \
                not _continued(text, start, blank.start()):
            return start, blank.start(), blank.end()
        start = after


def _final_text(text: str) -> str:
    """The final block of a raw dump (:func:`final_block`), without copying a single one."""
    if len(text) > MAX_HEADER_BLOCK:
        text = text[:MAX_HEADER_BLOCK]
    if "\n" not in text and "\r" not in text:
        return text
    start, end, _ = final_block(text)
    return text if start == 0 and end == len(text) else text[start:end]


def _decoded(text: Union[str, bytes, bytearray, memoryview]) -> str:
    """A raw block as text (latin-1: one character per octet), at most
    :data:`MAX_HEADER_BLOCK` of it."""
    if isinstance(text, str):
        return text
    return bytes(text[:MAX_HEADER_BLOCK]).decode("latin-1")


def header_block(text: Union[str, bytes, bytearray, memoryview]) -> tuple[Field, ...]:
    """The fields of a raw header block: ``Name: value`` lines ending in CRLF, LF or CR.

    Of a dump of several responses only the final one's block is read
    (:func:`final_block`); at most :data:`MAX_HEADER_BLOCK` characters are read. A status
    line (``HTTP/1.1 200 OK``) is skipped, a line starting with a space or tab continues the
    previous field (obsolete folding, RFC 9112 §5.2: replaced by one space), a line without
    a colon or with a blank inside its name is not a field, and the block ends at the first
    empty line after a field (what follows is a body). Control characters in a value are
    spaces (RFC 9110 §5.5), and so is a bare CR in a block holding a LF (RFC 9112 §2.2).
    """
    return tuple(Field(name, name.lower(), value, number)
                 for number, (name, value) in enumerate(header_pairs(_final_text(
                     _decoded(text)))))


def header_pairs(text: Union[str, bytes, bytearray, memoryview]
                 ) -> tuple[tuple[str, str], ...]:
    """The fields of the **first** header block of ``text`` as ``(name, value)`` pairs (the
    WARC reader's record headers, which hand over exactly one block: no :class:`Field` made
    only to be taken apart); :func:`header_block` reads a dump's final block."""
    if not isinstance(text, str):
        text = bytes(text).decode("latin-1")
    # One test for the common block (line ends, then printable characters only); another
    # holds a bare CR, a control, a tab or a non-ASCII octet, and its values are cleaned.
    odd = not text.replace("\r\n", "").replace("\n", "").isprintable()
    if odd and "\n" in text:
        text = _BARE_CR.sub(" ", text)  # RFC 9112 §2.2: a bare CR is a space
    fields: list[list[str]] = []
    folded: dict[int, list[str]] = {}  # a folded value's pieces, joined once (linear)
    started = False
    for line in _LINE_END.split(text):
        if not line:
            if started:
                break
            continue
        if line[0] in " \t":
            if fields:
                pieces = folded.get(len(fields) - 1)
                if pieces is None:
                    folded[len(fields) - 1] = pieces = [fields[-1][1]]
                pieces.append(line.strip(" \t"))
            continue
        if not started and line.startswith(_BOMS):
            line = line[1:] if line[0] == "\ufeff" else line[3:]
        if not started and _STATUS_LINE.match(line):
            started = True
            continue
        started = True
        name, colon, value = line.partition(":")
        name = name.strip(" \t")
        if colon and _key(name) is not None:
            fields.append([name, value.strip(" \t")])
        elif fields:
            # Not a field: it ends the previous one, so a later blank-led line is no
            # continuation of it.
            fields.append(["", ""])
    for number, pieces in folded.items():
        fields[number][1] = " ".join(pieces)
    if odd:  # RFC 9110 §5.5: controls in a value are spaces
        return tuple((name, _CONTROL.sub(" ", value).strip(" \t"))
                     for name, value in fields if name)
    return tuple((name, value.strip(" \t")) for name, value in fields if name)


def block_status(headers: Any) -> Optional[int]:
    r"""The status code of a raw header block's status line (``HTTP/1.1 402 Payment
    Required``; of a dump of several responses, the final one's: :func:`final_block`), or
    ``None`` (not a raw block, or no status line first).

    >>> block_status(b"HTTP/2 402\r\ncrawler-price: USD 0.01\r\n")
    402
    """
    if isinstance(headers, (str, bytes, bytearray, memoryview)):
        text = _final_text(_decoded(headers))
    else:
        return None
    found = _STATUS_LINE.match(text, _start(text))
    return None if found is None else int(found.group(1))


def joined(fields: Sequence[Field], key: str) -> Optional[tuple[str, Field]]:
    """The values of every ``key`` field joined with ``", "`` (RFC 9110 §5.3: what a
    recipient may do with a list-valued field sent several times), and the first such field;
    ``None`` when there is none."""
    found = [f for f in fields if f.key == key]
    if not found:
        return None
    return ", ".join(f.value for f in found), found[0]


def content_type(fields: Sequence[Field]) -> Optional[str]:
    """Every ``Content-Type`` value joined with ``", "`` (the Fetch Standard's header list
    "get", read 2026-11), or ``None``: its "extract a MIME type" reads the joined values
    (:func:`._encoding.transport_encoding`), the last valid one deciding."""
    found: Optional[str] = None
    for f in fields:
        if f.key == "content-type":
            found = f.value if found is None else found + ", " + f.value
    return found


def is_html(content_type: Optional[str]) -> bool:
    """Whether a ``Content-Type`` names an HTML (or XHTML) body, the only ones scanned."""
    return content_type is not None and "html" in content_type.lower()
