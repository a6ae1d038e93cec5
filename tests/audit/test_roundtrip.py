"""Property tests: a request written by a small writer in the format's own way (Apache's
escapes in the combined and vhost lines, nginx's ``escape=json``) reads back equal, through
the whole streaming reader with the format detected."""

from __future__ import annotations

import datetime
import io
import json

from hypothesis import given
from hypothesis import strategies as st

from robotsrules._audit._formats import Request
from robotsrules._audit._logs import LogReader

UTC = datetime.timezone.utc
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def apache_escape(text: str) -> str:
    """mod_log_config's escaping of %r and %{...}i: \\" and \\\\, control bytes as \\xhh."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\x{ord(char):02x}")
        else:
            out.append(char)
    return "".join(out)


def clf_time(when: datetime.datetime) -> str:
    offset = when.utcoffset() or datetime.timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return (f"{when.day:02d}/{MONTHS[when.month - 1]}/{when.year:04d}:{when.hour:02d}:"
            f"{when.minute:02d}:{when.second:02d} {sign}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}")


def write_combined(request: Request, when: datetime.datetime) -> str:
    prefix = f"{request.host}:443 " if request.host is not None else ""
    size = "-" if request.bytes is None else str(request.bytes)
    return (f'{prefix}{request.client} - - [{clf_time(when)}] '
            f'"{apache_escape(f"{request.method} {request.target} HTTP/1.1")}" '
            f'{request.status} {size} "{apache_escape(request.referer or "-")}" '
            f'"{apache_escape(request.user_agent or "-")}"'
            + (f' "10.0.0.1, {request.forwarded}"' if request.forwarded else "") + "\n")


def write_nginx_json(request: Request, when: datetime.datetime) -> str:
    return json.dumps({
        "time_iso8601": when.isoformat(), "remote_addr": request.client,
        "request": f"{request.method} {request.target} HTTP/2.0", "status": str(request.status),
        "body_bytes_sent": "" if request.bytes is None else str(request.bytes),
        "http_referer": request.referer or "", "http_user_agent": request.user_agent or "",
        "host": request.host or "", "http_x_forwarded_for": request.forwarded or "",
    }, ensure_ascii=False) + "\n"


text = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=40)
field = st.none() | text.filter(lambda t: t != "-")
zones = st.integers(-14 * 60, 14 * 60).map(lambda m: datetime.timezone(datetime.timedelta(minutes=m)))
times = st.builds(
    lambda naive, zone: naive.replace(tzinfo=zone),
    st.datetimes(datetime.datetime(1990, 1, 1), datetime.datetime(2100, 1, 1)).map(
        lambda t: t.replace(microsecond=0)),
    zones)
addresses = st.ip_addresses().map(str)


@st.composite
def requests(draw: st.DrawFn, host: bool) -> tuple:  # type: ignore[type-arg]
    when = draw(times)
    request = Request(
        when.astimezone(UTC), draw(addresses), draw(st.from_regex(r"[A-Z]{1,10}", fullmatch=True)),
        draw(text), draw(st.from_regex(r"[a-z0-9][a-z0-9.-]{0,30}", fullmatch=True)) if host else None,
        draw(st.integers(100, 599)), draw(st.none() | st.integers(0, 10 ** 12)), draw(field),
        draw(field), draw(st.none() | addresses))
    return request, when


@given(st.lists(requests(host=False), min_size=1, max_size=20))
def test_combined_lines_read_back_equal(drawn: list[tuple]) -> None:  # type: ignore[type-arg]
    data = "".join(write_combined(request, when) for request, when in drawn).encode()
    reader = LogReader(skew=datetime.timedelta(days=100_000))
    assert list(reader.read([io.BytesIO(data)])) == [request for request, _when in drawn]
    assert reader.tally.lines == len(drawn)


@given(st.lists(requests(host=True), min_size=1, max_size=20))
def test_vhost_combined_lines_read_back_equal(drawn: list[tuple]) -> None:  # type: ignore[type-arg]
    data = "".join(write_combined(request, when) for request, when in drawn).encode()
    reader = LogReader(skew=datetime.timedelta(days=100_000))
    assert list(reader.read([io.BytesIO(data)])) == [request for request, _when in drawn]




@given(st.lists(requests(host=True), min_size=1, max_size=20))
def test_nginx_json_lines_read_back_equal(drawn: list[tuple]) -> None:  # type: ignore[type-arg]
    data = "".join(write_nginx_json(request, when) for request, when in drawn).encode()
    reader = LogReader("nginx_json", skew=datetime.timedelta(days=100_000))
    assert list(reader.read([io.BytesIO(data)])) == [request for request, _when in drawn]


# Bytes near the formats' shapes: pieces of real lines, quotes, escapes, controls, JSON.
PIECES = ['192.0.2.1 ', '- - ', '[10/Oct/2000:13:55:36 -0700] ', '"GET / HTTP/1.1" ', '200 ', '12 ',
          '"-" ', '"Bot/1 \\"x\\""', '\\x41', '\\', '"', '{', '}', '"ts": 1e999', '"request": {',
          '"uri": "/"', '"EdgeStartTimestamp": "2026-13-45T99:99:99Z"', ', ', '\t', '#Fields: date time',
          '2026-11-02\t06:25:24', 'http 2026-11-02T06:25:24Z ', '\x00', '\r', '\n', '\xff', '\ud800', '"\\udc80"']
noise = st.lists(st.sampled_from(PIECES) | st.text(max_size=5), max_size=40).map(
    lambda parts: "".join(parts).encode("utf-8", "surrogatepass"))


@given(st.lists(noise, max_size=30), st.sampled_from([None, "combined", "vhost_common", "caddy",
                                                      "cloudflare", "nginx_json", "cloudfront", "alb"]))
def test_any_bytes_are_requests_comments_or_counted(lines: list[bytes], name: object) -> None:
    reader = LogReader(name, max_line=200)  # type: ignore[arg-type]
    requests = list(reader.read([io.BytesIO(b"\n".join(lines))]))
    tally = reader.tally
    assert tally.lines == len(requests) + tally.comments + tally.dropped
    for request in requests:
        assert request.time.utcoffset() == datetime.timedelta(0)
        for value in request:
            if isinstance(value, str):
                value.encode("utf-8")  # writable text, never a lone surrogate
