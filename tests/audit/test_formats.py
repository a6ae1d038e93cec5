"""Every log format from samples shaped as the formats' documentation writes them
(``tests/audit/data``; sources in ``robotsrules._audit._formats``' docstring), read through
the streaming reader with the format detected, and the time forms each writes."""

from __future__ import annotations

import datetime
import io
from pathlib import Path
from typing import Optional

import pytest

from robotsrules._audit._formats import Request, make_parser, read_time
from robotsrules._audit._logs import LogReader
from robotsrules.errors import InvalidArgument

DATA = Path(__file__).parent / "data"
UTC = datetime.timezone.utc
GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"


def at(*parts: int) -> datetime.datetime:
    return datetime.datetime(*parts, tzinfo=UTC)


def read(name: str, fields: Optional[dict[str, str]] = None) -> tuple[list[Request], LogReader]:
    reader = LogReader(fields=fields)
    return list(reader.read([DATA / name])), reader


def test_apache_combined_with_the_docs_example_and_hostile_fields() -> None:
    requests, reader = read("apache_combined.log")
    assert reader.tally.formats == {str(DATA / "apache_combined.log"): "combined"}
    assert requests[0] == Request(at(2000, 10, 10, 20, 55, 36), "127.0.0.1", "GET", "/apache_pb.gif",
                                  None, 200, 2326, "http://www.example.com/start.html",
                                  "Mozilla/4.08 [en] (Win98; I ;Nav)")
    assert requests[1].user_agent == GOOGLEBOT and requests[1].target == "/robots.txt"
    # +0100 read to UTC; the query as sent, percent-escapes kept
    assert requests[2].time == at(2026, 11, 2, 6, 0) and requests[2].client == "2001:db8::1"
    assert requests[2].target == "/search?q=%22robots%22&page=2"
    # Apache's \" and \\ and \xhh undone: the user agent as sent, escape byte included
    assert requests[3].user_agent == 'evil "quoted" agent \\ backslash \x1b[2J'
    assert requests[3].target == "/<script>alert(1)</script>"
    # a TLS handshake sent to the plain port: a request with no method or target
    assert requests[4][2:4] == (None, None) and requests[4].status == 400
    # 07:00+01:00 comes after 06:25:24Z: more than the skew back
    assert reader.tally.problems == {"missing_user_agent": 1, "clock_backwards": 1}
    assert reader.tally.lines == 5 and reader.tally.requests == 5


def test_apache_common_has_no_user_agent_and_counts_none_missing() -> None:
    requests, reader = read("apache_common.log")
    assert reader.tally.formats[str(DATA / "apache_common.log")] == "common"
    assert requests == [
        Request(at(2000, 10, 10, 20, 55, 36), "127.0.0.1", "GET", "/apache_pb.gif", None, 200, 2326,
                None, None),
        Request(at(2026, 11, 2, 6, 25, 24), "192.0.2.10", "HEAD", "/robots.txt", None, 304, None,
                None, None)]
    assert reader.tally.problems == {}


def test_nginx_combined_with_forwarded_for_and_x_escapes() -> None:
    requests, reader = read("nginx_combined.log")
    # X-Forwarded-For's last address: the one the proxy added (the first is the client's say)
    assert requests[0].forwarded == "198.51.100.4" and requests[0].client == "198.51.100.4"
    # nginx's \x22, \x5C, \x1B undone
    assert requests[1].target == '/a"b'
    assert requests[1].user_agent == 'Mozilla/5.0 "spoof" \\ \x1b]0;owned\x07 GPTBot/1.2'
    assert requests[1].forwarded is None
    assert requests[2][2:4] == (None, None) and requests[2].status == 400
    assert reader.tally.problems == {"missing_user_agent": 1}


