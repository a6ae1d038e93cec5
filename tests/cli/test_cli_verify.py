"""``robotsrules verify`` (issue 36 §2): exit codes, text and JSON, many visitors a line each.

The bundled address snapshot answers (66.249.66.1 is in Google's list for its common
crawlers, 192.0.2.0/24 is documentation space in no list); DNS is off or a real server on
loopback. Nothing reaches the internet.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from robotsrules._identity import _verify
from tests.cli.test_cli_matrix import run as matrix_run
from tests.network.dns_server import DnsServer

GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str]:
    """The CLI matrix's in-process runner (exit code, standard output), stdin empty unless given."""
    return matrix_run(argv, stdin)


@pytest.fixture(autouse=True)
def fresh_checkers() -> Iterator[None]:
    _verify._CHECKERS.clear()
    yield
    _verify._CHECKERS.clear()


def test_verified_exits_0() -> None:
    code, out = run(["verify", "66.249.66.1", "--user-agent", GOOGLEBOT, "--no-dns"])
    assert code == 0
    assert out.startswith("66.249.66.1  Googlebot (Google, search): VERIFIED\n")
    assert "address-list  confirmed" in out and "google-common-crawlers" in out
    assert "it verifies Google, not that the agent is Googlebot" in out


def test_not_verified_exits_1() -> None:
    code, out = run(["verify", "192.0.2.1", "--agent", "Googlebot", "--no-dns"])
    assert code == 1 and "NOT VERIFIED" in out and "DNS not checked" in out


def test_unverifiable_and_unknown_exit_1() -> None:
    assert run(["verify", "192.0.2.1", "--agent", "FooBot", "--no-dns"])[0] == 1
    code, out = run(["verify", "192.0.2.1", "--agent", "YandexBot", "--no-dns"])
    assert code == 1 and "UNKNOWN" in out


def test_json_is_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["verify", "::ffff:66.249.66.1", "--agent", "Googlebot", "--no-dns",
                     "--json"])
    assert code == 0 and out.count("\n") == 1
    answer = json.loads(out)
    assert answer["address"] == "66.249.66.1" and answer["verdict"] == "verified"
    assert [item["kind"] for item in answer["evidence"]] == ["address-list", "name-pattern",
                                                             "web-bot-auth"]


def test_no_claim_whose_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["verify", "66.249.66.1", "--no-dns"])
    assert code == 0 and "no crawler claimed: VERIFIED" in out
    assert "Google's published list google-common-crawlers holds it" in out


def test_hostile_user_agent_made_visible() -> None:
    code, out = run(["verify", "192.0.2.1", "--user-agent", "Evil\x1b]0;owned\x07Bot/1.0",
                     "--no-dns", "--json"])
    assert code == 1 and "\x1b" not in out and "\x07" not in out


@pytest.mark.parametrize("address", ["fe80::1%eth0", "junk", "192.0.2.1 x"])
def test_bad_address_is_one_usage_line(address: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["verify", address, "--agent", "GPTBot", "--no-dns"])
    err = capsys.readouterr().err
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("robotsrules: error: ")


def test_many_from_a_file(tmp_path: Path) -> None:
    listing = tmp_path / "visitors.txt"
    listing.write_text(f"# address, then the visitor's User-Agent\n66.249.66.1\t{GOOGLEBOT}\n"
                       "192.0.2.1 GPTBot/1.2\n\nnot-an-address Googlebot\n66.249.66.2\n")
    code, out = run(["verify", "--file", str(listing), "--no-dns", "--agent", "Googlebot"])
    lines = out.splitlines()
    assert code == 1 and len(lines) == 4
    assert lines[0].startswith("66.249.66.1  verified  Googlebot  ")
    assert lines[1].startswith("192.0.2.1  not-verified  GPTBot  ")
    assert lines[2].startswith("not-an-address  invalid  -  ") and ":5:" in lines[2]
    assert lines[3].startswith("66.249.66.2  verified  Googlebot  ")  # the command's --agent


