"""The answers a build of robotsrules gives for a set of robots.txt files: what the
differential test compares between the pure and the compiled build.

``python answers.py IN OUT`` reads the cases (JSON: files as latin-1 text, agents, URLs) and
writes, for every file, agent and URL, the verdict and its deciding line and reason, and per
file and agent the crawl delay, request rate, stance and usage answers, and per file the
sitemaps, hosts, group agents and lint codes. Run by the test both in its own process (the
build under test) and in a child whose ``PYTHONPATH`` puts the pure source first.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def answers(cases: dict[str, Any]) -> list[Any]:
    import robotsrules

    out: list[Any] = [robotsrules.COMPILED]
    for item in cases["files"]:
        body = item["body"].encode("latin-1")
        row: list[Any] = []
        try:
            robots = robotsrules.parse(body)
        except Exception as error:  # a build that raises where the other does not differs
            out.append(["parse raised", type(error).__name__])
            continue
        row.append([list(group.agents) for group in robots.groups])
        row.append(list(robots.sitemaps))
        row.append(list(robots.hosts))
        row.append(sorted(d.code for d in robotsrules.lint(body)))
        for agent in cases["agents"]:
            rate = robots.request_rate(agent)
            row.append([robots.crawl_delay(agent), None if rate is None else list(rate)])
            try:
                stance = robots.stance(agent)
                row.append([stance.kind, stance.complete, list(stance.disallowed)])
            except robotsrules.StanceTooComplex:
                row.append("too complex")
            for url in item["urls"]:
                try:
                    verdict = robots.explain(url, agent=agent)
                    usage = robots.usage(url, agent=agent)
                except robotsrules.InvalidURL:
                    row.append("invalid URL")
                    continue
                row.append([verdict.allowed, verdict.reason,
                            verdict.rule.line if verdict.rule else None,
                            robots.allowed(url, agent=agent),
                            repr(sorted(usage.preferences.items())),
                            [usage.allows(purpose) for purpose in ("train-ai", "search")]])
        out.append(row)
    return out


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        cases = json.load(handle)
    with open(sys.argv[2], "w", encoding="utf-8") as handle:
        json.dump(answers(cases), handle)


if __name__ == "__main__":
    main()
