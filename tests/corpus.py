"""The real-world corpus (``../shared/corpus``) as the differential tests read it.

By default they read a fixed stratified sample (:func:`sample`): every
:data:`SAMPLE_EVERY`-th file in order of size (so small, typical and large files are all
there in their proportions), the :data:`LARGEST` largest files, and every file with a
feature that is rare but decides verdicts (bytes that are not UTF-8, a byte-order mark,
CR-only line ends). ``--run-slow`` reads every file
(:func:`names`). The sample is the same on every run and every machine.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict

SAMPLE_EVERY = 8
LARGEST = 2
_RARE = re.compile(rb"^\xef\xbb\xbf|\r(?!\n)")


def names(corpus_dir: str) -> list[str]:
    """Every file name of the corpus, sorted."""
    return sorted(os.listdir(os.path.join(corpus_dir, "robots")))


def _rare(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return _RARE.search(body) is not None


def sample(corpus_dir: str) -> list[str]:
    """The fixed stratified sample (see the module docstring), sorted by name."""
    folder = os.path.join(corpus_dir, "robots")
    by_size = sorted(names(corpus_dir), key=lambda n: (os.path.getsize(os.path.join(folder, n)), n))
    chosen = set(by_size[::SAMPLE_EVERY]) | set(by_size[-LARGEST:])
    for name in by_size:
        if name not in chosen:
            with open(os.path.join(folder, name), "rb") as handle:
                if _rare(handle.read()):
                    chosen.add(name)
    return sorted(chosen)


def urls_by_host(corpus_dir: str) -> dict[str, list[str]]:
    """The corpus URLs by host (the file name without ``.txt``)."""
    by_host: dict[str, list[str]] = defaultdict(list)
    with open(os.path.join(corpus_dir, "urls.txt"), encoding="utf-8",
              errors="surrogateescape") as handle:
        for line in handle:
            host, _, url = line.rstrip("\n").partition("\t")
            by_host[host].append(url)
    return by_host
