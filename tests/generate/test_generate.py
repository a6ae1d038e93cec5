"""robotsrules.generate and `robotsrules generate`: cases named after the trap they avoid.

Each trap of the format (issue 40): a named group inherits nothing from ``*``; groups with
one token merge; ``$``, ``*`` and non-ASCII in paths; the legacy reading's first match and
substring agents; a choice that cannot be expressed is refused in one line; an owner's file
keeps its groups, comments and order.
"""

from __future__ import annotations

import io
import json
import os
import pickle
from pathlib import Path

import pytest

from robotsrules import AgentChoice, GenerateError, GeneratePolicy, generate, parse
from robotsrules._generate._policy import canonical_path
from robotsrules._tables._crawlers import category_tokens
from robotsrules.cli import main
from tests.oracle import AVAILABLE, oracle, raw_oracle

MODES = ("google", "rfc", "legacy")
SITE = "https://example.com"


def _run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr", err)
        patch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        code = main(list(argv), out=out)
    return code, out.getvalue(), err.getvalue()


def _reads(text: str, agent: str, path: str) -> set[bool]:
    """Every reading's verdict (and Google's library's, where it is installed)."""
    found = {parse(text, mode=mode).allowed(SITE + path, agent=agent) for mode in MODES}
    if AVAILABLE and agent != "*":
        found.add(oracle(text.encode(), agent, SITE + path)[0])
    return found


def test_a_named_group_repeats_the_site_wide_paths_it_would_not_inherit() -> None:
    made = generate(GeneratePolicy(agents=(("Bingbot", AgentChoice("block-paths", ("/b/",))),),
                                   disallow_paths=("/private/",)))
    assert _reads(made.text, "Bingbot", "/private/x") == {False}  # written twice: in * and its own
    assert _reads(made.text, "Bingbot", "/b/") == {False}
    assert _reads(made.text, "OtherBot", "/private/x") == {False}
    assert _reads(made.text, "OtherBot", "/b/") == {True}


def test_tokens_with_the_same_lines_share_one_group_and_no_token_is_written_twice() -> None:
    made = generate(GeneratePolicy(agents=(("GPTBot", AgentChoice("block")),
                                           ("CCBot", AgentChoice("block")),
                                           ("gptbot", AgentChoice("block")))))
    agents = [line for line in made.text.splitlines() if line.startswith("User-agent")]
    assert agents == ["User-agent: *", "User-agent: CCBot", "User-agent: GPTBot"]
    assert len(parse(made.text).groups) == 2


def test_an_allow_paths_group_lists_its_allows_before_the_disallow_for_the_legacy_reading(
) -> None:
    made = generate(GeneratePolicy(agents=(("GPTBot", AgentChoice("allow-paths", ("/blog/",))),)))
    body = made.text.split("User-agent: GPTBot\n", 1)[1]
    assert body.index("Allow: /blog/") < body.index("Disallow: /")
    assert _reads(made.text, "GPTBot", "/blog/a") == {True}
    assert _reads(made.text, "GPTBot", "/shop/") == {False}


def test_a_token_inside_another_is_written_after_it_for_the_legacy_reading() -> None:
    # urllib.robotparser gives Googlebot-News the first record whose token is inside its name
    made = generate(GeneratePolicy(agents=(("Googlebot", AgentChoice("allow")),
                                           ("Googlebot-News", AgentChoice("block")))))
    assert made.text.index("Googlebot-News") < made.text.index("User-agent: Googlebot\n")
    assert _reads(made.text, "Googlebot-News", "/") == {False}
    assert _reads(made.text, "Googlebot", "/") == {True}


@pytest.mark.parametrize(("path", "written"), [
    ("/a b", "/a%20b"), ("/café", "/caf%C3%A9"), ("/pri$ce", "/pri%24ce"),
    ("/a[1]", "/a%5B1%5D"), ("/x%2fy", "/x%2Fy"), ("/100%", "/100%25"),
])
def test_special_characters_are_percent_encoded(path: str, written: str) -> None:
    assert canonical_path(path) == written
    made = generate(GeneratePolicy(disallow_paths=(path,)))
    assert f"Disallow: {written}\n" in made.text
    assert _reads(made.text, "AnyBot", written) == {False}
    assert _reads(made.text, "AnyBot", written + "/more") == {False}
    assert _reads(made.text, "AnyBot", "/elsewhere") == {True}


def _legacy(text: str, agent: str, path: str) -> bool:
    import urllib.robotparser

    reader = urllib.robotparser.RobotFileParser()
    reader.parse(text.splitlines())
    return reader.can_fetch(agent, SITE + path)


