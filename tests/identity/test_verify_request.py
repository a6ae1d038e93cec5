"""``robotsrules.verify_request`` (issue 38 §Verify): real signed requests (``Signer``) against
real key directories served over HTTPS on loopback with a CA of the test's own; every reason
of the signature check reached through it, the claim by User-Agent or by the signer's
origin, the one rule, and replays."""

from __future__ import annotations

import base64
import datetime
import json
import re
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import robotsrules
from robotsrules import KeyDirectories, SeenSignatures, verify_request
from robotsrules._identity._httpsig import Signer, SigningKey, signature_base
from tests.identity.directories import WELL_KNOWN, Authority, TLSServer, authority, directory
from tests.network.servers import head, redirect, respond
from tests.timing import HEALTHY

NOW = datetime.datetime(2026, 11, 27, 12, 0, tzinfo=datetime.timezone.utc)
URL = "https://site.example/page?q=1"
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36"


@pytest.fixture(scope="module")
def ca(tmp_path_factory: pytest.TempPathFactory) -> Authority:
    return authority(tmp_path_factory.mktemp("ca"))


@pytest.fixture(scope="module")
def key() -> SigningKey:
    return SigningKey.generate()


@pytest.fixture
def server(ca: Authority, key: SigningKey) -> Any:
    with TLSServer(ca.server, {WELL_KNOWN: directory([key])}) as running:
        yield running


def registry_file(folder: Path, directory_url: str) -> str:
    """A crawler registry file of the test's own: ExampleBot signs from ``directory_url``."""
    entry = {"name": "ExampleBot", "token": "ExampleBot", "operator": "Example Ltd",
             "categories": ["user-triggered"], "trigger": "user-triggered",
             "purpose": "tests", "source": "https://example.com/bot",
             "robots_txt": {"obeys": "unknown", "statement": None, "source": None,
                            "checked": "2026-11-27"},
             "verify": {"ip_ranges": [], "reverse_dns": [], "web_bot_auth": directory_url}}
    path = folder / "crawlers.json"
    path.write_text(json.dumps([entry]), encoding="utf-8")
    return str(path)


def signed(key: SigningKey, agent: str, url: str = URL, user_agent: str = BROWSER,
           **options: Any) -> dict[str, str]:
    signer = Signer(key, agent, clock=lambda: NOW.timestamp(), **options)
    headers = {"User-Agent": user_agent}
    return {**headers, **signer("GET", url, headers)}


def ask(ca: Authority, headers: dict[str, str], tmp_path: Path, registry: Any = None,
        url: str = URL, **options: Any) -> robotsrules.Verification:
    settings: dict[str, Any] = {
        "now": NOW, "seen": SeenSignatures(),
        "fetch": KeyDirectories(allow_private_addresses=True, ca_bundle=str(ca.ca_file),
                                timeout=HEALTHY, total_timeout=HEALTHY)}
    if registry is not None:
        settings["crawlers"] = registry
    settings.update(options)
    del tmp_path
    return verify_request("GET", url, headers, **settings)


def test_verified_by_the_signers_origin_in_the_registry(ca: Authority, key: SigningKey,
                                                        server: Any, tmp_path: Path) -> None:
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    answer = ask(ca, signed(key, server.origin), tmp_path, mine)
    assert (answer.verdict, answer.signature) == ("verified", "verified"), answer
    assert (answer.crawler, answer.operator) == ("ExampleBot", "Example Ltd")
    assert answer.directory == server.url(WELL_KNOWN)
    assert [item.outcome for item in answer.evidence] == ["not-published", "not-published",
                                                          "confirmed"]
    assert answer.address == "" and answer.verified


def test_verified_for_the_user_agents_claim(ca: Authority, key: SigningKey, server: Any,
                                            tmp_path: Path) -> None:
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    answer = ask(ca, signed(key, server.origin, user_agent="ExampleBot/1.0"), tmp_path, mine)
    assert answer.verdict == "verified" and answer.token == "ExampleBot"


