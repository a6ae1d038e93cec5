"""``robotsrules.verify``: the verdict and its evidence (issue 36 §2).

The address lists are small snapshots built here (documentation prefixes, RFC 5737 and
RFC 3849), so that each rule of the verdict is tested by one list; the DNS is a real server
on loopback (:mod:`tests.network.dns_server`). Nothing reaches the internet.
"""

from __future__ import annotations

import datetime
import ipaddress
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import robotsrules
from robotsrules._identity import _verify
from robotsrules._identity import verify as identity_verify
from robotsrules._tables._addresses import AddressIndex, AddressList, NamePattern, Snapshot
from robotsrules.errors import InvalidArgument
from tests.network.dns_server import DnsServer
from tests.timing import finishes

NOW = datetime.datetime(2026, 11, 27, 12, 0, tzinfo=datetime.timezone.utc)
READ = NOW - datetime.timedelta(days=1)
GOOGLEBOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
GOOGLE_TOKENS = ("Googlebot", "Googlebot-Image", "GoogleOther")


def a_list(name: str, operator: str, tokens: Sequence[str], prefixes: Sequence[str],
           read: datetime.datetime = READ, captured: bool = True) -> AddressList:
    return AddressList(name, f"https://lists.example/{name}.json", operator, tuple(tokens),
                       read if captured else None, None, None, captured, "test",
                       tuple(prefixes) if captured else ())


def snapshot(*lists: AddressList, patterns: Sequence[NamePattern] = ()) -> Snapshot:
    return Snapshot(AddressIndex(lists), tuple(lists), tuple(patterns), "file", "test",
                    NOW, 1)


GOOGLE_NAMES = NamePattern("Google", ("googlebot.com",), GOOGLE_TOKENS,
                           "https://names.example/google")
YANDEX_NAMES = NamePattern("Yandex", ("yandex.ru", "yandex.net", "yandex.com"),
                           ("YandexBot",), "https://names.example/yandex")
LISTS = snapshot(
    a_list("google-common", "Google", GOOGLE_TOKENS, ["192.0.2.0/28", "2001:db8::/64"]),
    a_list("openai-gptbot", "OpenAI", ["GPTBot"], ["198.51.100.0/28"]),
    a_list("openai-chatgpt-user", "OpenAI", ["ChatGPT-User"], ["198.51.100.16/28"]),
    a_list("anthropic-bots", "Anthropic", ["ClaudeBot", "Claude-User", "Claude-SearchBot"],
           ["203.0.113.0/28"]),
    a_list("bing-bingbot", "Microsoft", ["Bingbot"], [], captured=False),
    patterns=[GOOGLE_NAMES, YANDEX_NAMES])


@pytest.fixture(autouse=True)
def fresh_checkers() -> Iterator[None]:
    # One loopback server's port may be another's later: no cached answer crosses tests.
    _verify._CHECKERS.clear()
    yield
    _verify._CHECKERS.clear()


def kinds(answer: robotsrules.Verification) -> tuple[tuple[str, str], ...]:
    return tuple((item.kind, item.outcome) for item in answer.evidence)


def test_public_name() -> None:
    assert robotsrules.verify is identity_verify
    assert "verify" in robotsrules.__all__ and "Verification" in robotsrules.__all__


def test_verified_by_the_list_for_the_claimed_agent() -> None:
    answer = robotsrules.verify("198.51.100.7", "Mozilla/5.0 (compatible; GPTBot/1.2; "
                                "+https://openai.com/gptbot)", now=NOW, dns=False,
                                snapshot=LISTS)
    assert answer.verdict == "verified" and answer.verified
    assert (answer.token, answer.operator, answer.category) == ("GPTBot", "OpenAI",
                                                                "ai-training")
    held = answer.evidence[0]
    assert (held.list, held.prefix, held.read, held.stale) == (
        "openai-gptbot", "198.51.100.0/28", "2026-11-26", False)
    assert not answer.operator_only
    assert kinds(answer) == (("address-list", "confirmed"), ("name-pattern", "not-published"),
                             ("web-bot-auth", "not-published"))


