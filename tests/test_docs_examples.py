"""The documentation cannot drift from the code: every Python example in it runs.

Each ```python block of README.md and of every page under docs/ is executed, in page order,
in one namespace per page (so a page can build on its earlier blocks), with the repository
root as the working directory. A block written as a doctest (lines starting with `>>> `)
is run by doctest, so its printed results are checked too.

A block that cannot run here (it needs the internet, a Spark cluster, or is a settings
file) is preceded by an HTML comment saying why: `<!-- not run: reason -->`. Such a block
must still compile, and a reason is required, so a skip is always visible in the source.
"""

from __future__ import annotations

import ast
import doctest
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

_BLOCK = re.compile(
    r"(?:<!-- not run: (?P<why>[^>]*?) -->\s*\n)?^```python[^\n]*\n(?P<code>.*?)^```\s*$",
    re.MULTILINE | re.DOTALL)


def _blocks(page: Path) -> list[tuple[int, str, str]]:
    """(line number, code, reason it is not run or '') for each python block of a page."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in _BLOCK.finditer(text):
        line = text.count("\n", 0, match.start("code")) + 1
        found.append((line, match.group("code"), (match.group("why") or "").strip()))
    return found


def _pages_with_blocks() -> list[Path]:
    return [page for page in PAGES if _blocks(page)]


def test_the_docs_have_examples() -> None:
    # The harness must find blocks, or every test below would pass vacuously.
    assert len(_pages_with_blocks()) >= 5
    assert sum(len(_blocks(page)) for page in PAGES) >= 20


@pytest.mark.parametrize("page", _pages_with_blocks(),
                         ids=lambda page: str(page.relative_to(ROOT)))
def test_page_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    # Keep examples that use the CLI's default cache away from the user's cache.
    monkeypatch.setenv("ROBOTSRULES_CACHE", os.devnull)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for line, code, why in _blocks(page):
        where = f"{page.relative_to(ROOT)}:{line}"
        flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
        if why:
            compile(code, where, "exec", flags=flags)   # still valid Python
            continue
        if re.search(r"^>>> ", code, re.MULTILINE):
            test = doctest.DocTestParser().get_doctest(code, namespace, where, where, line)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS
                                           | doctest.NORMALIZE_WHITESPACE)
            runner.run(test, clear_globs=False)
            namespace.update(test.globs)     # DocTest runs in a copy: keep its names
            failed = runner.summarize(verbose=False).failed
            assert not failed, f"{where}: {failed} doctest example(s) failed (output above)"
        else:
            exec(compile(code, where, "exec"), namespace)


def test_every_skipped_block_says_why() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"<!-- not run:(.*?)-->", text):
            assert match.group(1).strip(), f"{page}: a not-run block needs a reason"


# Command-line transcripts: every `$ robotsrules ...` line of a ``` block in the README and the
# docs runs as written (from the repository root, no network), exits 0 or 1 (or the code the
# block states), and the lines shown under it are lines of its real output, in order ('...'
# stands for lines left out). A block that cannot run here is preceded by
# `<!-- not run: reason -->`, like a Python block.
_NOT_RUN = re.compile(r"<!-- not run: (?P<why>[^>]*?) -->\s*$")


def _transcripts(page: Path) -> list[tuple[int, str, list[str], str]]:
    """(line, command, shown output lines, reason it is not run or '') of a page: the
    `$ robotsrules` lines of its fenced blocks other than Python ones."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found = []
    number = 0
    while number < len(lines):
        fence = lines[number]
        if not fence.startswith("```"):
            number += 1
            continue
        language = fence[3:].strip()
        end = next((i for i in range(number + 1, len(lines)) if lines[i].startswith("```")),
                   len(lines))
        previous = next((lines[i] for i in range(number - 1, -1, -1) if lines[i].strip()), "")
        marked = _NOT_RUN.search(previous)
        why = marked.group("why").strip() if marked else ""
        body = lines[number + 1:end]
        if language in ("", "sh", "console", "text"):
            for index, line in enumerate(body):
                if not line.startswith("$ robotsrules "):
                    continue
                shown: list[str] = []
                for following in body[index + 1:]:
                    if following.startswith("$ "):
                        break
                    shown.append(following)
                found.append((number + 2 + index, line[2:], shown, why))
        number = end + 1
    return found


