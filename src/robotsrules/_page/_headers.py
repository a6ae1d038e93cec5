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

from __future__ import annotations

import re
from typing import (
    Any,
    Dict,
    Final,
    Iterable,
    List,
    Mapping,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    Union,
)

__all__ = ["Field", "Headers", "block_status", "content_type", "final_block", "header_block",
           "is_html", "joined", "read_headers"]

Headers = Union[Mapping[Any, Any], Iterable[Any], str, bytes, None]
"""Response headers in any of the forms :func:`read_headers` reads."""

_TEXT_TYPES = (bytes, bytearray, memoryview)
_FOLD = re.compile(r"[\r\n]+[ \t]*")
_LINE_END = re.compile(r"\r\n|\n|\r")
_STATUS_LINE = re.compile(r"HTTP/\d(?:\.\d)?[ \t]")
_STATUS_CODE = re.compile(r"[\r\n]*HTTP/\d(?:\.\d)?[ \t]+([1-9][0-9]{2})(?![0-9])")
_NAME = re.compile(r"[^\s:]+")
# A blank line: two line ends in a row (CRLF, LF or a CR not followed by LF, as
# :data:`_LINE_END` splits lines).
_BLANK_LINE = re.compile(r"(?:\r\n|\n|\r(?!\n))(?:\r\n|\n|\r)")
_LINE_ENDS = "\r\n"
_KEYS: Final[Dict[str, str]] = {}
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


def _value_texts(value: Any, strict: bool) -> List[str]:
    """The field values one mapping entry or pair carries (a list is several lines)."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        out: List[str] = []
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


def _bad_value(value: Any) -> List[str]:
    raise TypeError(f"header values must be str or bytes (or a list of them), not "
                    f"{type(value).__name__}")


def _unfold(value: str) -> str:
    if "\n" in value or "\r" in value:
        value = _FOLD.sub(" ", value)
    return value.strip(" \t")


def _pairs(headers: Any) -> Iterable[Any]:
    multi = getattr(headers, "multi_items", None)
    if callable(multi):
        return multi()  # type: ignore[no-any-return]
    if isinstance(headers, Mapping) or callable(getattr(headers, "items", None)):
        return headers.items()  # type: ignore[no-any-return]
    return headers  # type: ignore[no-any-return]


def read_headers(headers: Headers, *, strict: bool = True) -> Tuple[Field, ...]:
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
    raw = _text(headers)
    if raw is not None:
        return header_block(raw)
    if isinstance(headers, (int, float)) or (not hasattr(headers, "__iter__") and \
            not callable(getattr(headers, "items", None))):
        if not strict:
            return ()  # a stranger's data that holds no headers
        raise TypeError("headers must be a mapping, an iterable of (name, value) pairs or a "
                        f"raw header block, not {type(headers).__name__}")
    fields: List[Field] = []
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


def _str_pairs(headers: Tuple[Any, ...]) -> Optional[Tuple[Field, ...]]:
    """:func:`read_headers` of a tuple of ``(str, str)`` tuples, read as the general path
    reads them (``None``: another item is among them, read them the general way)."""
    fields: List[Field] = []
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


def final_block(text: str) -> Tuple[int, int, int]:
    r"""Where the final response's header block of a raw dump lies: ``(start, end, body)``,
    the block being ``text[start:end]`` and its body starting at ``body``.

    Blank lines before the first block are skipped. A block ends at the first blank line
    (CRLF, LF or CR line ends); when the next line that is not blank is a status line
    (``HTTP/1.1 200``, ``HTTP/2 200``), the block belonged to an earlier response of the
    same exchange (a redirect, a ``100 Continue``) and that next block is read instead;
    otherwise the body starts after the blank line. Without a blank line the block runs to
    the end (no body). Linear in the text.

    >>> dump = ("HTTP/1.1 301 Moved\r\nLocation: /b\r\n\r\n"
    ...         "HTTP/2 200\r\nx-robots-tag: noindex\r\n\r\n<p>")
    >>> start, end, body = final_block(dump)
    >>> dump[start:end], dump[body:]
    ('HTTP/2 200\r\nx-robots-tag: noindex', '<p>')
    """
    size = len(text)
    start = 0
    while start < size and text[start] in _LINE_ENDS:
        start += 1
    while True:
        blank = _BLANK_LINE.search(text, start)
        if blank is None:
            return start, size, size
        after = blank.end()
        while after < size and text[after] in _LINE_ENDS:
            after += 1
        if _STATUS_LINE.match(text, after) is None:
            return start, blank.start(), blank.end()
        start = after


def _final_text(text: str) -> str:
    """The final block of a raw dump (:func:`final_block`), without copying a single one."""
    if "\n" not in text and "\r" not in text:
        return text
    start, end, _ = final_block(text)
    return text if start == 0 and end == len(text) else text[start:end]


def header_block(text: Union[str, bytes, bytearray, memoryview]) -> Tuple[Field, ...]:
    """The fields of a raw header block: ``Name: value`` lines ending in CRLF, LF or CR.

    Of a dump of several responses only the final one's block is read
    (:func:`final_block`). A status line (``HTTP/1.1 200 OK``) is skipped, a line starting
    with a space or tab continues the previous field (obsolete folding, RFC 9112 §5.2:
    replaced by one space), a line without a colon or with a blank inside its name is not a
    field, and the block ends at the first empty line after a field (what follows is a
    body).
    """
    if not isinstance(text, str):
        text = bytes(text).decode("latin-1")
    return tuple(Field(name, name.lower(), value, number)
                 for number, (name, value) in enumerate(header_pairs(_final_text(text))))


def header_pairs(text: Union[str, bytes, bytearray, memoryview]
                 ) -> Tuple[Tuple[str, str], ...]:
    """The fields of the **first** header block of ``text`` as ``(name, value)`` pairs (the
    WARC reader's record headers, which hand over exactly one block: no :class:`Field` made
    only to be taken apart); :func:`header_block` reads a dump's final block."""
    if not isinstance(text, str):
        text = bytes(text).decode("latin-1")
    fields: List[List[str]] = []
    started = False
    for line in _LINE_END.split(text):
        if not line:
            if started:
                break
            continue
        if line[0] in " \t":
            if fields:
                fields[-1][1] += " " + line.strip(" \t")
            continue
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
    return tuple((name, value.strip(" \t")) for name, value in fields if name)


def block_status(headers: Any) -> Optional[int]:
    r"""The status code of a raw header block's status line (``HTTP/1.1 402 Payment
    Required``; of a dump of several responses, the final one's: :func:`final_block`), or
    ``None`` (not a raw block, or no status line first).

    >>> block_status(b"HTTP/2 402\r\ncrawler-price: USD 0.01\r\n")
    402
    """
    if isinstance(headers, str):
        text = headers
    elif isinstance(headers, _TEXT_TYPES):
        text = bytes(headers).decode("latin-1")
    else:
        return None
    found = _STATUS_CODE.match(_final_text(text)[:64])
    return None if found is None else int(found.group(1))


def joined(fields: Sequence[Field], key: str) -> Optional[Tuple[str, Field]]:
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