@pytest.mark.parametrize("policy", [
    GeneratePolicy(agents=(("Googlebot", AgentChoice("allow")),), disallow_paths=("/private/",)),
    GeneratePolicy(categories=(("user-triggered", AgentChoice("allow")),),
                   disallow_paths=("/private/",))])
def test_an_unnamed_registry_crawler_holding_a_named_token_reads_the_star_lines(
        policy: GeneratePolicy) -> None:
    # urllib.robotparser gives Googlebot-Image the first record whose token is inside its
    # name: Googlebot's (review F3); every such registry token gets the '*' lines by name
    from robotsrules._tables._crawlers import registry

    made = generate(policy)
    named = {t.lower() for t, _ in policy.agents} | {
        t.lower() for name, _ in policy.categories for t in category_tokens(name)}
    for crawler in registry().crawlers:
        token = crawler.token
        if token and token.lower() not in named and any(n in token.lower() for n in named):
            assert _legacy(made.text, token, "/private/x") is False, token
            assert _reads(made.text, token, "/private/x") == {False}
    assert any("legacy reading" in note for note in made.notes)
    # merged: a group repeating the owner's '*' rules comes before the chosen groups
    merged = generate(GeneratePolicy(agents=(("Googlebot", AgentChoice("allow")),),
                                     disallow_paths=("/private/",)),
                      "User-agent: *\nDisallow: /a\n")
    for path in ("/a", "/private/x"):
        assert _legacy(merged.text, "Googlebot-Image", path) is False
        assert _reads(merged.text, "Googlebot-Image", path) == {False}
    assert _reads(merged.text, "Googlebot-Image", "/b") == {True}


@pytest.mark.parametrize("path", ["/a$b", "/a[1]", "/a|b", "/x/$/y", "/a^b", "/p%24q"])
def test_a_path_is_closed_in_the_spelling_a_browser_sends_too(path: str) -> None:
    # Google's reader compares octets: 'Disallow: /a%24b' alone leaves /a$b open (review F1)
    made = generate(GeneratePolicy(disallow_paths=(path,)))
    raw = path.replace("%24", "$")
    for url in (raw, canonical_path(path), raw + "/more"):
        assert _reads(made.text, "AnyBot", url) == {False}
        if AVAILABLE:
            assert raw_oracle(made.text.encode(), "AnyBot", "http://h" + url) is False
    made = generate(GeneratePolicy(agents=(("GPTBot", AgentChoice("allow-paths", (path,))),)))
    assert _reads(made.text, "GPTBot", raw) == {True}
    if AVAILABLE:
        assert raw_oracle(made.text.encode(), "GPTBot", "http://h" + raw) is True


@pytest.mark.parametrize("path", ["/*.pdf$", "/a*", "/x/$", "/a%2Ab", "/b%24"])
def test_a_pattern_is_refused_as_no_reader_of_every_kind_agrees(path: str) -> None:
    with pytest.raises(GenerateError, match=r"^[^\n]*is a pattern[^\n]*$"):
        generate(GeneratePolicy(disallow_paths=(path,)))


@pytest.mark.parametrize(("policy", "words"), [
    (GeneratePolicy(disallow_paths=("private",)), "does not start with '/'"),
    (GeneratePolicy(disallow_paths=("//host/x",)), "starts with '//'"),
    (GeneratePolicy(disallow_paths=("/a#b",)), "holds '#'"),
    (GeneratePolicy(agents=(("Googlebot/2.1 (+x)", AgentChoice("block")),)), "product token"),
    (GeneratePolicy(agents=(("GPTBot", AgentChoice("block", ("/a",))),)), "takes no paths"),
    (GeneratePolicy(agents=(("GPTBot", AgentChoice("allow-paths")),)), "needs at least one"),
    (GeneratePolicy(agents=(("GPTBot", AgentChoice("allow-paths", ("/d/index.html",))),)),
     "Google's reading"),  # Google's index.html rule would also allow /d/
    (GeneratePolicy(usage=(("ai-train", False), ("train-ai", True))), "contradicts"),
    (GeneratePolicy(usage=(("bogus", False),)), "unknown usage purpose"),
    (GeneratePolicy(categories=(("nope", AgentChoice("block")),)), "unknown crawler category"),
    (GeneratePolicy(sitemaps=("ftp://x/s.xml",)), "not an absolute http(s) URL"),
    (GeneratePolicy(crawl_delays=(("Bingbot", float("nan")),)), "at most 86400 seconds"),
    (GeneratePolicy(license="https://x/l.xml\nUser-agent: *"), "not an absolute http(s) URL"),
])
def test_a_choice_that_cannot_be_expressed_is_refused_in_one_line(
        policy: GeneratePolicy, words: str) -> None:
    with pytest.raises(GenerateError, match=r"^[^\n]*$") as caught:
        generate(policy)
    assert words in str(caught.value)


