"""``robotsrules verify --request FILE`` (issue 38): real signed requests (``Signer``) as raw
HTTP requests and as JSON, checked against HTTPS key directories on loopback with a CA of
the test's own; exit 0 verified, 1 otherwise, 2 for what is no request."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from robotsrules._identity._httpsig import Signer, SigningKey
from tests.cli.test_cli_matrix import RAW
from tests.cli.test_cli_matrix import run as matrix_run
from tests.identity.directories import WELL_KNOWN, Authority, TLSServer, authority, directory
from tests.identity.test_verify_request import FAULTS, registry_file
from tests.network.servers import head

PAGE = "https://site.example/page?q=1"


@pytest.fixture(scope="module")
def ca(tmp_path_factory: pytest.TempPathFactory) -> Authority:
    return authority(tmp_path_factory.mktemp("ca"))


@pytest.fixture(scope="module")
def key() -> SigningKey:
    return SigningKey.generate()


@pytest.fixture(scope="module")
def server(ca: Authority, key: SigningKey) -> Any:
    with TLSServer(ca.server, {WELL_KNOWN: directory([key])}) as running:
        yield running


@pytest.fixture(scope="module")
def crawlers(server: Any, tmp_path_factory: pytest.TempPathFactory) -> str:
    return registry_file(tmp_path_factory.mktemp("registry"), server.url(WELL_KNOWN))


def headers(key: SigningKey, agent: str, user_agent: str = "ExampleBot/1.0",
            shift: float = 0.0) -> dict[str, str]:
    signer = Signer(key, agent, clock=lambda: time.time() + shift)
    sent = {"Host": "site.example", "User-Agent": user_agent}
    return {**sent, **signer("GET", PAGE, sent)}


def raw(fields: dict[str, str], target: str = "/page?q=1") -> bytes:
    lines = [f"GET {target} HTTP/1.1", *(f"{k}: {v}" for k, v in fields.items()), "", ""]
    return "\r\n".join(lines).encode("latin-1")


def verify(tmp_path: Path, body: bytes, ca: Authority, crawlers: str, *more: str,
           stdin: bool = False) -> tuple[int, str]:
    argv = ["verify", "--request", "-" if stdin else str(tmp_path / "request.txt"),
            "--crawlers", crawlers, "--allow-private-addresses", "--ca-bundle",
            str(ca.ca_file), *more]
    if not stdin:
        (tmp_path / "request.txt").write_bytes(body)
    return matrix_run(argv, body if stdin else b"")


def test_a_raw_signed_request_is_verified(tmp_path: Path, ca: Authority, key: SigningKey,
                                          server: Any, crawlers: str) -> None:
    code, out = verify(tmp_path, raw(headers(key, server.origin)), ca, crawlers)
    assert code == 0, out
    assert out.startswith("GET https://site.example/page?q=1  ExampleBot (Example Ltd, "
                          "user-triggered): VERIFIED\n"), out
    assert f"signature: verified; key directory: {server.url(WELL_KNOWN)}" in out


def test_headers_as_json_on_standard_input(tmp_path: Path, ca: Authority, key: SigningKey,
                                           server: Any, crawlers: str) -> None:
    fields = headers(key, server.origin)
    code, out = verify(tmp_path, json.dumps(fields).encode(), ca, crawlers, "--json",
                       stdin=True)
    # The headers alone: the URL is https://HOST/ (the default signature covers @authority
    # and its Signature-Agent member, not the path)
    answer = json.loads(out)
    assert code == 0 and answer["request"]["url"] == "https://site.example/", answer
    full = {"method": "GET", "url": PAGE, "headers": headers(key, server.origin)}
    code, out = verify(tmp_path, json.dumps(full).encode(), ca, crawlers, "--json")
    answer = json.loads(out)
    assert code == 0 and answer["verdict"] == "verified", answer
    assert answer["request"] == {"method": "GET", "url": PAGE}
    assert answer["directory"] == server.url(WELL_KNOWN)


def test_the_guard_and_the_trust_store(tmp_path: Path, ca: Authority, key: SigningKey,
                                       server: Any, crawlers: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "request.txt").write_bytes(raw(headers(key, server.origin)))
    guarded = matrix_run(["verify", "--request", str(tmp_path / "request.txt"), "--crawlers",
                          crawlers, "--ca-bundle", str(ca.ca_file)], b"")
    assert guarded[0] == 1 and "UNKNOWN" in guarded[1] and "address guard" in guarded[1]
    monkeypatch.setenv("SSL_CERT_FILE", str(ca.ca_file))
    (tmp_path / "request.txt").write_bytes(raw(headers(key, server.origin)))
    trusted = matrix_run(["verify", "--request", str(tmp_path / "request.txt"), "--crawlers",
                          crawlers, "--allow-private-addresses"], b"")
    assert trusted[0] == 0, trusted[1]


@pytest.mark.parametrize(("change", "verdict", "reason"), FAULTS)
def test_each_fault(tmp_path: Path, ca: Authority, key: SigningKey, server: Any,
                    crawlers: str, change: Any, verdict: str, reason: str) -> None:
    fields = change(headers(key, server.origin), server.origin)
    code, out = verify(tmp_path, raw(fields), ca, crawlers, "--json")
    answer = json.loads(out)
    assert (code, answer["verdict"], answer["signature"]) == (1, verdict, reason), answer


@pytest.mark.parametrize(("shift", "reason"), [(-3600.0, "expired"),
                                               (3600.0, "created-in-future")])
def test_timing(tmp_path: Path, ca: Authority, key: SigningKey, server: Any, crawlers: str,
                shift: float, reason: str) -> None:
    code, out = verify(tmp_path, raw(headers(key, server.origin, shift=shift)), ca, crawlers)
    assert code == 1 and "NOT VERIFIED" in out and f"signature: {reason};" in out


def test_a_key_the_directory_does_not_list(tmp_path: Path, ca: Authority, server: Any,
                                           crawlers: str) -> None:
    code, out = verify(tmp_path, raw(headers(SigningKey.generate(), server.origin)), ca,
                       crawlers)
    assert code == 1 and "signature: key-not-in-directory;" in out


def test_a_directory_that_cannot_be_had(tmp_path: Path, ca: Authority, key: SigningKey,
                                        crawlers: str) -> None:
    with TLSServer(ca.server) as empty:  # every path a 404
        code, out = verify(tmp_path, raw(headers(key, empty.origin)), ca, crawlers)
    assert code == 1 and "UNKNOWN" in out and "signature: directory-unreachable;" in out


def test_a_replay_is_refused(tmp_path: Path, ca: Authority, key: SigningKey, server: Any,
                             crawlers: str) -> None:
    once = raw(headers(key, server.origin))
    assert verify(tmp_path, once, ca, crawlers)[0] == 0
    code, out = verify(tmp_path, once, ca, crawlers)
    assert code == 1 and "signature: replayed;" in out


def test_strangers_text_is_shown_visibly(tmp_path: Path, ca: Authority, key: SigningKey,
                                         crawlers: str) -> None:
    # the signer's directory answers with a media type holding a C1 control (CSI, which
    # HTTP lets through as obs-text); the reason quotes it, made visible, in text and JSON
    hostile = "text/owned\x9b2J\x85"
    with TLSServer(ca.server, {WELL_KNOWN: lambda exchange: exchange.send(
            head(200, [("Content-Type", hostile), ("Content-Length", "0")]))}) as moved:
        fields = headers(key, moved.origin, user_agent="Evil\x1b[31mBot")
        for form in ((), ("--json",)):
            code, out = verify(tmp_path, raw(fields), ca, crawlers, *form)
            assert code == 1 and "owned" in out and not RAW & set(out), out


def test_a_field_on_several_lines_is_one_field(tmp_path: Path, ca: Authority, key: SigningKey,
                                               server: Any, crawlers: str) -> None:
    # RFC 9110 5.3: field lines of one name are one comma-separated field; our signature's
    # label is found beside another signature sent on its own lines
    fields = headers(key, server.origin)
    head_ = raw(fields).decode("latin-1").rstrip("\r\n")
    more = '\r\nSignature-Input: other=("@method");tag="other"\r\nSignature: other=:AAAA:'
    code, out = verify(tmp_path, (head_ + more + "\r\n\r\n").encode("latin-1"), ca,
                       crawlers)
    assert code == 0, out


@pytest.mark.parametrize(("body", "said"), [
    (b"", "empty"),
    (b"GET /\r\nHost: a\r\n\r\n", "not a request line"),
    (b"GET / HTTP/1.1\r\nno colon here\r\n\r\n", "line 2 is not a header field"),
    (b"GET / HTTP/1.1\r\n folded: x\r\n\r\n", "line 2 is not a header field"),
    (b"GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", "no usable Host"),
    (b"GET x HTTP/1.1\r\nHost: a\r\n\r\n", "neither a path"),
    (b"[1, 2]", "not an object"),
    (b"{\"User-Agent\": 5}", "not a string"),
    (b"{", "not JSON"),
    (b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 201 + b"Host: a\r\n\r\n", "more than 200"),
    (b"GET / HTTP/1.1\r\nX: " + b"y" * 70_000 + b"\r\n\r\n", "longer than"),
])
def test_what_is_no_request_is_a_usage_error(tmp_path: Path, ca: Authority, crawlers: str,
                                             body: bytes, said: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = verify(tmp_path, body, ca, crawlers)
    err = capsys.readouterr().err
    assert code == 2 and said in err and err.count("\n") == 1, err


def test_an_absolute_form_target(tmp_path: Path, ca: Authority, key: SigningKey, server: Any,
                                 crawlers: str) -> None:
    fields = {k: v for k, v in headers(key, server.origin).items() if k != "Host"}
    code, out = verify(tmp_path, raw(fields, target=PAGE), ca, crawlers, "--json")
    assert code == 0 and json.loads(out)["request"]["url"] == PAGE, out
