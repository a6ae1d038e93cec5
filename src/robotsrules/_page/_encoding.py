"""The character encoding of an HTML body, sniffed as the HTML standard says, and decoded.

HTML Living Standard, "Determining the character encoding" (§13.2.3.2, as of 2026-11), in
its order: (1) a byte-order mark (UTF-8, UTF-16BE, UTF-16LE); (2) the transport layer's
charset when it names an encoding: the ``charset`` parameter of the MIME type that the Fetch
Standard's "extract a MIME type" takes from the ``Content-Type`` values, each parsed by the
MIME Sniffing Standard's "parse a MIME type", then read by Fetch's "legacy extract an
encoding" (Fetch and MIME Sniffing Living Standards, read 2026-11: an invalid MIME type has
no charset, a parameter name is compared case-insensitively and whole, so
``xcharset=utf-16`` is no ``charset``, the first ``charset`` parameter wins and a quoted
value is unquoted);
(3) the *prescan* of the first 1,024 bytes for ``<meta charset>`` or ``<meta
http-equiv="Content-Type" content="...charset=...">`` (a UTF-16 answer there means UTF-8,
``x-user-defined`` means windows-1252); (4) otherwise the standard lets a user agent
"autodetect" (step 7) before its default: bytes that are valid UTF-8 (a character cut by the
end of the window allowed) are read as UTF-8, anything else as windows-1252, the default the
standard gives for most locales. We do not reparse when a ``<meta charset>`` appears after
the first 1,024 bytes (the standard's "change the encoding"): only non-ASCII text in meta
values can differ there, never the markup or the ASCII rule names that decide.

Labels are the WHATWG Encoding Standard's (encodings.json of whatwg/encoding, the
2024-2026 table, with the UTF-16 labels added in 2024); each encoding is decoded with the
Python codec closest to it (noted where they differ). Decoding never raises: bytes an
encoding cannot map become U+FFFD.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import codecs
import re
from typing import Optional

__all__ = ["decode_html", "decode_prefix", "encoding_for_label", "extract_mime_type",
           "parse_mime_type", "prefix_encoding", "prescan", "transport_encoding",
           "utf8_or_1252"]

# WHATWG encoding name -> (Python codec, its labels). Where the Python codec differs from
# the WHATWG decoder: gbk is decoded by gb18030 as the Encoding Standard says; big5 by
# big5hkscs (the standard's Big5 is Big5-HKSCS); shift_jis by cp932 (Windows-31J, which the
# standard's index follows); euc-kr by cp949 (the standard's EUC-KR is windows-949).
_ENCODINGS: dict[str, tuple[str, str]] = {
    "utf-8": ("utf-8", "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8"),
    "ibm866": ("cp866", "866 cp866 csibm866 ibm866"),
    "iso-8859-2": ("iso8859_2", "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 "
                                "iso_8859-2 iso_8859-2:1987 l2 latin2"),
    "iso-8859-3": ("iso8859_3", "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 "
                                "iso_8859-3 iso_8859-3:1988 l3 latin3"),
    "iso-8859-4": ("iso8859_4", "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 "
                                "iso_8859-4 iso_8859-4:1988 l4 latin4"),
    "iso-8859-5": ("iso8859_5", "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 "
                                "iso88595 iso_8859-5 iso_8859-5:1988"),
    "iso-8859-6": ("iso8859_6", "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic "
                                "ecma-114 iso-8859-6 iso-8859-6-e iso-8859-6-i iso-ir-127 "
                                "iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987"),
    "iso-8859-7": ("iso8859_7", "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 "
                                "iso-ir-126 iso8859-7 iso88597 iso_8859-7 iso_8859-7:1987 "
                                "sun_eu_greek"),
    "iso-8859-8": ("iso8859_8", "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e "
                                "iso-ir-138 iso8859-8 iso88598 iso_8859-8 iso_8859-8:1988 "
                                "visual"),
    "iso-8859-8-i": ("iso8859_8", "csiso88598i iso-8859-8-i logical"),
    "iso-8859-10": ("iso8859_10", "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 "
                                  "l6 latin6"),
    "iso-8859-13": ("iso8859_13", "iso-8859-13 iso8859-13 iso885913"),
    "iso-8859-14": ("iso8859_14", "iso-8859-14 iso8859-14 iso885914"),
    "iso-8859-15": ("iso8859_15", "csisolatin9 iso-8859-15 iso8859-15 iso885915 "
                                  "iso_8859-15 l9"),
    "iso-8859-16": ("iso8859_16", "iso-8859-16"),
    "koi8-r": ("koi8_r", "cskoi8r koi koi8 koi8-r koi8_r"),
    "koi8-u": ("koi8_u", "koi8-ru koi8-u"),
    "macintosh": ("mac_roman", "csmacintosh mac macintosh x-mac-roman"),
    "windows-874": ("cp874", "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874"),
    "windows-1250": ("cp1250", "cp1250 windows-1250 x-cp1250"),
    "windows-1251": ("cp1251", "cp1251 windows-1251 x-cp1251"),
    "windows-1252": ("cp1252", "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 "
                               "iso-8859-1 iso-ir-100 iso8859-1 iso88591 iso_8859-1 "
                               "iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252"),
    "windows-1253": ("cp1253", "cp1253 windows-1253 x-cp1253"),
    "windows-1254": ("cp1254", "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 "
                               "iso_8859-9 iso_8859-9:1989 l5 latin5 windows-1254 x-cp1254"),
    "windows-1255": ("cp1255", "cp1255 windows-1255 x-cp1255"),
    "windows-1256": ("cp1256", "cp1256 windows-1256 x-cp1256"),
    "windows-1257": ("cp1257", "cp1257 windows-1257 x-cp1257"),
    "windows-1258": ("cp1258", "cp1258 windows-1258 x-cp1258"),
    "x-mac-cyrillic": ("mac_cyrillic", "x-mac-cyrillic x-mac-ukrainian"),
    "gbk": ("gb18030", "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk "
                       "iso-ir-58 x-gbk"),
    "gb18030": ("gb18030", "gb18030"),
    "big5": ("big5hkscs", "big5 big5-hkscs cn-big5 csbig5 x-x-big5"),
    "euc-jp": ("euc_jp", "cseucpkdfmtjapanese euc-jp x-euc-jp"),
    "iso-2022-jp": ("iso2022_jp", "csiso2022jp iso-2022-jp"),
    "shift_jis": ("cp932", "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j "
                           "x-sjis"),
    "euc-kr": ("cp949", "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 "
                        "ks_c_5601-1989 ksc5601 ksc_5601 windows-949"),
    "replacement": ("", "csiso2022kr hz-gb-2312 iso-2022-cn iso-2022-cn-ext iso-2022-kr "
                        "replacement"),
    "utf-16be": ("utf-16-be", "unicodefffe utf-16be"),
    "utf-16le": ("utf-16-le", "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 "
                              "utf-16le"),
    "x-user-defined": ("", "x-user-defined"),
}
_BY_LABEL: dict[str, str] = {label: name for name, (_, labels) in _ENCODINGS.items()
                             for label in labels.split()}
_ASCII_WS = "\t\n\f\r "
_X_USER_DEFINED = {byte: 0xF700 + byte for byte in range(0x80, 0x100)}


def encoding_for_label(label: str) -> Optional[str]:
    """The WHATWG encoding a label names ("get an encoding"), or ``None``.

    >>> encoding_for_label(" Latin1 "), encoding_for_label("utf-16"), encoding_for_label("x")
    ('windows-1252', 'utf-16le', None)
    """
    return _BY_LABEL.get(label.strip(_ASCII_WS).lower())


_CHARSET = re.compile(r"charset", re.IGNORECASE)


def charset_from_content(value: str) -> Optional[str]:
    """The encoding named in a ``content`` (or ``Content-Type``) value: the HTML standard's
    "algorithm for extracting a character encoding from a meta element"."""
    position = 0
    while True:
        found = _CHARSET.search(value, position)
        if found is None:
            return None
        at = found.end()
        while at < len(value) and value[at] in _ASCII_WS:
            at += 1
        if at >= len(value) or value[at] != "=":
            position = found.end()
            continue
        at += 1
        while at < len(value) and value[at] in _ASCII_WS:
            at += 1
        if at >= len(value):
            return None
        quote = value[at]
        if quote in "\"'":
            end = value.find(quote, at + 1)
            return None if end < 0 else encoding_for_label(value[at + 1:end])
        end = at
        while end < len(value) and value[end] not in _ASCII_WS and value[end] != ";":
            end += 1
        return encoding_for_label(value[at:end])


# MIME Sniffing Living Standard (read 2026-11), "parse a MIME type", and the Fetch Living
# Standard's "extract a MIME type", "get, decode, and split" and "legacy extract an encoding"
# (read 2026-11). HTTP whitespace, HTTP token code points and HTTP quoted-string token code
# points are Fetch's.
_HTTP_WS = "\t\n\r "
_HTTP_TAB_OR_SPACE = "\t "
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+\Z")
_QUOTED_TOKEN = re.compile(r"[\t\x20-\x7e\x80-\xff]*\Z")
_QUOTE_STOPS = re.compile(r'["\\]')
_SPLIT_STOPS = re.compile(r'[",]')
# One value, "type/subtype; charset=token" and nothing else (blanks where the algorithms
# allow them): what the full reading gives it, read at once.
_SIMPLE_TYPE = re.compile(
    r"[\t\n\r ]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+/[!#$%&'*+\-.^_`|~0-9A-Za-z]+)[\t\n\r ]*;"
    r"[\t\n\r ]*[Cc][Hh][Aa][Rr][Ss][Ee][Tt]=([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[\t\n\r ]*\Z")

MimeType = tuple[str, dict[str, str]]
"""A parsed MIME type: its essence (``type/subtype``, lower-cased) and its parameters
(names lower-cased, values as written, the first of a repeated name kept)."""


def _quoted_string(text: str, pos: int, extract: bool) -> tuple[str, int]:
    """Fetch's "collect an HTTP quoted string" from the ``"`` at ``pos``: ``(value, end)``
    (``extract``: the value unquoted and unescaped, else the text as written)."""
    start = pos
    parts: list[str] = []
    pos += 1
    size = len(text)
    while True:
        found = _QUOTE_STOPS.search(text, pos)
        if found is None:
            parts.append(text[pos:])
            pos = size
            break
        stop = found.start()
        parts.append(text[pos:stop])
        pos = stop + 1
        if text[stop] == "\\":
            if pos >= size:
                parts.append("\\")
                break
            parts.append(text[pos])
            pos += 1
            continue
        break
    return ("".join(parts) if extract else text[start:pos]), pos


def parse_mime_type(text: str) -> Optional[MimeType]:
    """The MIME Sniffing Standard's "parse a MIME type" (read 2026-11): ``(essence,
    parameters)``, or ``None`` (failure).

    >>> parse_mime_type('Text/HTML; xcharset=utf-16; Charset="utf-8"; charset=koi8-r')
    ('text/html', {'xcharset': 'utf-16', 'charset': 'utf-8'})
    >>> parse_mime_type("text/html(;charset=utf-8") is None
    True
    """
    text = text.strip(_HTTP_WS)
    slash = text.find("/")
    if slash < 0:
        return None
    kind = text[:slash]
    end = text.find(";", slash + 1)
    if end < 0:
        end = len(text)
    subtype = text[slash + 1:end].rstrip(_HTTP_WS)
    if not kind or not subtype or _TOKEN.match(kind) is None \
            or _TOKEN.match(subtype) is None:
        return None
    params: dict[str, str] = {}
    pos, size = end, len(text)
    while pos < size:
        pos += 1  # past ";"
        while pos < size and text[pos] in _HTTP_WS:
            pos += 1
        stop = pos
        while stop < size and text[stop] != ";" and text[stop] != "=":
            stop += 1
        name = text[pos:stop].lower()
        pos = stop
        if pos < size:
            if text[pos] == ";":
                continue
            pos += 1  # past "="
        if pos >= size:
            break
        if text[pos] == '"':
            value, pos = _quoted_string(text, pos, True)
            stop = text.find(";", pos)
            pos = size if stop < 0 else stop
        else:
            stop = text.find(";", pos)
            stop = size if stop < 0 else stop
            value = text[pos:stop].rstrip(_HTTP_WS)
            pos = stop
            if not value:
                continue
        if name and name not in params and _TOKEN.match(name) is not None \
                and _QUOTED_TOKEN.match(value) is not None:
            params[name] = value
    return (kind + "/" + subtype).lower(), params


def _split_values(text: str) -> list[str]:
    """Fetch's "get, decode, and split" of a field value (the values joined by ``", "``):
    split at commas outside quoted strings, blanks around each value removed."""
    values: list[str] = []
    pos, size = 0, len(text)
    value = ""
    while True:
        found = _SPLIT_STOPS.search(text, pos)
        stop = size if found is None else found.start()
        value += text[pos:stop]
        pos = stop
        if pos < size and text[pos] == '"':
            quoted, pos = _quoted_string(text, pos, False)
            value += quoted
            if pos < size:
                continue
        values.append(value.strip(_HTTP_TAB_OR_SPACE))
        if pos >= size:
            return values
        pos += 1  # past ","
        value = ""


def extract_mime_type(value: str) -> Optional[MimeType]:
    """The Fetch Standard's "extract a MIME type" (read 2026-11) from a ``Content-Type``
    value (several fields joined with ``", "``): the last value that parses (``*/*``
    skipped), carrying the ``charset`` of an earlier value of the same essence when it has
    none; ``None`` when no value parses.

    >>> extract_mime_type("text/html;charset=gbk, text/html")
    ('text/html', {'charset': 'gbk'})
    >>> extract_mime_type("text/html;charset=gbk, text/plain")
    ('text/plain', {})
    """
    charset: Optional[str] = None
    essence: Optional[str] = None
    found: Optional[MimeType] = None
    for each in _split_values(value):
        parsed = parse_mime_type(each)
        if parsed is None or parsed[0] == "*/*":
            continue
        found = parsed
        params = parsed[1]
        if parsed[0] != essence:
            charset = params.get("charset")
            essence = parsed[0]
        elif "charset" not in params and charset is not None:
            params["charset"] = charset
    return found


def transport_encoding(content_type: Optional[str]) -> Optional[str]:
    """The encoding a ``Content-Type`` value names: Fetch's "legacy extract an encoding" of
    its "extract a MIME type" (``None``: no valid MIME type, no ``charset`` parameter, or a
    label that names no encoding).

    >>> transport_encoding("text/html; xcharset=utf-16; charset=utf-8")
    'utf-8'
    >>> transport_encoding("text/html; xcharset=utf-16") is None
    True
    """
    if not content_type or "charset" not in content_type.lower():
        return None  # no parameter can be named "charset": nothing to parse
    simple = _SIMPLE_TYPE.match(content_type)
    if simple is not None:  # "type/subtype; charset=token", the common form: the same answer
        if simple.group(1) == "*/*":
            return None
        return encoding_for_label(simple.group(2))
    found = extract_mime_type(content_type)
    if found is None:
        return None
    label = found[1].get("charset")
    return None if label is None else encoding_for_label(label)


_WS_BYTES = b"\t\n\f\r "
_PRESCAN_JUMP = re.compile(rb"<(?:!--|[Mm][Ee][Tt][Aa][\t\n\f\r /]|/?[A-Za-z]|[!/?])")


# The prescan's "get an attribute", one match per attribute: blanks and "/" skipped, a name
# (its first byte may be "="), then optionally blanks, "=", blanks and a value (quoted, or
# up to a blank or ">"). Reaching the end of the data inside a tag aborts the prescan.
_PRESCAN_ATTRIBUTE = re.compile(
    rb"""[\t\n\f\r /]*([^\t\n\f\r />][^\t\n\f\r />=]*)"""
    rb"""(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)("?)|'([^']*)('?)"""
    rb"""|([^\t\n\f\r >"'][^\t\n\f\r >]*)|(?=>)))?""")
_PRESCAN_TAG_END = re.compile(rb"[\t\n\f\r /]*>")


def _attributes(data: bytes, pos: int) -> tuple[Optional[list[tuple[bytes, bytes]]], int]:
    """Every attribute up to the tag's ``>`` (``(attributes, position of ">")``), or
    ``(None, end)`` when the data ends inside the tag."""
    size = len(data)
    found: list[tuple[bytes, bytes]] = []
    while True:
        end = _PRESCAN_TAG_END.match(data, pos)
        if end is not None:
            return found, end.end() - 1
        match = _PRESCAN_ATTRIBUTE.match(data, pos)
        if match is None or match.end() >= size:
            return None, size
        name, double, closed, single, closed_single, bare = match.groups()
        if (double is not None and not closed) or (single is not None and not closed_single):
            return None, size  # an unterminated quote runs off the end
        value = double if double is not None else single if single is not None else bare
        found.append((name.lower(), (value or b"").lower()))
        pos = match.end()


def prescan(data: bytes) -> Optional[str]:
    """The HTML standard's "prescan a byte stream to determine its encoding" over ``data``
    (the caller passes the first 1,024 bytes): the encoding a ``<meta>`` declares, or
    ``None``.

    >>> prescan(b'<!-- <meta charset=koi8-r> --><meta http-equiv="Content-Type" '
    ...         b'content="text/html; charset=Shift_JIS">')
    'shift_jis'
    """
    if data.startswith(b"<\x00?\x00x\x00"):
        return "utf-16le"  # "Prescan for UTF-16 XML declarations"
    if data.startswith(b"\x00<\x00?\x00x"):
        return "utf-16be"
    found = _prescan_meta(data) if b"charset" in data.lower() else None
    return found if found is not None else _xml_encoding(data)


def _xml_encoding(data: bytes) -> Optional[str]:
    """"Get an XML encoding": ``<?xml ... encoding="..."`` at the very start."""
    if not data.startswith(b"<?xml"):
        return None
    end = data.find(b">")
    if end < 0:
        return None
    at = data.find(b"encoding", 0, end)
    if at < 0:
        return None
    at += 8
    while at < end and data[at] <= 0x20:
        at += 1
    if at >= end or data[at] != 0x3D:
        return None
    at += 1
    while at < end and data[at] <= 0x20:
        at += 1
    if at >= len(data) or data[at] not in b"\"'":
        return None
    close = data.find(data[at:at + 1], at + 1)
    if close < 0:
        return None
    label = data[at + 1:close]
    if any(byte <= 0x20 for byte in label):
        return None
    found = encoding_for_label(label.decode("latin-1"))
    return "utf-8" if found in ("utf-16be", "utf-16le") else found


def _prescan_meta(data: bytes) -> Optional[str]:
    pos, size = 0, len(data)
    while pos < size:
        jump = _PRESCAN_JUMP.search(data, pos)
        if jump is None:
            return None
        pos = jump.start()
        token = jump.group()
        if token == b"<!--":
            end = data.find(b"-->", pos + 2)
            if end < 0:
                return None
            pos = end + 3
            continue
        if len(token) == 6:  # "<meta" and a blank or "/"
            attributes, pos = _attributes(data, pos + 6)
            if attributes is None:
                return None
            seen = set()
            got_pragma = False
            need_pragma: Optional[bool] = None
            charset: Optional[str] = None
            for name, value in attributes:
                if name in seen:
                    continue
                seen.add(name)
                if name == b"http-equiv":
                    got_pragma = got_pragma or value == b"content-type"
                elif name == b"content":
                    found = charset_from_content(value.decode("latin-1"))
                    if found is not None and charset is None:
                        charset, need_pragma = found, True
                elif name == b"charset":
                    charset = encoding_for_label(value.decode("latin-1"))
                    need_pragma = False
            pos += 1
            if need_pragma is None or (need_pragma and not got_pragma) or charset is None:
                continue
            if charset in ("utf-16be", "utf-16le"):
                return "utf-8"
            if charset == "x-user-defined":
                return "windows-1252"
            return charset
        if token[-1:].isalpha():  # a start or end tag: skip its attributes
            while pos < size and data[pos] not in b"\t\n\f\r >":
                pos += 1
            attributes, pos = _attributes(data, pos)
            if attributes is None:
                return None
            pos += 1
            continue
        end = data.find(b">", pos + 2)  # "<!", "</", "<?": to the next ">"
        if end < 0:
            return None
        pos = end + 1
    return None


def _decode(data: bytes, encoding: str) -> str:
    if encoding == "replacement":
        return "\ufffd" if data else ""
    if encoding == "x-user-defined":
        return data.decode("latin-1").translate(_X_USER_DEFINED)
    return data.decode(_ENCODINGS[encoding][0], "replace")


def utf8_or_1252(data: bytes, cut: bool) -> tuple[str, str]:
    """Autodetection's reading of bytes no label decides: UTF-8, else windows-1252."""
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as error:
        # A character cut by the end of the window is still UTF-8.
        if cut and error.start >= len(data) - 3 and error.reason == "unexpected end of data":
            return data.decode("utf-8", "replace"), "utf-8"
        return data.decode("cp1252", "replace"), "windows-1252"


def sniff(data: bytes, transport: Optional[str] = None) -> tuple[str, int]:
    """``(encoding, bytes to skip)``: the BOM, the transport charset (a ``Content-Type``
    value), the prescan, or ``""`` when the standard leaves it to autodetection."""
    if data[:3] == b"\xef\xbb\xbf":
        return "utf-8", 3
    if data[:2] == b"\xfe\xff":
        return "utf-16be", 2
    if data[:2] == b"\xff\xfe":
        return "utf-16le", 2
    if transport:
        found = transport_encoding(transport)
        if found is not None:
            return found, 0
    found = prescan(data[:1024])
    return (found, 0) if found is not None else ("", 0)


# The encodings whose Python codec maps each byte to one character (no state, no sequence
# longer than a byte): the text of the first n bytes is the first n characters of the text.
_SINGLE_BYTE = frozenset(
    name for name, (codec, _) in _ENCODINGS.items()
    if codec.startswith(("cp", "iso8859_", "koi8_", "mac_")) and codec not in ("cp932", "cp949"))


def prefix_encoding(data: bytes, transport: Optional[str] = None) -> tuple[str, int]:
    """``(encoding, bytes to skip)`` when :func:`decode_prefix` can give the text of
    :func:`decode_html` a prefix at a time (UTF-8, by a BOM, the transport, the prescan or
    because every byte is ASCII, or a single-byte encoding); ``("", 0)`` otherwise (the
    whole body must be decoded at once: UTF-16, the CJK encodings, or a body that is not
    ASCII and whose encoding is left to autodetection, which reads all of it)."""
    encoding, skip = sniff(data, transport)
    if not encoding and data.isascii():
        encoding = "utf-8"  # what autodetection reads ASCII bytes as
    if encoding == "utf-8" or encoding in _SINGLE_BYTE:
        return encoding, skip
    return "", 0


def decode_prefix(data: bytes, encoding: str, skip: int, size: int) -> tuple[str, bool]:
    """``(text, whole)``: the text of the first ``size`` bytes of ``data`` after ``skip``,
    decoded as ``encoding`` (from :func:`prefix_encoding`), and whether that is all of
    ``data``. The text is exactly the start of :func:`decode_html`'s: a UTF-8 character
    cut by the window's end is left out (an incremental decoder holds it back), never
    replaced."""
    end = skip + size
    if end >= len(data):
        return _decode(data[skip:] if skip else data, encoding), True
    if encoding == "utf-8":
        # The incremental decoder's first step, without its Python wrapper: a character cut
        # at the end is held back, not replaced.
        return codecs.utf_8_decode(data[skip:end], "replace", False)[0], False
    return _decode(data[skip:end], encoding), False


def decode_html(data: bytes, transport: Optional[str] = None, *, cut: bool = False
                ) -> tuple[str, str]:
    """``(text, encoding)`` of an HTML body's bytes, sniffed as the module docstring says;
    ``cut`` tells that ``data`` is a window cut from a longer body.

    >>> decode_html(b"\\xff\\xfe<\\x00p\\x00>\\x00")
    ('<p>', 'utf-16le')
    >>> decode_html(b"<p>caf\\xe9")
    ('<p>café', 'windows-1252')
    """
    encoding, skip = sniff(data, transport)
    if not encoding:
        return utf8_or_1252(data, cut)
    return _decode(data[skip:] if skip else data, encoding), encoding