def test_usage_lines_stand_in_every_group_that_may_fetch_and_read_as_chosen() -> None:
    made = generate(GeneratePolicy(agents=(("GPTBot", AgentChoice("block")),
                                           ("Googlebot", AgentChoice("allow"))),
                                   usage=(("ai-train", False), ("search", True))))
    robots = parse(made.text)
    for agent in ("Googlebot", "OtherBot"):
        usage = robots.usage(SITE + "/a", agent=agent)
        assert usage.allows("ai-train") is False and usage.allows("train-ai") is False
        assert usage.allows("search") is True
    assert "Content-Usage: / train-ai=n, search=y" in made.text
    assert "Content-Signal: search=yes, ai-train=no" in made.text
    assert made.text.count("Content-Signal") == 2  # not in GPTBot's group: it may fetch nothing
    assert not [d for d in made.findings if d.severity != "info"]


def test_crawl_delay_is_written_for_its_token_with_googles_note() -> None:
    made = generate(GeneratePolicy(crawl_delays=(("Bingbot", 7.5), ("*", 2))))
    robots = parse(made.text)
    assert robots.crawl_delay("Bingbot") == 8 and robots.crawl_delay("OtherBot") == 2
    assert "Google's crawlers ignore it" in made.text


@pytest.mark.parametrize(("seconds", "written"), [(1e-300, 1), (2.5, 3), (4, 4)])
def test_a_fractional_crawl_delay_is_rounded_up_for_every_reader(seconds: float,
                                                                 written: int) -> None:
    import urllib.robotparser

    made = generate(GeneratePolicy(crawl_delays=(("Bingbot", seconds),)))
    assert f"Crawl-delay: {written}\n" in made.text  # not 1e-300, which urllib drops (F7)
    reader = urllib.robotparser.RobotFileParser()
    reader.parse(made.text.splitlines())
    assert reader.crawl_delay("Bingbot") == written
    assert parse(made.text).crawl_delay("Bingbot") == written
    assert any("rounded up" in note for note in made.notes) is (seconds != written)


def test_sitemaps_and_the_licence_are_site_wide_lines() -> None:
    made = generate(GeneratePolicy(sitemaps=("https://example.com/s.xml",),
                                   license="https://example.com/license.xml"))
    robots = parse(made.text)
    assert robots.sitemaps == ("https://example.com/s.xml",)
    assert robots.licenses == ("https://example.com/license.xml",)
    assert made.text.index("License:") < made.text.index("User-agent")  # lint R705
    assert not [d for d in made.findings if d.severity != "info"]


def test_a_category_expands_to_its_registry_tokens_and_blocking_wins_a_conflict() -> None:
    both = set(map(str.lower, category_tokens("ai-training"))) & set(
        map(str.lower, category_tokens("other")))
    made = generate(GeneratePolicy(categories=(("other", AgentChoice("allow")),
                                               ("training", AgentChoice("block")))))
    for token in category_tokens("ai-training"):
        assert _reads(made.text, token, "/") == {False}
    assert len([n for n in made.notes if " in categories " in n]) == len(both) > 0
    named = sorted(both)[0]  # choosing it by name decides it, and its note goes
    made = generate(GeneratePolicy(agents=((named, AgentChoice("allow")),),
                                   categories=(("other", AgentChoice("allow")),
                                               ("training", AgentChoice("block")))))
    assert _reads(made.text, named, "/") == {True}
    assert len([n for n in made.notes if " in categories " in n]) == len(both) - 1


def test_the_policy_is_frozen_picklable_and_round_trips_as_data() -> None:
    policy = GeneratePolicy(agents=(("GPTBot", AgentChoice("allow-paths", ("/a",))),),
                            categories=(("search", AgentChoice("allow")),),
                            disallow_paths=("/p",), usage=(("ai-train", False),),
                            crawl_delays=(("Bingbot", 5.0),),
                            sitemaps=("https://e.com/s.xml",), license="https://e.com/l")
    assert pickle.loads(pickle.dumps(policy)) == policy
    assert GeneratePolicy.from_data(json.loads(json.dumps(policy.to_data()))) == policy
    with pytest.raises(AttributeError):
        policy.sitemaps = ()  # type: ignore[misc]
    made = generate(policy)
    assert pickle.loads(pickle.dumps(made)) == made