def test_shared_list_verifies_the_operator_not_the_agent() -> None:
    answer = robotsrules.verify("203.0.113.5", agent="Claude-User", now=NOW, dns=False,
                                snapshot=LISTS)
    assert answer.verdict == "verified"
    assert answer.operator_only
    assert "verifies Anthropic, not that the agent is Claude-User" in answer.reason


def test_another_agents_list_of_the_same_operator_does_not_verify() -> None:
    answer = robotsrules.verify("198.51.100.20", "GPTBot/1.2", now=NOW, dns=False,
                                snapshot=LISTS)
    assert answer.verdict == "not-verified"
    assert "openai-chatgpt-user" in answer.reason


def test_stale_list_still_answers_flagged() -> None:
    later = NOW + datetime.timedelta(days=40)
    answer = robotsrules.verify("198.51.100.7", agent="GPTBot", now=later, dns=False,
                                snapshot=LISTS)
    assert answer.verdict == "verified" and answer.stale
    assert answer.evidence[0].age_days == 41 and "41 days ago" in answer.reason
    missing = robotsrules.verify("192.0.2.200", agent="GPTBot", now=later, dns=False,
                                 snapshot=LISTS)
    assert missing.verdict == "not-verified" and missing.evidence[0].stale


def test_not_in_the_list_with_dns_off() -> None:
    answer = robotsrules.verify("192.0.2.200", GOOGLEBOT_UA, now=NOW, dns=False,
                                snapshot=LISTS)
    assert answer.verdict == "not-verified"
    assert "DNS not checked" in answer.reason
    assert kinds(answer)[1] == ("name-pattern", "not-checked")


def test_list_not_captured_is_unknown() -> None:
    answer = robotsrules.verify("192.0.2.1", agent="Bingbot", now=NOW, dns=False,
                                snapshot=LISTS)
    assert answer.verdict == "unknown"
    assert "could not be captured" in answer.reason


def test_only_dns_published_and_dns_off_is_unknown() -> None:
    answer = robotsrules.verify("192.0.2.1", "YandexBot/3.0", now=NOW, dns=False,
                                snapshot=LISTS)
    assert answer.verdict == "unknown"


def test_unknown_crawler_and_crawler_without_evidence_are_unverifiable() -> None:
    unknown = robotsrules.verify("192.0.2.1", "FooBot/1.0", dns=False, snapshot=LISTS)
    assert unknown.verdict == "unverifiable" and unknown.token == "FooBot"
    assert "the address is in Google: google-common" in unknown.reason
    none = robotsrules.verify("192.0.2.1", agent="Google-Extended", dns=False,
                              snapshot=LISTS)
    assert none.verdict == "unverifiable" and none.operator == "Google"
    assert {outcome for _, outcome in kinds(none)} == {"not-published"}


def test_missing_snapshot_is_unknown(tmp_path: object) -> None:
    answer = robotsrules.verify("192.0.2.1", agent="GPTBot", dns=False,
                                snapshot=f"{tmp_path}/absent.json")
    assert answer.verdict == "unknown" and "no address snapshot" in answer.reason
    assert answer.snapshot.startswith("none")


def _google_zone(forward: str) -> list:
    return ["200.2.0.192.in-addr.arpa. 300 PTR crawl-192-0-2-200.googlebot.com.",
            f"crawl-192-0-2-200.googlebot.com. 300 A {forward}"]


def test_verified_by_forward_confirmed_dns() -> None:
    with DnsServer(_google_zone("192.0.2.200")) as server:
        answer = finishes(lambda: robotsrules.verify(
            "192.0.2.200", GOOGLEBOT_UA, now=NOW, dns=server.address, snapshot=LISTS))
    assert answer.verdict == "verified"
    assert kinds(answer)[:2] == (("address-list", "not-confirmed"),
                                 ("name-pattern", "confirmed"))
    assert answer.evidence[1].name == "crawl-192-0-2-200.googlebot.com"
    assert answer.operator_only  # googlebot.com names are shared by Google's agents