def test_vhost_prefixed_lines_give_the_host() -> None:
    requests, reader = read("vhost_combined.log")
    assert reader.tally.formats[str(DATA / "vhost_combined.log")] == "vhost_combined"
    assert [(r.host, r.client) for r in requests] == [("www.example.com", "192.0.2.10"),
                                                      ("example.org", "2001:db8::7")]
    assert requests[1].time == at(2026, 11, 2, 11, 25, 30)  # -0500
    requests, reader = read("vhost_common.log")
    assert reader.tally.formats[str(DATA / "vhost_common.log")] == "vhost_common"
    assert requests[0].host == "www.example.com" and requests[0].user_agent is None


def test_nginx_json_escape_json_with_the_default_keys() -> None:
    requests, reader = read("nginx.json")
    assert reader.tally.formats[str(DATA / "nginx.json")] == "nginx_json"
    assert requests[0] == Request(at(2026, 11, 2, 6, 25, 24), "192.0.2.10", "GET", "/robots.txt",
                                  "example.org", 200, 68, None, GOOGLEBOT, None)
    assert requests[1].target == "/<img src=x onerror=alert(1)>"
    assert requests[1].user_agent == 'GPTBot/1.2 "q" \\ \x1b[2J'
    assert requests[1].forwarded == "192.0.2.13"  # the last address
    assert requests[1].referer == "javascript:alert(1)"


def test_nginx_json_with_a_field_mapping() -> None:
    mapping = {"time": "ts", "client": "ip", "method": "verb", "target": "path",
               "status": "code", "user_agent": "ua"}
    requests, reader = read("nginx_custom.json", mapping)
    assert requests == [Request(at(2026, 11, 2, 6, 25, 24, 123000), "192.0.2.10", "GET", "/x?y=1",
                                None, 200, None, None, "CCBot/2.0 (https://commoncrawl.org/faq/)")]
    # without it no format reads the line: counted, never guessed
    requests, reader = read("nginx_custom.json")
    assert requests == [] and reader.tally.problems == {"unknown_format": 1}
    with pytest.raises(InvalidArgument):
        LogReader(fields={"agent": "ua"})


def test_caddy_json() -> None:
    requests, reader = read("caddy.json")
    assert reader.tally.formats[str(DATA / "caddy.json")] == "caddy"
    assert requests[0] == Request(at(2026, 11, 2, 6, 25, 24, 524102), "192.0.2.10", "GET",
                                  "/robots.txt", "example.org", 200, 68, None, GOOGLEBOT,
                                  "192.0.2.10")  # client_ip, as Caddy gives it
    # behind a proxy: remote_ip is the proxy, client_ip the client; headers any case
    assert requests[1].client == "198.51.100.1" and requests[1].forwarded == "203.0.113.7"
    assert requests[1].user_agent == "Bytespider; spider-feedback@bytedance.com"
    assert requests[1].referer == "https://example.org/" and requests[1].status == 403
    # Caddy before 2.5: remote_addr with a port; ts as ISO text
    assert requests[2].client == "2001:db8::9" and requests[2].time == at(2026, 11, 2, 6, 25, 26, 500000)
    assert reader.tally.problems == {"missing_user_agent": 1}


def test_cloudflare_logpush_every_timestamp_format() -> None:
    requests, reader = read("cloudflare.ndjson")
    assert reader.tally.formats[str(DATA / "cloudflare.ndjson")] == "cloudflare"
    # unixnano, unix, rfc3339, milliseconds
    assert [r.time for r in requests] == [at(2026, 11, 2, 6, 25, s) for s in (24, 25, 26, 27)]
    assert requests[0] == Request(at(2026, 11, 2, 6, 25, 24), "203.0.113.7", "GET", "/robots.txt",
                                  "example.org", 200, 68, None, GOOGLEBOT, "203.0.113.7")
    assert requests[1].target == "/page?x=1" and requests[2].status == 402
    assert requests[3].user_agent is None
    assert reader.tally.problems == {"missing_user_agent": 1}


