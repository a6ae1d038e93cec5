"""Field names are remembered as they recur (``_headers._key``), within a bound, and a
remembered name reads exactly as a name read for the first time (the WARC page path reads
the same few dozen names in every record)."""

from __future__ import annotations

from robotsrules._page import _headers, read_headers


def test_names_read_alike_first_and_again() -> None:
    pairs = (("Content-Type", "text/html"), ("X-Robots-Tag", "noai"), ("a b", "x"),
             ("", "y"), ("Caf\u00e9-\u0130", "z"), ("X:Y", "w"))
    first = read_headers(pairs)
    again = read_headers(pairs)
    block = read_headers("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\na b: x\r\n"
                         "X-Robots-Tag: noai\r\n")
    assert first == again
    assert [(f.name, f.key) for f in first] == [
        ("Content-Type", "content-type"), ("X-Robots-Tag", "x-robots-tag"),
        ("Caf\u00e9-\u0130", "caf\u00e9-i\u0307")]
    assert [(f.key, f.value) for f in block] == [("content-type", "text/html"),
                                                 ("x-robots-tag", "noai")]
    assert "a b" not in _headers._KEYS and "X:Y" not in _headers._KEYS


def test_the_names_kept_are_bounded() -> None:
    many = tuple((f"X-Name-{i}", "v") for i in range(3 * _headers._MAX_KEYS))
    fields = read_headers(many)
    assert [f.key for f in fields] == [f"x-name-{i}" for i in range(len(many))]
    assert len(_headers._KEYS) <= _headers._MAX_KEYS
    long = "X-" + "L" * 10_000
    (field,) = read_headers(((long, "v"),))
    assert field.key == long.lower()
    assert long not in _headers._KEYS  # read, never kept: a name's length bounds nothing