def test_the_jwks_form_verifies_too(ca: Authority, key: SigningKey, tmp_path: Path) -> None:
    with TLSServer(ca.server, {"/keys.json": directory([key])}) as server:
        mine = registry_file(tmp_path, server.url("/keys.json"))
        headers = signed(key, server.url("/keys.json"), form="jwks")
        answer = ask(ca, headers, tmp_path, mine)
    assert answer.verdict == "verified" and answer.directory == server.url("/keys.json")


def test_a_replayed_signature_is_refused(ca: Authority, key: SigningKey, server: Any,
                                         tmp_path: Path) -> None:
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    headers = signed(key, server.origin)
    memory = SeenSignatures()
    assert ask(ca, headers, tmp_path, mine, seen=memory).verified
    again = ask(ca, headers, tmp_path, mine, seen=memory)
    assert (again.verdict, again.signature) == ("not-verified", "replayed"), again
    fresh = ask(ca, signed(key, server.origin), tmp_path, mine, seen=memory)
    assert fresh.verified  # a new signature (a new nonce) is no replay


def test_seen_signatures_honour_the_nonce_and_expire_and_stay_bounded() -> None:
    memory = SeenSignatures(limit=2)
    assert memory.first_time(("d", "k", "nonce", "n1"), 200.0, 100.0)
    assert not memory.first_time(("d", "k", "nonce", "n1"), 200.0, 150.0)
    assert memory.first_time(("d", "k", "nonce", "n1"), 300.0, 201.0)  # expired: new again
    assert memory.first_time(("d", "k", "nonce", "n2"), 400.0, 202.0)
    # full: nothing unexpired is dropped, the newcomer is refused (review of issue 38)
    assert memory.remember(("d", "k", "nonce", "n3"), 500.0, 203.0) == "full"
    assert memory.remember(("d", "k", "nonce", "n1"), 300.0, 204.0) == "replayed"
    assert memory.remember(("d", "k", "nonce", "n3"), 500.0, 301.0) == "new"  # n1 expired
    for number in range(1000):  # never more than the limit, however many arrive
        memory.first_time(("d", "k", "nonce", str(number)), 10_000.0 + number, 302.0)
        assert len(memory) <= 2


def test_seen_signatures_keep_a_digest_not_the_strangers_text() -> None:
    # review of issue 38: an 8 KB nonce and directory URL per entry made 100,000 entries
    # cost gigabytes; each entry now costs the same whatever its size
    memory = SeenSignatures(limit=500)
    long = "n" * 8000
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for number in range(300):
            memory.remember((f"https://e.example/{long}", "k", "nonce", f"{number}{long}"),
                            1e9, 1.0)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(memory) == 300 and grown < 300 * 1000, grown


def test_a_flood_of_strangers_signatures_cannot_push_a_genuine_one_out(
        ca: Authority, key: SigningKey, server: Any, tmp_path: Path) -> None:
    # review of issue 38: a full memory dropped the entries nearest expiry, so 4 long-lived
    # signatures of the attacker's own directory let a genuine 5-minute one replay
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    memory = SeenSignatures(limit=4)
    genuine = signed(key, server.origin)
    assert ask(ca, genuine, tmp_path, mine, seen=memory).verified
    with TLSServer(ca.server, {WELL_KNOWN: directory([key])}) as elsewhere:
        for _ in range(4):
            flood = ask(ca, signed(key, elsewhere.origin, validity=datetime.timedelta(hours=24)),
                        tmp_path, mine, seen=memory)
            assert flood.verdict == "unverifiable", flood
    again = ask(ca, genuine, tmp_path, mine, seen=memory)
    assert (again.verdict, again.signature) == ("not-verified", "replayed"), again


def test_a_full_replay_memory_answers_unknown(ca: Authority, key: SigningKey, server: Any,
                                             tmp_path: Path) -> None:
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    memory = SeenSignatures(limit=2)
    for _ in range(2):
        assert ask(ca, signed(key, server.origin), tmp_path, mine, seen=memory).verified
    full = ask(ca, signed(key, server.origin), tmp_path, mine, seen=memory)
    assert (full.verdict, full.signature) == ("unknown", "replay-memory-full"), full
    assert full.evidence[2].outcome == "unknown"


