"""Fuzz target: robotsrules against whatever bytes a website (and a careless caller) can send.

Invariant: for any input, parse (all three modes), lint, the line report, explain,
allowed, for_agent, sitemaps, crawl_delay and request_rate return normally — the only
exceptions ever raised are ``InvalidAgent``/``InvalidURL`` (``ValueError``s, caller
mistakes), exactly when the agent or URL argument itself is invalid, whatever the content.

On top of "no other exception", the target checks that the answers agree with each other:
``allowed()`` equals ``explain().allowed`` and ``for_agent().allowed()``, a pickled copy
answers the same, and the regular-expression fast path of the parser reads the file as the
exact line reader does.

Input layout (so that seed files are plain robots.txt files)::

    body [SEP url [SEP agent]]      SEP = b"\\n\\x00\\xff\\n"

``url`` and ``agent`` are decoded as UTF-8 with ``surrogateescape`` (invalid bytes become
lone surrogates); an ``agent`` holding ``,`` is passed as a list of names. Without them,
a few fixed URLs and agents are used, plus URLs made from the file's own rule patterns
and the agents its groups name, so that matching is exercised, not only parsing.

Run (atheris, coverage-guided; see fuzz/README.md for the long run)::

    .venv/bin/python fuzz/fuzz_robots.py -dict=fuzz/robots.dict -max_len=4096 \\
        -runs=20000 /tmp/fuzz-corpus fuzz/seeds

With ``ROBOTSRULES_FUZZ_ORACLE=1`` the target also compares every default-mode verdict with
Google's library (``jwm.robotstxt``, the project's test oracle) under SPEC §0's identity:
``allowed == google(body[:500 KiB], token(agent), canonical(url))``, ``/robots.txt`` aside.

Without atheris, ``--plain`` runs the same checks over the seed corpus and random
mutations of it (seeded, so a run can be repeated)::

    .venv/bin/python fuzz/fuzz_robots.py --plain --runs 20000 --seed 1
"""

from __future__ import annotations

import os
import pickle
import random
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Callable, Optional, TypeVar, Union

HERE = Path(__file__).resolve().parent
SEEDS = HERE / "seeds"
REGRESSIONS = HERE / "regressions"
DICTIONARY = HERE / "robots.dict"
SEP = b"\n\x00\xff\n"
MAX_DERIVED = 4  # URLs derived from rule patterns, agents from groups (per input)

try:
    import atheris  # type: ignore[import-untyped, unused-ignore]
except ImportError:  # plain mode only
    atheris = None

if atheris is not None and __name__ == "__main__" and "--plain" not in sys.argv:
    # atheris runs us: instrument robotsrules for coverage feedback (only then, so that
    # importing this module from the test suite leaves robotsrules untouched).
    with atheris.instrument_imports(include=["robotsrules"]):
        import robotsrules
        from robotsrules import linter
        from robotsrules._rules import _legacy as legacy
        from robotsrules._rules import _parser as parser
        from robotsrules._rules import _urls as urls
        from robotsrules.linter import _output as report
else:
    import robotsrules
    from robotsrules import linter
    from robotsrules._rules import _legacy as legacy
    from robotsrules._rules import _parser as parser
    from robotsrules._rules import _urls as urls
    from robotsrules.linter import _output as report

from robotsrules import InvalidAgent, InvalidURL, RobotsError  # noqa: E402

ORACLE = None
if os.environ.get("ROBOTSRULES_FUZZ_ORACLE") == "1":
    from jwm.robotstxt import googlebot as ORACLE

T = TypeVar("T")
Agent = Union[str, list[str]]

FIXED_URLS = ("/", "https://example.com/a/b;p?q=1#f", "/robots.txt", "http://h")
FIXED_AGENTS: tuple[Agent, ...] = ("ExampleBot", "*", "Googlebot/2.1", ["a", "b-c"])


class InvariantBroken(AssertionError):
    """The one-sentence invariant (or an agreement check) does not hold for an input."""


def split(data: bytes) -> tuple[bytes, Optional[str], Optional[Agent]]:
    """The body, the URL (or None) and the agent (or None) an input stands for."""
    parts = data.split(SEP, 2)
    body = parts[0]
    url = parts[1].decode("utf-8", "surrogateescape") if len(parts) > 1 else None
    agent: Optional[Agent] = None
    if len(parts) > 2:
        text = parts[2].decode("utf-8", "surrogateescape")
        agent = text.split(",") if "," in text else text
    return body, url, agent


def _expect(call: Callable[[], T], error: Optional[type], what: str) -> Optional[T]:
    """Run ``call``; it must raise exactly ``error`` (a RobotsError class) or, when ``error``
    is None, nothing. Any other exception propagates: that is the crash being hunted."""
    try:
        value = call()
    except RobotsError as raised:
        if error is None or not isinstance(raised, error):
            raise InvariantBroken(f"{what}: unexpected {raised!r}") from raised
        return None
    if error is not None:
        raise InvariantBroken(f"{what}: returned {value!r}, expected {error.__name__}")
    return value