def test_many_all_verified_exits_0_json_lines() -> None:
    code, out = run(["verify", "--file", "-", "--no-dns", "--json"],
                    f"66.249.66.1 {GOOGLEBOT}\n66.249.66.3 Googlebot/2.1\n".encode())
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [a["verdict"] for a in answers] == ["verified", "verified"]
    assert answers[1]["where"] == "<stdin>:2"


def test_empty_file_exits_1() -> None:
    assert run(["verify", "--file", "-", "--no-dns"], b"# nothing\n") == (1, "")


def test_dns_through_a_named_server() -> None:
    zone = ["1.2.0.192.in-addr.arpa. 300 PTR spider-192-0-2-1.yandex.com.",
            "spider-192-0-2-1.yandex.com. 300 A 192.0.2.1"]
    with DnsServer(zone) as server:
        code, out = run(["verify", "192.0.2.1", "--user-agent",
                         "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
                         "--dns-server", server.address])
        assert server.count("1.2.0.192.in-addr.arpa", "PTR") == 1
    assert code == 0, out
    assert "name-pattern  confirmed" in out and "spider-192-0-2-1.yandex.com" in out


def test_dns_failure_is_unknown_exit_1() -> None:
    with DnsServer([], behaviour={("*", "*"): "drop"}) as server:
        code, out = run(["verify", "192.0.2.1", "--agent", "YandexBot", "--dns-server",
                         server.address, "--dns-deadline", "0.3"])
    assert code == 1 and "UNKNOWN" in out and "deadline of 0.3 s" in out


def test_help_says_whose_user_agent(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["verify", "--help"])[0] == 0
    assert "header the VISITOR sent" in " ".join(capsys.readouterr().out.split())


def test_unreadable_snapshot_is_an_error(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    damaged = tmp_path / "lists.json"
    damaged.write_text('{"version": 1, "lists": [')
    for name in (str(damaged), str(tmp_path / "absent.json")):
        code, out = run(["verify", "66.249.66.1", "--agent", "Googlebot", "--no-dns",
                         "--snapshot", name])
        err = capsys.readouterr().err
        assert code == 2 and out == "" and len(err.splitlines()) == 1, err


def test_browser_from_googles_addresses_is_not_verified() -> None:
    # Issue 36 review, finding 5: a header naming no crawler is not "no claim".
    code, out = run(["verify", "66.249.66.1", "--user-agent",
                     "Mozilla/5.0 (Windows NT 10.0) Chrome/120 Safari/537.36", "--no-dns"])
    assert code == 1 and "VERIFIED" not in out.replace("UNVERIFIABLE", "")
    assert "google-common-crawlers" in out


def test_google_cloud_customer_is_not_google() -> None:
    # Issue 36 review, finding 1: Google's user-triggered-fetchers list (34.64.6.0/27 in the
    # bundled snapshot) holds Google Cloud customers' fetchers.
    code, out = run(["verify", "34.64.6.1", "--user-agent",
                     "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)",
                     "--no-dns"])
    assert code == 1 and "NOT VERIFIED" in out
    assert "a Google Cloud customer's fetcher" in out and ", not Google" in out


def test_many_an_empty_header_field_names_no_crawler() -> None:
    # A log line's empty User-Agent is a header that names no crawler (unverifiable), never
    # the no-claim question "whose list holds it" (second review): in Google's list or not,
    # it is not verified.
    for line in (b"66.249.66.1\t\n", b"66.249.66.1 \n", b"66.249.66.1\t \n"):
        code, out = run(["verify", "--file", "-", "--no-dns", "--json"], stdin=line)
        (answer,) = [json.loads(row) for row in out.splitlines()]
        assert code == 1 and answer["verdict"] == "unverifiable", (line, answer)
    code, out = run(["verify", "--file", "-", "--no-dns", "--json"], stdin=b"66.249.66.1\n")
    assert json.loads(out)["verdict"] == "verified"  # an address alone: whose list holds it