@pytest.mark.parametrize(("now", "reason"), [
    (NOW + datetime.timedelta(hours=1), "expired"),
    (NOW - datetime.timedelta(hours=1), "created-in-future"),
])
def test_timing(ca: Authority, key: SigningKey, server: Any, tmp_path: Path,
                now: datetime.datetime, reason: str) -> None:
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    answer = ask(ca, signed(key, server.origin), tmp_path, mine, now=now)
    assert (answer.verdict, answer.signature) == ("not-verified", reason), answer


def test_a_key_not_in_the_directory(ca: Authority, server: Any, tmp_path: Path) -> None:
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    answer = ask(ca, signed(SigningKey.generate(), server.origin), tmp_path, mine)
    assert (answer.verdict, answer.signature) == ("not-verified", "key-not-in-directory")


def test_a_signature_for_another_site_does_not_verify(ca: Authority, key: SigningKey,
                                                      server: Any, tmp_path: Path) -> None:
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    headers = signed(key, server.origin, url="https://other.example/page")
    answer = ask(ca, headers, tmp_path, mine)
    assert (answer.verdict, answer.signature) == ("not-verified", "signature-mismatch")


@pytest.mark.parametrize("scenario", [respond(404, b"gone"), redirect("https://x.example/")])
def test_a_directory_that_cannot_be_had_is_unknown(ca: Authority, key: SigningKey,
                                                   tmp_path: Path, scenario: Any) -> None:
    with TLSServer(ca.server, {WELL_KNOWN: scenario}) as server:
        mine = registry_file(tmp_path, server.url(WELL_KNOWN))
        answer = ask(ca, signed(key, server.origin), tmp_path, mine)
    assert (answer.verdict, answer.signature) == ("unknown", "directory-unreachable"), answer


def test_the_guard_refuses_a_private_directory_by_default(ca: Authority, key: SigningKey,
                                                          server: Any, tmp_path: Path) -> None:
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    guarded = verify_request("GET", URL, signed(key, server.origin), now=NOW,
                             seen=SeenSignatures(), crawlers=mine, ca_bundle=str(ca.ca_file))
    assert (guarded.verdict, guarded.signature) == ("unknown", "directory-unreachable")
    assert "address guard" in guarded.reason
    assert server.count(WELL_KNOWN) == 0
    allowed = verify_request("GET", URL, signed(key, server.origin), now=NOW,
                             seen=SeenSignatures(), crawlers=mine, ca_bundle=str(ca.ca_file),
                             allow_private_addresses=True)
    assert allowed.verified


def tampered(headers: dict[str, str], name: str, old: str, new: str) -> dict[str, str]:
    assert old in headers[name], headers[name]
    return {**headers, name: headers[name].replace(old, new)}