def _agent_error(agent: Agent) -> Optional[type]:
    try:
        robotsrules.agent_tokens(agent)
    except InvalidAgent:
        return InvalidAgent
    return None


def _url_error(url: str, mode: str) -> Optional[type]:
    try:
        if mode == "legacy":
            legacy.legacy_target(url)
        elif mode == "rfc":
            urls.rfc_target(url)
        else:
            urls.match_target(url)
    except InvalidURL:
        return InvalidURL
    return None


def _derived(robots: robotsrules.RobotsTxt) -> tuple[list[str], list[Agent]]:
    """URLs made from the file's own patterns and the agents its groups name."""
    found_urls: list[str] = []
    found_agents: list[Agent] = []
    for group in robots.groups:
        for token in group.agents:
            if token and token != "*" and len(found_agents) < MAX_DERIVED:
                found_agents.append(token)
        for rule in group.rules:
            if len(found_urls) >= MAX_DERIVED:
                break
            path = rule.pattern.replace("*", "x").rstrip("$")
            found_urls.append(path if path.startswith("/") else "/" + path)
    return found_urls, found_agents


def check_questions(robots: robotsrules.RobotsTxt, url_list: Sequence[str],
                    agent_list: Sequence[Agent]) -> None:
    """Every question on one parsed file, against the invariant and the agreement checks."""
    mode = robots.mode
    copy = pickle.loads(pickle.dumps(robots))
    if copy != robots:
        raise InvariantBroken("a pickled copy is not equal to the original")
    for agent in agent_list:
        agent_error = _agent_error(agent)
        rules = _expect(partial(robots.for_agent, agent), agent_error, f"for_agent({agent!r})")
        _expect(partial(robots.crawl_delay, agent), agent_error, "crawl_delay")
        _expect(partial(robots.request_rate, agent), agent_error, "request_rate")
        for url in url_list:
            error = agent_error or _url_error(url, mode)
            what = f"mode={mode} agent={agent!r} url={url!r}"
            allowed = _expect(partial(robots.allowed, url, agent=agent), error, what)
            verdict = _expect(partial(robots.explain, url, agent=agent), error, what)
            usage = _expect(partial(robots.usage, url, agent=agent), error, what)
            if error is not None:
                continue
            assert usage is not None
            if usage.crawl_allowed is not allowed or (not allowed and usage.preferences):
                raise InvariantBroken(f"{what}: usage() disagrees with allowed()")
            assert rules is not None and verdict is not None
            if not (allowed is verdict.allowed is rules.allowed(url) is copy.allowed(
                    url, agent=agent)):
                raise InvariantBroken(f"{what}: allowed/explain/for_agent/pickled disagree")
            if verdict.rule is not None and verdict.rule.line < 1:
                raise InvariantBroken(f"{what}: deciding rule without a line: {verdict.rule}")


def oracle_check(body: bytes, robots: robotsrules.RobotsTxt, url_list: Sequence[str],
                 agent_list: Sequence[Agent]) -> None:
    """Default-mode verdicts against Google's library (SPEC §0's identity)."""
    assert ORACLE is not None
    kept = body[: robotsrules.DEFAULT_MAX_BYTES]
    for agent in agent_list:
        if _agent_error(agent) is not None:
            continue
        tokens = list(robotsrules.agent_tokens(agent))
        for url in url_list:
            if _url_error(url, "google") is not None:
                continue
            target = urls.match_target(url)
            if target == "/robots.txt":
                continue
            matcher = ORACLE.RobotsMatcher()
            full = "http://h" + target
            if len(tokens) == 1:
                google = matcher.OneAgentAllowedByRobots(kept, tokens[0], full)
            else:
                google = matcher.AllowedByRobots(kept, tokens, full)
            if bool(google) != robots.allowed(url, agent=agent):
                raise InvariantBroken(f"differs from Google's library: agent={agent!r} "
                                      f"url={url!r} google={bool(google)}")


