"""The compiled build (issue 27) against the pure one.

The suite runs twice in CI: on the pure build (the whole suite) and on the compiled build
(``ROBOTSRULES_COMPILE=1``, its own environment: the core, conformance, corpus-sample,
property and these tests), with ``ROBOTSRULES_EXPECT_COMPILED=1`` set for the compiled run.

* :func:`test_the_build_is_the_one_expected` fails when the compiled run loaded no compiled
  module (a build that silently fell back to pure Python), or the pure run loaded one.
* :func:`test_pure_and_compiled_give_the_same_answers` compares, in the compiled run, every
  answer of :mod:`tests.compiled.answers` with those of the pure source run in a child
  process, over a slice of the corpus sample and over generated files.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import robotsrules
from tests import corpus
from tests.compiled.answers import answers
from tests.compiled.listing import ROOT, compiled_modules

EXPECT_COMPILED = os.environ.get("ROBOTSRULES_EXPECT_COMPILED") == "1"
AGENTS = ["Googlebot", "GPTBot", "QuuxCrawler", "AdsBot-Google"]


def test_the_build_is_the_one_expected() -> None:
    assert robotsrules.COMPILED is EXPECT_COMPILED
    for name in compiled_modules():
        module = importlib.import_module(f"robotsrules.{name}")
        compiled = not (module.__file__ or "").endswith(".py")
        assert compiled is EXPECT_COMPILED, (name, module.__file__)


KEYS = ["User-agent", "user-agent", "Disallow", "Allow", "allow", "Crawl-delay",
        "Request-rate", "Sitemap", "Host", "Content-Signal", "Content-Usage", "Disalow", "#"]
VALUES = ["*", "/", "/a", "/a*", "/a$", "/*.php$", "/%61", "/é", "/a?b=1", "", "10", "1/5",
          "GPTBot", "googlebot", "AdsBot-Google", "https://x.example/s.xml", "ai-train=no",
          "train-ai=n, search=y", "/\u00e9t\u00e9", "/x%2Fy", "*/*", "$"]
BREAKS = ["\n", "\r\n", "\r", "\n\n"]


def _generated(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    files = []
    for _ in range(count):
        lines = [f"{rng.choice(KEYS)}:{rng.choice(['', ' '])}{rng.choice(VALUES)}"
                 for _ in range(rng.randint(0, 14))]
        body = "".join(line + rng.choice(BREAKS) for line in lines).encode("utf-8")
        if rng.random() < 0.1:
            body = b"\xef\xbb\xbf" + body
        if rng.random() < 0.1:
            body += b"Disallow: /caf\xe9\n"
        urls = ["https://x.example" + rng.choice(["/", "/a", "/ab", "/a$", "/p.php",
                                                   "/%61", "/\u00e9", "/x/y", "/a?b=1"])
                for _ in range(6)]
        files.append({"body": body.decode("latin-1"), "urls": urls})
    return files


@pytest.mark.skipif(not EXPECT_COMPILED, reason="the compiled run compares with the pure one")
def test_pure_and_compiled_give_the_same_answers(tmp_path: Path, corpus_dir: str) -> None:
    cases: dict[str, Any] = {"files": _generated(400, seed=27), "agents": AGENTS}
    urls = corpus.urls_by_host(corpus_dir)
    for name in corpus.sample(corpus_dir)[::6]:
        body = (Path(corpus_dir) / "robots" / name).read_bytes()
        cases["files"].append({"body": body.decode("latin-1"),
                               "urls": urls.get(name[:-4], [])[:20]})
    (tmp_path / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    subprocess.run([sys.executable, "-m", "tests.compiled.answers", str(tmp_path / "cases.json"),
                    str(tmp_path / "pure.json")], check=True, env=env, cwd=ROOT)
    pure = json.loads((tmp_path / "pure.json").read_text(encoding="utf-8"))
    ours = json.loads(json.dumps(answers(cases)))
    assert pure[0] is False and ours[0] is True  # the child ran the source, we the build
    assert len(pure) == len(ours)
    differ = [(i, cases["files"][i - 1]["body"][:200], p, o)
              for i, (p, o) in enumerate(zip(pure, ours)) if i and p != o]
    assert differ == [], differ[:3]