FAULTS: list[tuple[Any, str, str]] = [
    (lambda h, o: tampered(h, "Signature-Input", 'tag="web-bot-auth"', 'tag="other"'),
     "not-verified", "wrong-tag"),
    (lambda h, o: {k: v for k, v in h.items() if k != "Signature"},
     "not-verified", "fields-missing"),
    (lambda h, o: {**h, "Signature-Input": "sig1=(((("}, "not-verified", "malformed"),
    (lambda h, o: tampered(h, "Signature-Input", '("@authority"', '("@method"'),
     "not-verified", "target-not-covered"),
    (lambda h, o: tampered(h, "Signature-Input", '("@authority"', '("@authority" "@authority"'),
     "not-verified", "duplicate-component"),
    (lambda h, o: {k: v for k, v in h.items() if k != "Signature-Agent"},
     "unknown", "signature-agent-missing"),
    (lambda h, o: tampered(h, "Signature-Agent", "sig1=", "sig2="),
     "not-verified", "signature-agent-not-covered"),
    (lambda h, o: tampered(h, "Signature-Input", '"signature-agent";key="sig1"',
                           '"signature-agent";key="sig1" "signature-agent";key="sig2"'),
     "not-verified", "signature-agent-ambiguous"),
    (lambda h, o: tampered(h, "Signature-Agent", "https://", "http://"),
     "not-verified", "signature-agent-not-https"),
    (lambda h, o: {**h, "Signature-Agent": "sig1=@@"},
     "not-verified", "signature-agent-unparsable"),
    (lambda h, o: {**h, "Signature": "sig1=:" + "A" * 86 + "==:"},
     "not-verified", "signature-mismatch"),
    (lambda h, o: {**h, "Signature-Input": re.sub(r"expires=\d+", "expires=9999999999",
                                                  h["Signature-Input"])},
     "not-verified", "validity-too-long"),
    (lambda h, o: tampered(h, "Signature-Input", '("@authority"', '("@authority" "@unheard-of"'),
     "unknown", "unsupported-component"),
    (lambda h, o: {**h, "Signature-Agent": h["Signature-Agent"] + ";type=cimd"},
     "unknown", "signature-agent-unsupported"),
]
"""Each fault of a signed request (headers changed after signing), its verdict and the
signature check's reason: the negative cases of issue 38, written by us."""


@pytest.mark.parametrize(("change", "verdict", "reason"), FAULTS)
def test_each_fault(ca: Authority, key: SigningKey, server: Any, tmp_path: Path,
                    change: Any, verdict: str, reason: str) -> None:
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    answer = ask(ca, change(signed(key, server.origin), server.origin), tmp_path, mine)
    assert (answer.verdict, answer.signature) == (verdict, reason), answer


def test_not_signed(ca: Authority, tmp_path: Path, server: Any) -> None:
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    browser = ask(ca, {"User-Agent": BROWSER}, tmp_path, mine)
    assert (browser.verdict, browser.signature) == ("unverifiable", "no-signature")
    # ExampleBot publishes signatures only: its unsigned request could not be checked
    claimed = ask(ca, {"User-Agent": "ExampleBot/1.0"}, tmp_path, mine)
    assert (claimed.verdict, claimed.signature) == ("unknown", "no-signature")


def test_a_signer_the_registry_does_not_know_is_unverifiable(
        ca: Authority, key: SigningKey, server: Any, tmp_path: Path) -> None:
    answer = ask(ca, signed(key, server.origin), tmp_path)
    assert (answer.verdict, answer.signature) == ("unverifiable", "verified"), answer
    assert answer.directory == server.url(WELL_KNOWN) and answer.operator is None
    assert not answer.verified


def test_another_directory_on_the_registered_origin_is_not_the_crawler(
        ca: Authority, key: SigningKey, tmp_path: Path) -> None:
    # review of issue 38: the registry's directory was matched by origin only, so any JWK
    # Set on a shared host (a storage bucket) signed as the registered crawler
    attacker = SigningKey.generate()
    with TLSServer(ca.server, {"/examplebot/jwks.json": directory([key]),
                               "/attacker/jwks.json": directory([attacker])}) as shared:
        mine = registry_file(tmp_path, shared.url("/examplebot/jwks.json"))
        genuine = ask(ca, signed(key, shared.url("/examplebot/jwks.json"), form="jwks",
                                 user_agent="ExampleBot/1.0"), tmp_path, mine)
        assert genuine.verdict == "verified", genuine
        claimed = ask(ca, signed(attacker, shared.url("/attacker/jwks.json"), form="jwks",
                                 user_agent="ExampleBot/1.0"), tmp_path, mine)
        unclaimed = ask(ca, signed(attacker, shared.url("/attacker/jwks.json"), form="jwks"),
                        tmp_path, mine)
    assert (claimed.verdict, claimed.signature) == ("not-verified", "verified"), claimed
    assert (unclaimed.verdict, unclaimed.operator) == ("unverifiable", None), unclaimed