def test_lying_ptr_is_not_verified() -> None:
    with DnsServer(_google_zone("66.249.66.1")) as server:
        answer = finishes(lambda: robotsrules.verify(
            "192.0.2.200", GOOGLEBOT_UA, now=NOW, dns=server.address, snapshot=LISTS))
    assert answer.verdict == "not-verified"


def test_dns_failure_is_unknown_never_not_verified() -> None:
    with DnsServer(_google_zone("192.0.2.200"), behaviour={("*", "*"): "servfail"}) as server:
        answer = finishes(lambda: robotsrules.verify(
            "192.0.2.200", GOOGLEBOT_UA, now=NOW, dns=server.address, snapshot=LISTS))
    assert answer.verdict == "unknown" and "SERVFAIL" in answer.reason


def test_dns_deadline_is_unknown() -> None:
    with DnsServer([], behaviour={("*", "*"): "drop"}) as server:
        answer = finishes(lambda: robotsrules.verify(
            "192.0.2.200", GOOGLEBOT_UA, now=NOW, dns=server.address, dns_deadline=0.3,
            snapshot=LISTS))
    assert answer.verdict == "unknown" and "deadline of 0.3 s" in answer.reason


def test_list_hit_needs_no_dns() -> None:
    with DnsServer([]) as server:
        answer = robotsrules.verify("192.0.2.1", GOOGLEBOT_UA, now=NOW, dns=server.address,
                                    snapshot=LISTS)
        assert not server.queries
    assert answer.verdict == "verified" and kinds(answer)[1] == ("name-pattern", "not-checked")


def test_no_claim_whose_list_holds_it() -> None:
    answer = robotsrules.verify("198.51.100.20", now=NOW, dns=False, snapshot=LISTS)
    assert answer.verdict == "verified" and answer.token is None
    assert answer.operator == "OpenAI" and answer.operator_only
    assert answer.listed_by == ("OpenAI: openai-chatgpt-user",)
    assert "ChatGPT-User" in answer.reason


def test_no_claim_by_dns_names() -> None:
    with DnsServer(_google_zone("192.0.2.200")) as server:
        answer = finishes(lambda: robotsrules.verify(
            "192.0.2.200", now=NOW, dns=server.address, snapshot=LISTS))
    assert answer.verdict == "verified" and answer.operator == "Google"


def test_no_claim_nowhere() -> None:
    answer = robotsrules.verify("192.0.2.200", now=NOW, dns=False, snapshot=LISTS)
    assert answer.verdict == "not-verified" and answer.listed_by == ()
    browser = robotsrules.verify("192.0.2.200", "Mozilla/5.0 (X11; Linux x86_64) "
                                 "AppleWebKit/537.36 (KHTML, like Gecko)", dns=False,
                                 snapshot=LISTS)
    assert browser.token is None and browser.verdict == "unverifiable"
    assert "names no known crawler" in browser.reason


@pytest.mark.parametrize("text,read", [
    ("::ffff:198.51.100.7", "198.51.100.7"), ("2001:db8::5", "2001:db8::5"),
    ("2001:DB8:0::5", "2001:db8::5"),
])
def test_address_forms(text: str, read: str) -> None:
    answer = robotsrules.verify(text, agent="GPTBot", dns=False, snapshot=LISTS)
    assert answer.address == read


@pytest.mark.parametrize("text", ["fe80::1%eth0", "192.0.2.1 ", "192.0.2.01", "example.com",
                                  "", "192.0.2.1/32", "1.2.3.4\x1b[2J", "::ffff:1.2.3.4.5"])
def test_bad_addresses_one_clear_line(text: str) -> None:
    with pytest.raises(InvalidArgument) as raised:
        robotsrules.verify(text, agent="GPTBot", dns=False, snapshot=LISTS)
    message = str(raised.value)
    assert "\n" not in message and "\x1b" not in message


