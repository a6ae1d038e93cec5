"""Doctest collection of ``src/``: skip the edge modules whose optional package is absent.

``--doctest-modules`` imports every module under ``src/robotsrules``; the engines and
integrations import their third-party package at the top (an optional extra, e.g. pyspark
has no wheel for every Python the core supports), so without it they are left out of the
doctest run instead of failing collection. Their own tests skip with a message.
"""

from __future__ import annotations

import importlib.util
from typing import List

_NEEDS = {
    "src/robotsrules/audit.py": ("duckdb", "pyarrow"),
    "src/robotsrules/bulk.py": ("pyarrow",),
    "src/robotsrules/duckdb.py": ("duckdb", "pyarrow"),
    "src/robotsrules/spark.py": ("pyspark", "pyarrow"),
    "src/robotsrules/warc.py": ("warcio", "pyarrow"),
    "src/robotsrules/scrapy.py": ("scrapy",),
    "src/robotsrules/aiohttp.py": ("aiohttp",),
    "src/robotsrules/cache/redis.py": ("redis",),
}

collect_ignore: List[str] = [
    path for path, packages in _NEEDS.items()
    if any(importlib.util.find_spec(name) is None for name in packages)
]