def test_cloudfront_standard_log() -> None:
    requests, reader = read("cloudfront.log")
    assert reader.tally.formats[str(DATA / "cloudfront.log")] == "cloudfront"
    assert reader.tally.comments == 2  # #Version and #Fields
    assert requests[0] == Request(at(2026, 11, 2, 6, 25, 24), "192.0.2.100", "GET", "/robots.txt",
                                  "www.example.com", 200, 392, None, GOOGLEBOT, None)
    assert requests[1].target == "/search?q=robots&x=%3Cscript%3E"
    assert requests[1].user_agent == 'Mozilla/5.0 "quoted" GPTBot/1.2'  # URL-decoded
    assert requests[1].forwarded == "198.51.100.3" and requests[1].status == 403


def test_cloudfront_columns_follow_the_fields_line() -> None:
    parser = make_parser("cloudfront")
    assert parser.parse("#Fields: time date cs(User-Agent) c-ip cs-uri-stem sc-status") is None
    request = parser.parse("06:25:24\t2026-11-02\tBot%20X\t192.0.2.1\t/a\t200")
    assert isinstance(request, Request)
    assert (request.time, request.user_agent, request.client, request.target, request.status) == (
        at(2026, 11, 2, 6, 25, 24), "Bot X", "192.0.2.1", "/a", 200)
    assert parser.parse("06:25:24\t2026-11-02") == "malformed"


def test_alb_access_log() -> None:
    requests, reader = read("alb.log")
    assert reader.tally.formats[str(DATA / "alb.log")] == "alb"
    # the request's creation time, not the response's
    assert requests[0] == Request(at(2026, 11, 2, 6, 25, 24, 100000), "192.0.2.39", "GET",
                                  "/robots.txt", "www.example.com", 200, 366, None, GOOGLEBOT)
    assert requests[1].client == "2001:db8::3" and requests[1].target == "/x?y=%22z%22"
    assert requests[1].user_agent == 'agent with "quotes"' and requests[1].status == 404


@pytest.mark.parametrize(("text", "expected"), [
    ("10/Oct/2000:13:55:36 -0700", at(2000, 10, 10, 20, 55, 36)),
    ("01/Jan/2026:00:30:00 +0130", at(2025, 12, 31, 23, 0)),
    ("31/Dec/2026:23:59:60 +0000", at(2026, 12, 31, 23, 59, 59)),  # a leap second
    ("2026-11-02T06:25:24Z", at(2026, 11, 2, 6, 25, 24)),
    ("2026-11-02T06:25:24.123456Z", at(2026, 11, 2, 6, 25, 24, 123456)),
    ("2026-11-02T06:25:24.123456789Z", at(2026, 11, 2, 6, 25, 24, 123456)),  # rfc3339 in ns
    ("2026-11-02T08:25:24+02:00", at(2026, 11, 2, 6, 25, 24)),
    ("2026-11-02T01:25:24-05:00", at(2026, 11, 2, 6, 25, 24)),
    ("2026-11-02T06:25:24", at(2026, 11, 2, 6, 25, 24)),  # CloudFront, ALB: UTC
    ("1793600724", at(2026, 11, 2, 6, 25, 24)),
    ("1793600724.5", at(2026, 11, 2, 6, 25, 24, 500000)),
    (1793600724, at(2026, 11, 2, 6, 25, 24)),
    (1793600724123, at(2026, 11, 2, 6, 25, 24, 123000)),
    (1793600724123456, at(2026, 11, 2, 6, 25, 24, 123456)),
    (1793600724123456789, at(2026, 11, 2, 6, 25, 24, 123456)),
    (1793600724.25, at(2026, 11, 2, 6, 25, 24, 250000)),
])
def test_every_time_form_reads_to_utc(text: object, expected: datetime.datetime) -> None:
    found = read_time(text)
    assert found == expected and found.utcoffset() == datetime.timedelta(0)


@pytest.mark.parametrize("text", [
    "10/Foo/2000:13:55:36 -0700", "10/Oct/2000:13:55:36", "32/Oct/2000:13:55:36 +0000",
    "10/Oct/2000:13:55:36 +2500", "yesterday", "", -5, True, None, float("nan"), "1" * 70,
    "\u0661\u0660/Oct/2000:13:55:36 +0000",  # Arabic-Indic digits: str.isdigit says yes
])
def test_a_time_that_is_none_of_them_is_a_value_error(text: object) -> None:
    with pytest.raises(ValueError):
        read_time(text)