def test_every_answer_lists_every_kind() -> None:
    for claim in ("GPTBot", "Bingbot", "YandexBot", "FooBot", None):
        answer = robotsrules.verify("192.0.2.9", agent=claim, dns=False, snapshot=LISTS)
        assert [item.kind for item in answer.evidence] == list(_verify.EVIDENCE_KINDS)


def test_shipped_snapshot_answers() -> None:
    answer = robotsrules.verify("192.0.2.1", agent="GPTBot", dns=False)
    assert answer.verdict == "not-verified"
    assert answer.snapshot.split()[0] in ("bundled", "refreshed")


def test_as_dict_is_json_ready() -> None:
    import json

    answer = robotsrules.verify("203.0.113.5", agent="ClaudeBot", dns=False, snapshot=LISTS)
    data = json.loads(json.dumps(answer.as_dict()))
    assert data["verdict"] == "verified" and data["evidence"][0]["list"] == "anthropic-bots"


def test_ipv6_list_hit() -> None:
    answer = robotsrules.verify(ipaddress.ip_address("2001:db8::9"), agent="Googlebot",
                                dns=False, snapshot=LISTS)
    assert answer.verdict == "verified"


def test_refreshed_copy_read_again_only_when_it_changes(tmp_path: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from robotsrules._tables._addresses import snapshot_document

    copy = tmp_path / "crawler-addresses.json"
    monkeypatch.setenv("ROBOTSRULES_ADDRESSES", str(copy))
    # A refreshed copy is read list by list into the bundled catalogue: the list keeps the
    # catalogue's name, URL, operator and tokens, and was read after the bundled capture (and
    # not in the future).
    written = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=1)

    def write(prefix: str) -> None:
        gptbot = a_list("openai-gptbot", "OpenAI", ["GPTBot"], [prefix], read=written)
        lists = snapshot(gptbot._replace(url="https://openai.com/gptbot.json"))
        copy.write_text(json.dumps(snapshot_document(lists, written)), encoding="utf-8")

    write("11.22.33.0/28")  # global space: the reader refuses documentation prefixes
    first = robotsrules.verify("11.22.33.7", agent="GPTBot", dns=False)
    assert first.verdict == "verified" and first.snapshot.startswith("refreshed")
    assert robotsrules.verify("11.22.33.7", agent="GPTBot", dns=False).verified
    write("11.22.33.128/25")  # a refresh: the next answer reads it
    again = robotsrules.verify("11.22.33.7", agent="GPTBot", dns=False)
    assert again.verdict == "not-verified"
    copy.unlink()  # gone: the bundled copy answers
    assert robotsrules.verify("11.22.33.7", agent="GPTBot",
                              dns=False).snapshot.startswith("bundled")


# -- issue 36 review findings -----------------------------------------------------------------

FETCHERS = ("FeedFetcher-Google", "Google-NotebookLM", "Google-Read-Aloud",
            "Google-Site-Verification")
CLOUD = a_list("google-user-triggered-fetchers", "Google", FETCHERS,
               ["198.51.100.32/28"])._replace(role="cloud-customers")
GOOGLES_OWN = a_list("google-user-triggered-fetchers-google", "Google", FETCHERS,
                     ["198.51.100.48/28"])
GOOGLE_DOT_COM = NamePattern("Google", ("google.com",),
                             ("AdsBot-Google", "Google-Agent", *FETCHERS),
                             "https://names.example/google-com")
CLOUD_NAMES = NamePattern("Google", ("gae.googleusercontent.com",), FETCHERS,
                          "https://names.example/gae", role="cloud-customers")
BING_NAMES = NamePattern("Microsoft", ("search.msn.com",), ("Bingbot",),
                         "https://names.example/bing")
REVIEW = snapshot(CLOUD, GOOGLES_OWN, *LISTS.lists,
                  patterns=[GOOGLE_NAMES, GOOGLE_DOT_COM, CLOUD_NAMES, BING_NAMES])