OWNER = """# Example Corp's robots.txt: edit with care
User-agent: *
Disallow: /admin/

# our friends
User-agent: GPTBot
User-agent: Slurp
Disallow: /drafts/

Sitemap: https://example.com/old.xml
"""


def test_a_merge_keeps_the_owners_groups_comments_and_order() -> None:
    made = generate(GeneratePolicy(agents=(("GPTBot", AgentChoice("block")),),
                                   disallow_paths=("/tmp/",)), OWNER)
    lines = made.text.splitlines()
    for line in OWNER.splitlines():
        if line and "GPTBot" not in line:
            assert line in lines, line
    kept = [lines.index(line) for line in OWNER.splitlines() if line and "GPTBot" not in line]
    assert kept == sorted(kept)  # same order
    assert "# [robotsrules generate] User-agent: GPTBot" in lines
    assert _reads(made.text, "GPTBot", "/") == {False}
    assert _reads(made.text, "Slurp", "/drafts/x") == {False}
    assert _reads(made.text, "Slurp", "/tmp/x") == {False}  # repeated in the owner's group
    assert _reads(made.text, "Other", "/admin/") == {False}
    assert _reads(made.text, "Other", "/tmp/") == {False}
    assert _reads(made.text, "Other", "/drafts/") == {True}
    changed = {(row.agent, row.url) for row in made.changes}
    assert ("GPTBot", "/") in changed and ("slurp", "/tmp/") in changed


def test_a_merge_the_owners_kept_line_contradicts_is_refused() -> None:
    owner = "User-agent: *\nAllow: /tmp/keep/\nDisallow: /x\n"
    with pytest.raises(GenerateError, match=r"every reading agrees.*/tmp/keep/"):
        generate(GeneratePolicy(disallow_paths=("/tmp/",)), owner)
    owner = "User-agent: *\nContent-Signal: ai-train=no\nDisallow: /x\n"
    with pytest.raises(GenerateError, match="cannot state ai-train=y"):
        generate(GeneratePolicy(usage=(("ai-train", True),)), owner)


@pytest.mark.parametrize("owner", ["User-agent: *\nAllow: /*.html\n",
                                   "User-agent: Foo\nAllow: /*.html$\n",
                                   "User-agent: Foo\nAllow: /p*\n"])
def test_a_merge_under_a_kept_wildcard_allow_that_would_win_is_refused(owner: str) -> None:
    # Google lets the longer 'Allow: /*.html' beat the added 'Disallow: /p/' on /p/a.html
    with pytest.raises(GenerateError, match=r"^[^\n]*outweighs[^\n]*$"):
        generate(GeneratePolicy(disallow_paths=("/p/",)), owner)
    made = generate(GeneratePolicy(disallow_paths=("/p/",)), "User-agent: *\nAllow: /q*.h\n")
    assert _reads(made.text, "Foo", "/p/q.h") == {False}  # cannot match below /p/: kept


def test_a_site_wide_path_added_to_an_owners_allow_all_group_comes_first() -> None:
    # urllib.robotparser takes the first rule that matches: 'Allow: /' used to win (F6)
    made = generate(GeneratePolicy(disallow_paths=("/private/",)), "User-agent: *\nAllow: /\n")
    assert _reads(made.text, "AnyBot", "/private/x") == {False}
    assert _reads(made.text, "AnyBot", "/public") == {True}


def test_a_proof_past_its_bound_is_refused_before_it_runs() -> None:
    # 1,000 owner's groups x their sample URLs took a minute and 126 MB (review F5)
    owner = "".join(f"User-agent: Bot{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}"
                    f"{chr(97 + i // 676)}\nDisallow: /p{i}/\n" for i in range(1000))
    with pytest.raises(GenerateError, match=r"^the proof would read [0-9,]+ agents x"):
        generate(GeneratePolicy(agents=(("GPTBot", AgentChoice("block")),)), owner)


def test_a_licence_goes_after_the_byte_order_mark_of_an_owners_file() -> None:
    owner = "\ufeffUser-agent: GPTBot\nDisallow: /g/\n"
    made = generate(GeneratePolicy(license="https://example.com/l.xml"), owner)
    assert "\ufeff" not in made.text  # before: 'License: ...' then the BOM (review F6)
    assert _reads(made.text, "GPTBot", "/g/x") == {False}


def test_a_file_past_what_crawlers_read_is_refused_as_too_long() -> None:
    many = tuple(f"/{i:05d}/{'p' * 1000}" for i in range(600))
    with pytest.raises(GenerateError, match=r"^the file would be [0-9,]+ octets, past"):
        generate(GeneratePolicy(disallow_paths=many))