def test_an_unparsable_time_is_counted_not_guessed() -> None:
    parser = make_parser("combined")
    assert parser.parse('192.0.2.1 - - [10/Oct/2000:13:55:99 -0700] "GET / HTTP/1.1" 200 1 "-" "x"') \
        == "unparsable_time"
    assert make_parser("cloudflare").parse(
        '{"ClientRequestURI": "/", "EdgeStartTimestamp": "soon"}') == "unparsable_time"
    assert make_parser("combined").parse("hello world") == "malformed"
    with pytest.raises(InvalidArgument):
        make_parser("w3c")  # type: ignore[arg-type]


def test_caddy_client_ip_is_taken_as_caddy_gives_it() -> None:
    # client_ip equals remote_ip when Caddy trusts no proxy: the header is the client's say
    line = ('{"ts": 1793600724.0, "request": {"remote_ip": "198.51.100.1", "client_ip": '
            '"198.51.100.1", "method": "GET", "host": "example.org", "uri": "/", "headers": '
            '{"X-Forwarded-For": ["203.0.113.8, 198.51.100.1"], "User-Agent": ["Bot/1"]}}, '
            '"size": 5, "status": 200}')
    request = make_parser("caddy").parse(line)
    assert isinstance(request, Request)
    assert (request.client, request.forwarded) == ("198.51.100.1", "198.51.100.1")


def test_detection_takes_the_format_that_reads_the_most_lines() -> None:
    # one combined line, then common ones: "common" reads them all, "combined" one
    common = '192.0.2.{n} - - [02/Nov/2026:06:25:{n:02d} +0000] "GET /{n} HTTP/1.1" 200 {n}\n'
    data = ('192.0.2.1 - - [02/Nov/2026:06:25:00 +0000] "GET / HTTP/1.1" 200 1 "-" "Bot/1"\n'
            + "".join(common.format(n=n) for n in range(1, 20))).encode()
    reader = LogReader()
    requests = list(reader.read([io.BytesIO(data)]))
    assert reader.tally.formats == {"<stream>": "common"} and len(requests) == 20


def test_hostile_json_lines_are_counted_or_made_writable() -> None:
    deep = '{"ts": 1, "request": ' + "[" * 30000 + "]" * 30000 + "}"
    assert make_parser("caddy").parse(deep) == "malformed"
    lone = ('{"ts": 1793600724, "request": {"remote_ip": "192.0.2.1", "method": "GET", '
            '"uri": "/\\udc80", "headers": {"User-Agent": ["Bot \\ud800 \\ud83d\\ude00"]}}, '
            '"status": 200}')
    request = make_parser("caddy").parse(lone)
    assert isinstance(request, Request)
    assert request.user_agent == "Bot \\xed\\xa0\\x80 \U0001f600"  # a pair stays one character
    assert request.target == "/\\xed\\xb2\\x80"
    assert request.user_agent.encode("utf-8") and request.target.encode("utf-8")
    assert make_parser("caddy").parse('{"ts": 1, "request": {"headers": [1, {"x": null}]}}') \
        == Request(read_time(1), None, None, None, None, None, None, None, None)
    assert make_parser("cloudflare").parse(
        '{"ClientRequestURI": ["/"], "EdgeStartTimestamp": 1e400}') == "unparsable_time"


def test_alb_without_the_later_fields_takes_the_response_time() -> None:
    line = ('https 2026-11-02T06:25:24.5Z app/lb/1 - 10.0.0.1:80 -1 -1 -1 460 - 34 0 '
            '"GET https://www.example.com:443/a HTTP/1.1" "-"')
    request = make_parser("alb").parse(line)
    assert request == Request(at(2026, 11, 2, 6, 25, 24, 500000), None, "GET", "/a",
                              "www.example.com", 460, 0, None, None)
    assert make_parser("alb").parse("tcp " + line[6:]) == "malformed"