def check(data: bytes) -> None:
    """Hold one input to the invariant (raises on a violation; returns None otherwise)."""
    body, url, agent = split(data)
    google = robotsrules.parse(body)
    derived_urls, derived_agents = _derived(google)
    url_list: list[str] = [url] if url is not None else [*FIXED_URLS, *derived_urls]
    agent_list: list[Agent] = [agent] if agent is not None else [
        *FIXED_AGENTS, *derived_agents]
    if ORACLE is not None:
        oracle_check(body, google, url_list, agent_list)
    for mode in robotsrules.MODES:
        robots = google if mode == "google" else robotsrules.parse(body, mode=mode)
        if robots.sitemaps != google.sitemaps:
            raise InvariantBroken(f"mode={mode}: sitemaps differ from google mode's")
        check_questions(robots, url_list, agent_list)

    # The per-line report, both parser paths, a cut mid-file, text input.
    lines = google.lines
    if not lines or [line.number for line in lines] != list(range(1, len(lines) + 1)):
        raise InvariantBroken("line report is not numbered 1..n")
    text, _, _ = parser.decode(body, robotsrules.DEFAULT_MAX_BYTES)
    fast, exact = parser.build(text), parser.build(text, want_lines=True)
    if (fast.groups, fast.sitemaps, fast.hosts) != (exact.groups, exact.sitemaps, exact.hosts):
        raise InvariantBroken("the fast path and the line reader read the file differently")
    robotsrules.parse(body, max_bytes=len(body) // 2)
    robotsrules.parse(body.decode("utf-8", "surrogateescape"), mode="legacy")

    # Lint, and its three renderings (what `robotsrules lint` prints for this file).
    diagnostics = robotsrules.lint(body)
    for diagnostic in diagnostics:
        if diagnostic.code not in linter.CODES or diagnostic.line < 0 or diagnostic.column < 0:
            raise InvariantBroken(f"malformed diagnostic {diagnostic!r}")
    report.render(diagnostics, "text")
    report.render(diagnostics, "json")
    report.to_sarif(diagnostics)  # the document; json.dumps of it is the standard library's


def TestOneInput(data: bytes) -> None:  # the name atheris and libFuzzer call
    """The atheris entry point."""
    check(data)


# -- plain mode: no atheris --------------------------------------------------------------


def corpus(*folders: Path) -> list[tuple[str, bytes]]:
    """(name, bytes) of every file in ``folders`` (sorted, so runs repeat)."""
    found = []
    for folder in folders:
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if path.is_file():
                    found.append((f"{folder.name}/{path.name}", path.read_bytes()))
    return found


def dictionary() -> list[bytes]:
    """The tokens of :data:`DICTIONARY` (libFuzzer's format: one quoted string a line)."""
    tokens = []
    for line in DICTIONARY.read_text("ascii").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        quoted = line[line.index('"') + 1 : line.rindex('"')]
        tokens.append(quoted.encode("latin-1").decode("unicode_escape").encode("latin-1"))
    return tokens


def mutate(data: bytes, rng: random.Random, tokens: Sequence[bytes],
           pool: Sequence[bytes], max_len: int = 4096) -> bytes:
    """A few random edits: flip, insert a dictionary token, delete, duplicate, splice."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        choice = rng.randrange(6)
        at = rng.randint(0, len(out))
        if choice == 0 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif choice == 1:
            out[at:at] = rng.choice(tokens)
        elif choice == 2 and out:
            del out[at : at + rng.randint(1, 16)]
        elif choice == 3 and out:
            start = rng.randrange(len(out))
            out[at:at] = out[start : start + rng.randint(1, 64)]
        elif choice == 4:
            other = rng.choice(pool)
            start = rng.randint(0, len(other))
            out[at:at] = other[start : start + rng.randint(1, 256)]
        else:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(out[:max_len])


def plain(runs: int, seed: int, max_len: int = 4096) -> int:
    """Check every seed and regression input, then ``runs`` mutations; return the count."""
    rng = random.Random(seed)
    pool = [data for _, data in corpus(SEEDS, REGRESSIONS)] or [b""]
    tokens = dictionary()
    for name, data in corpus(SEEDS, REGRESSIONS):
        try:
            check(data)
        except Exception:
            print(f"invariant broken by {name}", file=sys.stderr)
            raise
    for n in range(runs):
        data = mutate(rng.choice(pool), rng, tokens, pool, max_len)
        try:
            check(data)
        except Exception:
            crash = Path(f"crash-plain-{seed}-{n}")
            crash.write_bytes(data)
            print(f"invariant broken; input written to {crash}", file=sys.stderr)
            raise
        if rng.random() < 0.05:
            pool.append(data)
    return len(pool) + runs


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = list(sys.argv if argv is None else argv)
    if "--plain" in args or atheris is None:
        import argparse

        if atheris is None and "--plain" not in args:
            print("atheris is not installed: running the plain loop (pip install atheris)",
                  file=sys.stderr)
        options = argparse.ArgumentParser(description="fuzz robotsrules without atheris")
        options.add_argument("--plain", action="store_true")
        options.add_argument("--runs", type=int, default=20_000)
        options.add_argument("--seed", type=int, default=int(os.environ.get("SEED", "1")))
        known, _ = options.parse_known_args(args[1:])
        done = plain(known.runs, known.seed)
        print(f"plain fuzz: {done} inputs checked, invariant held")
        return
    atheris.Setup(args, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