def test_the_shipped_signers_are_their_exact_directories() -> None:
    from robotsrules._tables._crawlers import crawlers_signing_from

    assert [c.operator for c in crawlers_signing_from(
        "https://ChatGPT.com:443/.well-known/http-message-signatures-directory")] == ["OpenAI"]
    for url in ("https://chatgpt.com/attacker/jwks.json", "https://chatgpt.com",
                "https://%EF%BD%83hatgpt.com/.well-known/http-message-signatures-directory",
                "https://\uff43hatgpt.com/.well-known/http-message-signatures-directory"):
        assert crawlers_signing_from(url) == (), url


def test_a_percent_escaped_signature_agent_host_is_refused(ca: Authority, key: SigningKey,
                                                           tmp_path: Path) -> None:
    headers = signed(key, "https://chatgpt.com")
    for host in ("%EF%BD%83hatgpt.com", "\uff43hatgpt.com"):
        headers["Signature-Agent"] = f'sig1="https://{host}"'
        answer = ask(ca, headers, tmp_path, fetch=lambda url: pytest.fail(url))
        assert answer.signature == "signature-agent-unparsable", answer
        assert answer.verdict == "not-verified" and answer.operator is None


def test_one_request_fetches_at_most_two_directories(ca: Authority, tmp_path: Path) -> None:
    # review of issue 38: eight tagged signatures naming eight silent directories held one
    # request 40-80 s, each fetched in turn
    now = int(NOW.timestamp())
    with TLSServer(ca.server) as server:
        members = ", ".join(f'm{i}="{server.url(f"/k{i}")}"' for i in range(8))
        inputs = ", ".join(f's{i}=("@authority" "signature-agent";key="m{i}");created={now};'
                           f'expires={now + 60};keyid="k";tag="web-bot-auth"'
                           for i in range(8))
        junk = ", ".join(f"s{i}=:{base64.b64encode(bytes(64)).decode()}:" for i in range(8))
        answer = ask(ca, {"Signature-Agent": members, "Signature-Input": inputs,
                          "Signature": junk}, tmp_path)
        fetched = sum(server.count(f"/k{i}") for i in range(8))
    assert fetched == 2, fetched
    assert (answer.verdict, answer.signature) == ("unknown", "directory-unreachable"), answer


def test_a_claim_signed_from_another_directory_is_not_verified(
        ca: Authority, key: SigningKey, server: Any, tmp_path: Path) -> None:
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    with TLSServer(ca.server, {WELL_KNOWN: directory([key])}) as elsewhere:
        headers = signed(key, elsewhere.origin, user_agent="ExampleBot/1.0")
        answer = ask(ca, headers, tmp_path, mine)
    assert (answer.verdict, answer.signature) == ("not-verified", "verified"), answer
    assert "not of Example Ltd's directory" in answer.evidence[2].detail


def test_the_registrys_own_signers(ca: Authority, key: SigningKey, server: Any,
                                   tmp_path: Path) -> None:
    # The shipped registry: ChatGPT agent signs from https://chatgpt.com (a browser's
    # User-Agent); Google-Agent from agent.bot.goog and also publishes addresses and names.
    # Their directories are served here, on loopback, under their own URLs' paths.
    directories = KeyDirectories(allow_private_addresses=True, ca_bundle=str(ca.ca_file),
                                 timeout=HEALTHY, total_timeout=HEALTHY)

    def fetch(url: str) -> Any:
        for origin in ("https://chatgpt.com", "https://agent.bot.goog"):
            url = url.replace(origin, server.origin)
        return directories(url)

    chatgpt = ask(ca, signed(key, "https://chatgpt.com"), tmp_path, fetch=fetch)
    assert (chatgpt.verdict, chatgpt.operator, chatgpt.crawler) == (
        "verified", "OpenAI", "ChatGPT Agent"), chatgpt
    google = ask(ca, signed(key, "https://agent.bot.goog", user_agent="Google-Agent"),
                 tmp_path, fetch=fetch)
    assert (google.verdict, google.operator) == ("verified", "Google"), google
    late = ask(ca, signed(key, "https://agent.bot.goog", user_agent="Google-Agent"), tmp_path,
               fetch=fetch, now=NOW + datetime.timedelta(hours=2))
    # expired, and the address (which Google also publishes) was not given: unknown
    assert (late.verdict, late.signature) == ("unknown", "expired"), late
    assert [item.outcome for item in late.evidence] == ["not-checked", "not-checked",
                                                        "not-confirmed"]
    forged = ask(ca, signed(SigningKey.generate(), "https://chatgpt.com"), tmp_path,
                 fetch=fetch)
    assert (forged.verdict, forged.signature) == ("not-verified", "key-not-in-directory")