def _fetches(argv: list[str]) -> list[str]:
    """The URLs a command line would fetch: its robots.txt (or page, or licence) source,
    every URL of ``check`` without ``--robots``, and a ``--robots`` URL."""
    url = re.compile(r"(?i)(https?|ftp)://")
    fetched = []
    positional = []
    skip = False
    for number, arg in enumerate(argv[1:], 1):
        if skip:
            skip = False
            if argv[number - 1] == "--robots" and url.match(arg):
                fetched.append(arg)
            continue
        if arg.startswith("--"):
            skip = "=" not in arg and arg not in ("--json", "--no-cache", "--refresh",
                                                  "--by-category", "--list-codes", "--fetch",
                                                  "--any-agent", "--crawlers-replace")
            continue
        positional.append(arg)
    if argv[0] == "check":
        fetched += [] if "--robots" in argv else [a for a in positional if url.match(a)]
    elif positional and url.match(positional[0]):
        fetched.append(positional[0])
    return fetched


TRANSCRIPT_PAGES = [page for page in PAGES if page.name != "cli.md" and _transcripts(page)]


def test_the_docs_have_transcripts() -> None:
    assert sum(1 for page in TRANSCRIPT_PAGES for *_, why in _transcripts(page) if not why) >= 8


@pytest.mark.parametrize("page", TRANSCRIPT_PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_page_transcripts_run(page: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import shlex

    from robotsrules.cli import main

    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("ROBOTSRULES_CACHE", os.devnull)
    for line, command, shown, why in _transcripts(page):
        if why:
            continue
        where = f"{page.relative_to(ROOT)}:{line}"
        argv = shlex.split(command.split("  #", 1)[0])[1:]
        assert not _fetches(argv), f"{where}: would fetch {_fetches(argv)}: nothing reaches " \
            "the network in the tests (mark the block <!-- not run: reason -->)"
        out = io.StringIO()
        code = main(argv, out=out)  # not a terminal: no colour
        err = capsys.readouterr().err
        assert code in (0, 1, 3), f"{where}: exit {code}: {err}"
        real = out.getvalue().rstrip("\n").split("\n")
        wanted = [s for s in shown if s != "..." and s.strip()]
        position = 0
        for expected in wanted:
            assert expected in real[position:], f"{where}: {expected!r} is not in the output:\n" \
                + "\n".join(real)
            position = real.index(expected, position) + 1


# What each datatrove step of the guides needs beyond datatrove itself (datatrove's own "io"
# and "processing" extras, and ours).
_DATATROVE_NEEDS = {
    "WarcReader": {"warcio", "faust-cchardet", "python-magic"},
    "WarcHeadersReader": {"warcio", "faust-cchardet", "brotli"},
    "JsonlReader": {"orjson"}, "JsonlWriter": {"orjson"},
    "Trafilatura": {"trafilatura"},
    "LocalPipelineExecutor": set(), "RobotsFilter": {"pyarrow", "duckdb", "regex"},
    "PageSignalsFilter": {"regex"},
}


def test_the_datatrove_extra_carries_what_the_guides_pipelines_need() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]["datatrove"]
    names = {re.split(r"[<>=;\[ ]", requirement, maxsplit=1)[0] for requirement in extra}
    used = set()
    for page in PAGES:
        for _, code, _ in _blocks(page):
            for _module, imported in re.findall(
                    r"^from (datatrove\S*|robotsrules\.datatrove) import (.+)$", code,
                    re.MULTILINE):
                used.update(name.strip() for name in imported.split(","))
    assert {"WarcReader", "JsonlWriter", "Trafilatura", "RobotsFilter"} <= used
    unknown = used - set(_DATATROVE_NEEDS)
    assert not unknown, f"say what {unknown} need in _DATATROVE_NEEDS"
    needed = set().union(*(_DATATROVE_NEEDS[name] for name in used))
    assert "datatrove" in names and needed <= names, needed - names