def test_cli_writes_the_file_on_stdout_and_the_proof_on_stderr() -> None:
    code, out, err = _run("generate", "--block", "GPTBot", "--disallow-path", "/private/",
                          "--usage", "ai-train=n", "--crawl-delay", "Bingbot=3",
                          "--sitemap", "https://example.com/s.xml")
    assert code == 0
    assert _reads(out, "GPTBot", "/") == {False}
    assert parse(out).crawl_delay("Bingbot") == 3
    assert "verdicts of" in err and "GPTBot" in err and "lint:" in err


def test_cli_json_is_the_library_answer(tmp_path: Path) -> None:
    target = tmp_path / "robots.txt"
    code, out, _ = _run("generate", "--block-category", "ai-training", "--allow", "GPTBot",
                        "--out", str(target), "--json")
    report = json.loads(out)
    made = generate(GeneratePolicy(agents=(("GPTBot", AgentChoice("allow")),),
                                   categories=(("ai-training", AgentChoice("block")),)))
    assert code == 0 and report["text"] == made.text == target.read_text(encoding="utf-8")
    assert report["rows"] == made.to_data()["rows"] == [row._asdict() for row in made.rows]
    assert {(r["agent"], r["after"]) for r in report["rows"] if r["url"] == "/"} >= {
        ("GPTBot", True), ("CCBot", False)}


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_cli_write_policy_then_policy_gives_the_same_file(tmp_path: Path, suffix: str) -> None:
    saved = tmp_path / f"policy{suffix}"
    argv = ["generate", "--block", "GPTBot", "--block-category", "ai-training",
            "--disallow-path", "/a b/", "--usage", "search=y", "--crawl-delay", "Bingbot=2",
            "--license", "https://example.com/l.xml", "--write-policy", str(saved)]
    code, first, _ = _run(*argv)
    assert code == 0
    code, again, _ = _run("generate", "--policy", str(saved))
    assert code == 0 and again == first


def test_cli_from_merges_and_shows_the_diff_table(tmp_path: Path) -> None:
    owner = tmp_path / "robots.txt"
    owner.write_text(OWNER, encoding="utf-8")
    code, out, _ = _run("generate", "--from", str(owner), "--block", "GPTBot",
                        "--out", str(owner))
    assert code == 0
    assert "what the merge changes:" in out and "GPTBot" in out and "-> disallowed" in out
    assert "# Example Corp's robots.txt: edit with care" in owner.read_text(encoding="utf-8")


def test_cli_refusal_is_one_line_and_leaves_the_out_file_alone(tmp_path: Path) -> None:
    target = tmp_path / "robots.txt"
    target.write_text("old\n", encoding="utf-8")
    code, out, err = _run("generate", "--allow-category", "nope", "--out", str(target))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("robotsrules")
    assert target.read_text(encoding="utf-8") == "old\n"


@pytest.mark.parametrize(("content", "words"), [
    (b"{\"agents\": ", "not JSON"), (b"agents = [", "neither JSON nor TOML"),
    (b"{\"agents\": {\"GPTBot\": \"maybe\"}}", "unknown choice"),
    (b"{\"color\": 1}", "unknown policy field"), (b"\xff\xfe", "not UTF-8"),
    (b" " * (2 << 20), "at most"),
])
def test_cli_policy_files_are_bounded_and_checked(tmp_path: Path, content: bytes,
                                                  words: str) -> None:
    policy = tmp_path / "policy"
    policy.write_bytes(content)
    code, _, err = _run("generate", "--policy", str(policy))
    assert code == 2 and words in err and err.count("\n") == 1


def test_cli_out_keeps_the_files_mode_and_writes_through_a_link(tmp_path: Path) -> None:
    # mkstemp's 0600 would make a web server of another user answer 403 (review F4)
    target = tmp_path / "robots.txt"
    target.write_text("User-agent: *\nDisallow: /a\n", encoding="utf-8")
    target.chmod(0o644)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert _run("generate", "--from", str(target), "--block", "GPTBot", "--out", str(link))[0] == 0
    assert link.is_symlink() and "GPTBot" in target.read_text(encoding="utf-8")
    assert target.stat().st_mode & 0o777 == 0o644
    fresh = tmp_path / "new.txt"
    mask = os.umask(0o022)
    try:
        assert _run("generate", "--block", "GPTBot", "--out", str(fresh))[0] == 0
    finally:
        os.umask(mask)
    assert fresh.stat().st_mode & 0o777 == 0o644