@pytest.mark.parametrize("header", [
    "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)",
    "Mozilla/5.0 (compatible; Google-Read-Aloud; +https://support.google.com/webmasters/"
    "answer/1061943)",
    "Google-Site-Verification/1.0", None])
def test_google_cloud_customers_list_never_verifies(header: Any) -> None:
    # Google's "Verifying Googlebot and other Google crawlers": user-triggered-fetchers.json
    # addresses serve Google Cloud customers (a site on GCP fetching feeds for its users).
    answer = robotsrules.verify("198.51.100.33", header, now=NOW, dns=False, snapshot=REVIEW)
    assert answer.verdict == "not-verified"
    assert "a Google Cloud customer's fetcher (Google's list google-user-triggered-fetchers)" \
           ", not Google" in answer.reason
    by_agent = robotsrules.verify("198.51.100.33", agent="Google-NotebookLM", now=NOW,
                                  dns=False, snapshot=REVIEW)
    assert by_agent.verdict == "not-verified"
    own = robotsrules.verify("198.51.100.49", header, now=NOW, dns=False, snapshot=REVIEW)
    assert own.verdict == "verified" and "google-user-triggered-fetchers-google" in own.reason


def test_shipped_google_cloud_customers_list_never_verifies() -> None:
    # The role is in the bundled data, not a special case in the code.
    from robotsrules._tables._addresses import load_snapshot

    held = load_snapshot().named("google-user-triggered-fetchers")
    assert held is not None and held.role == "cloud-customers"
    address = str(ipaddress.ip_network(held.prefixes[0])[1])
    for header in ("FeedFetcher-Google", None):
        answer = robotsrules.verify(address, header, dns=False)
        assert answer.verdict == "not-verified" and "Cloud customer" in answer.reason


def _zone(address: str, name: str) -> list:
    reverse = ipaddress.ip_address(address).reverse_pointer
    return [f"{reverse}. 300 PTR {name}.", f"{name}. 300 A {address}"]


@pytest.mark.parametrize("header", ["FeedFetcher-Google", "Google-Site-Verification/1.0",
                                    None])
def test_gae_googleusercontent_name_never_verifies(header: Any) -> None:
    name = "192-0-2-203.gae.googleusercontent.com"
    with DnsServer(_zone("192.0.2.203", name)) as server:
        answer = finishes(lambda: robotsrules.verify(
            "192.0.2.203", header, now=NOW, dns=server.address, snapshot=REVIEW))
    assert answer.verdict == "not-verified"
    assert f"{name} is a Google Cloud customer's machine, not Google" in answer.reason


def test_bing_names_verify_the_operator_only() -> None:
    # Bing's page verifies "a Bing crawler": search.msn.com serves BingPreview and AdIdxBot
    # too.
    with DnsServer(_zone("192.0.2.204", "msnbot-192-0-2-204.search.msn.com")) as server:
        answer = finishes(lambda: robotsrules.verify(
            "192.0.2.204", "Mozilla/5.0 (compatible; bingbot/2.0)", now=NOW,
            dns=server.address, snapshot=REVIEW))
    assert answer.verdict == "verified" and answer.operator_only
    assert "it verifies Microsoft, not that the agent is Bingbot" in answer.reason


@pytest.mark.parametrize(("agent", "name", "outcome"), [
    ("Google-Agent", "192-0-2-205.corp.google.com", "not-confirmed"),
    ("Google-Agent", "google-proxy-192-0-2-205.google.com", "confirmed"),
    ("AdsBot-Google", "google-proxy-192-0-2-205.google.com", "not-confirmed"),
    ("AdsBot-Google", "rate-limited-proxy-192-0-2-205.google.com", "confirmed"),
])
def test_registry_masks_shape_the_first_label(agent: str, name: str, outcome: str) -> None:
    # The registry's masks (rate-limited-proxy-***-***-***-***.google.com) are matched
    # whole, never reduced to google.com. (The verdict is "unknown" where the outcome is
    # not-confirmed: this snapshot lacks the agents' own address lists.)
    with DnsServer(_zone("192.0.2.205", name)) as server:
        answer = finishes(lambda: robotsrules.verify(
            "192.0.2.205", agent=agent, now=NOW, dns=server.address, snapshot=REVIEW))
    assert answer.evidence[1].outcome == outcome
    assert answer.verified is (outcome == "confirmed")