def test_control_characters_in_headers_are_shown_visibly(ca: Authority, tmp_path: Path
                                                         ) -> None:
    answer = ask(ca, {"User-Agent": "Evil\x1b[31mBot"}, tmp_path)
    assert "\x1b" not in (answer.user_agent or "") and "\x1b" not in answer.reason


def test_a_directorys_text_is_made_visible_in_the_answer(ca: Authority, key: SigningKey,
                                                         tmp_path: Path) -> None:
    # a media type with a C1 control (CSI, which HTTP lets through as obs-text) is quoted
    # in the reason: made visible there, for every caller, not only the terminal's
    def hostile(exchange: Any) -> None:
        exchange.send(head(200, [("Content-Type", "text/owned\x9b2J"),
                                 ("Content-Length", "0")]))

    with TLSServer(ca.server, {WELL_KNOWN: hostile}) as server:
        answer = ask(ca, signed(key, server.origin), tmp_path)
    assert "owned" in answer.reason and "\x9b" not in answer.reason, answer
    assert all("\x9b" not in item.detail for item in answer.evidence)


def legacy_signed(key: SigningKey, agent: str) -> dict[str, str]:
    """A request signed as OpenAI's agent signs today: ``Signature-Agent`` a bare String,
    the whole field covered (``"signature-agent"`` without ``;key``)."""
    created = int(NOW.timestamp())
    fields = {"User-Agent": BROWSER, "Signature-Agent": f'"{agent}"'}
    params = (f'("@authority" "signature-agent");created={created};keyid="{key.thumbprint}";'
              f'alg="ed25519";expires={created + 60};nonce="n-legacy";tag="web-bot-auth"')
    base = signature_base("GET", URL, fields, f"sig1={params}", "sig1")
    signature = base64.b64encode(key.sign(base)).decode("ascii")
    return {**fields, "Signature-Input": f"sig1={params}", "Signature": f"sig1=:{signature}:"}


def test_the_legacy_bare_string_form(ca: Authority, key: SigningKey, server: Any,
                                     tmp_path: Path) -> None:
    directories = KeyDirectories(allow_private_addresses=True, ca_bundle=str(ca.ca_file),
                                 timeout=HEALTHY, total_timeout=HEALTHY)
    answer = ask(ca, legacy_signed(key, "https://chatgpt.com"), tmp_path,
                 fetch=lambda url: directories(url.replace("https://chatgpt.com",
                                                           server.origin)))
    assert (answer.verdict, answer.crawler) == ("verified", "ChatGPT Agent"), answer
    assert answer.directory == ("https://chatgpt.com/.well-known/"
                                "http-message-signatures-directory")


def test_too_many_header_fields_is_an_answer_not_an_exception(
        ca: Authority, key: SigningKey, server: Any, tmp_path: Path) -> None:
    # review of issue 38: 201 fields raised InvalidArgument, though nothing a stranger sends
    # may raise
    mine = registry_file(tmp_path, server.url(WELL_KNOWN))
    headers = signed(key, server.origin, user_agent="ExampleBot/1.0")
    headers.update({f"X-Filler-{number}": "x" for number in range(201)})
    answer = ask(ca, headers, tmp_path, mine)
    assert (answer.verdict, answer.signature) == ("not-verified", "malformed"), answer
    assert "more than 200 header fields" in answer.reason
    assert server.count(WELL_KNOWN) == 0