@pytest.mark.parametrize("header", [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/120.0 Safari/537.36", "Mozilla/5.0", "", "*", "\x1b]0;pwn\x07Googlebot"])
def test_header_naming_no_crawler_is_unverifiable(header: str) -> None:
    answer = robotsrules.verify("192.0.2.1", header, now=NOW, dns=False, snapshot=LISTS)
    assert answer.verdict == "unverifiable" and not answer.verified
    assert "names no known crawler" in answer.reason or "not in the crawler registry" \
        in answer.reason
    assert "google-common" in answer.reason  # whose list holds it, still said
    if "names no known crawler" in answer.reason:
        # ... but as no claim's evidence: nothing "confirmed", no operator named as the
        # answer's (JSON and the column functions read these; second review of verify)
        assert all(item.outcome != "confirmed" for item in answer.evidence)
        assert answer.operator is None and not answer.operator_only


def test_control_characters_escaped_once() -> None:
    answer = robotsrules.verify("192.0.2.1", "\x1b]0;pwn\x07Googlebot", now=NOW, dns=False,
                                snapshot=LISTS)
    assert "'\\x1b]0;pwn\\x07Googlebot'" in answer.reason
    assert "\\\\x1b" not in answer.reason
    unknown = robotsrules.verify("192.0.2.1", "Evil\x1bBot/1.0", now=NOW, dns=False,
                                 snapshot=LISTS)
    assert "'Evil\\x1bBot'" in unknown.reason or "'Evil'" in unknown.reason
    assert "\\\\x1b" not in unknown.reason


@pytest.mark.parametrize("bad", [float("inf"), float("nan"), 86_401.0])
def test_dns_deadline_finite_and_bounded(bad: float) -> None:
    # An infinite deadline against a silent server hung; now refused before any query.
    with DnsServer([], behaviour={("*", "*"): "drop"}) as server:
        with pytest.raises(InvalidArgument, match="finite"):
            finishes(lambda: robotsrules.verify("192.0.2.1", agent="YandexBot",
                                                dns=server.address, dns_deadline=bad,
                                                snapshot=LISTS), guard=5.0)
        assert not server.queries


def test_a_copy_without_roles_keeps_the_bundled_role(tmp_path: Any,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # A refreshed copy written before roles existed must not make Google's cloud customers'
    # list verify again: the role is curated data, taken from the bundled copy.
    import json

    from robotsrules._tables._addresses import snapshot_document

    copy = tmp_path / "crawler-addresses.json"
    monkeypatch.setenv("ROBOTSRULES_ADDRESSES", str(copy))
    from robotsrules._tables._addresses import _bundled

    # As a refresh writes it: the catalogue's URL, operator and tokens, read a minute ago.
    written = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=1)
    catalogue = {item.name: item for item in _bundled().lists}
    lists = [catalogue[name]._replace(prefixes=(prefix,), read_at=written, role="operator")
             for name, prefix in (
                 ("google-user-triggered-fetchers", "34.64.6.0/27"),
                 ("google-user-triggered-fetchers-google", "34.64.7.0/27"),
                 ("google-user-triggered-agents", "34.64.8.0/27"))]
    document = snapshot_document(snapshot(*lists), written)
    for item in document["lists"]:
        del item["role"]
    copy.write_text(json.dumps(document), encoding="utf-8")
    answer = robotsrules.verify("34.64.6.1", "FeedFetcher-Google", dns=False)
    assert answer.snapshot.startswith("refreshed")
    assert answer.verdict == "not-verified" and "Cloud customer" in answer.reason
