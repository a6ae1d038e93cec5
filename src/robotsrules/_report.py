"""The dataset builder's report on a verdict table: who is blocked, where, and how much.

Reads the output of ``robotsrules bulk`` (:data:`robotsrules.bulk.VERDICT_SCHEMA`; Parquet,
CSV or JSON Lines, or an Arrow table) and aggregates it with DuckDB (extra ``bulk``), so a
table larger than memory is fine. For each agent:

* **URLs**: how many rows were judged (``allowed`` not null), how many disallowed, and the
  share; rows with no verdict (no robots row, invalid URL) are counted as *unknown*, never as
  allowed;
* **sites** (origins with at least one judged URL): *fully* disallowed (an opt-out) and
  *partly* disallowed. With a stance table (``stances=``: the output of ``robotsrules stance
  --robots ... --out``, or :func:`stance_table` of a robots table), these are the project's one
  definition, :attr:`Stance.kind <robotsrules.Stance.kind>` of the site's robots.txt for the
  agent: ``all`` is fully, ``some`` partly (``basis="stance"``), and the counts of every kind
  are given (``stances``: all, some, none, unknown: no stance row, or a stance too complex to
  settle). Without one, the report has only the judged URLs and *estimates* them
  (``basis="urls"``): fully when every judged URL of the site is disallowed, partly when some
  are (a site that blocks one path nobody sampled looks like ``none``);
* **top sites**: the sites that block the most of the agent's URLs;
* **usage preferences** (when the table has ``bulk --purpose`` columns such as ``ai_train``):
  per purpose, the sites that state *no* (any of the agent's URLs there answers no), the
  sites that state *yes* (some answer yes, none no), out of the sites with a judged URL;
* **differential blocking**: for each pair of agents (A, B), the URLs disallowed for A but
  allowed for B, and the sites that disallow all of A's URLs while allowing all of B's (the
  AI-crawler opt-out pattern: ``GPTBot`` blocked, ``Googlebot`` welcome), with examples.

:func:`to_text`, :func:`to_json` and :func:`chart` (PNG, extra ``report``: matplotlib) render it.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Optional, Union

import duckdb
import pyarrow as pa

from .errors import EngineError, InvalidArgument, MissingExtra

__all__ = ["AgentSummary", "Audit", "Differential", "audit", "chart", "stance_table", "to_json",
           "to_text"]


@dataclass(frozen=True)
class AgentSummary:
    """The figures of one agent."""

    agent: str
    urls: int
    """Rows for this agent."""
    judged: int
    """Rows with a verdict (``allowed`` not null)."""
    disallowed: int
    unknown: int
    """Rows without a verdict (no robots row, invalid URL)."""
    sites: int
    """Sites (origins) with at least one judged URL."""
    sites_fully: int
    """Of :attr:`sites`, those fully disallowed: stance ``all`` (``basis="stance"``), else
    estimated: every judged URL disallowed."""
    sites_partly: int
    """Of :attr:`sites`, those partly disallowed: stance ``some``, else estimated: some but
    not all judged URLs disallowed."""
    top_sites: list[dict[str, Any]] = field(default_factory=list)
    """``{"origin", "disallowed", "judged"}``, most disallowed URLs first."""
    preferences: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per purpose column (``ai_train``): ``{"no": sites, "yes": sites}`` (see the module
    docstring); empty when the table has no purpose column."""
    basis: str = "urls"
    """Where :attr:`sites_fully` and :attr:`sites_partly` come from: ``"stance"`` (the
    robots.txt rules, :meth:`RobotsTxt.stance <robotsrules.RobotsTxt.stance>`) or ``"urls"``
    (estimated from the judged URLs: no stance table was given)."""
    stances: dict[str, int] = field(default_factory=dict)
    """With a stance table: of :attr:`sites`, how many have each stance kind
    (``{"all", "some", "none", "unknown"}``); empty otherwise."""
    stoppable: Optional[bool] = None
    """Whether a robots.txt group can stop the agent's requests, by its operator's word
    (:func:`robotsrules.bulk.agent_stoppable`): ``False`` means the disallowed figures say
    what the sites ask of it, not what it does. ``None``: unknown (not in the registry, the
    operator's word unknown or "partly", or stance rows that disagree)."""
    stoppable_from: str = "registry"
    """Where :attr:`stoppable` comes from: ``"stances"`` (the stance table's ``stoppable``
    column, what the registry said when that table was made) or ``"registry"`` (the crawler
    registry of this version: no stance table, or one without the column or the agent)."""

    @property
    def url_share(self) -> float:
        """Share of judged URLs that are disallowed (0 when none is judged)."""
        return self.disallowed / self.judged if self.judged else 0.0

    @property
    def site_share(self) -> float:
        """Share of sites that disallow every judged URL (0 when there is no site)."""
        return self.sites_fully / self.sites if self.sites else 0.0


@dataclass(frozen=True)
class Differential:
    """Agent ``blocked`` is disallowed where agent ``allowed`` is not."""

    blocked: str
    allowed: str
    urls: int
    """URLs disallowed for ``blocked`` and allowed for ``allowed``."""
    sites: int
    """Sites disallowing every URL of ``blocked`` and allowing every URL of ``allowed``."""
    examples: list[str] = field(default_factory=list)
    """A few such sites, largest first."""


@dataclass(frozen=True)
class Audit:
    """The whole report (see the module docstring)."""

    source: str
    rows: int
    sites: int
    agents: list[AgentSummary]
    differentials: list[Differential]


def _relation(con: duckdb.DuckDBPyConnection, source: Union[str, os.PathLike[str], pa.Table]
              ) -> duckdb.DuckDBPyRelation:
    from .duckdb import read

    relation = read(con, source)
    missing = {"url", "agent", "allowed", "origin"} - set(relation.columns)
    if missing:
        raise InvalidArgument("not a verdict table (robotsrules bulk output): no column "
                          + ", ".join(sorted(missing)))
    return relation


def audit(source: Union[str, os.PathLike[str], pa.Table], *, top: int = 10,
          examples: int = 3, connection: Optional[duckdb.DuckDBPyConnection] = None,
          stances: Union[str, os.PathLike[str], pa.Table, None] = None) -> Audit:
    """Aggregate a verdict table into an :class:`Audit`; with ``stances`` (a stance table,
    :data:`robotsrules.bulk.STANCE_SCHEMA`, keyed by origin), the fully/partly disallowed
    sites come from the stances (see the module docstring)."""
    con = connection if connection is not None else duckdb.connect()
    try:
        relation = _relation(con, source)
        relation.select("CAST(url AS VARCHAR) AS url, CAST(agent AS VARCHAR) AS agent, "
                        "CAST(allowed AS BOOLEAN) AS allowed, "
                        "CAST(origin AS VARCHAR) AS origin").create_view("v", replace=True)
        con.execute("""
            CREATE OR REPLACE TEMP TABLE s AS
            SELECT agent, origin, count(allowed) AS judged,
                   count(*) FILTER (WHERE NOT allowed) AS disallowed
            FROM v WHERE origin IS NOT NULL GROUP BY agent, origin""")
        totals = con.sql("SELECT count(*), count(DISTINCT origin) FROM v").fetchall()[0]
        per_agent = con.sql("""
            SELECT agent, count(*), count(allowed), count(*) FILTER (WHERE NOT allowed),
                   count(*) FILTER (WHERE allowed IS NULL)
            FROM v GROUP BY agent ORDER BY agent""").fetchall()
        sites = {row[0]: row[1:] for row in con.sql("""
            SELECT agent, count(*) FILTER (WHERE judged > 0),
                   count(*) FILTER (WHERE judged > 0 AND disallowed = judged),
                   count(*) FILTER (WHERE disallowed > 0 AND disallowed < judged)
            FROM s GROUP BY agent""").fetchall()}
        tops: dict[str, list[dict[str, Any]]] = {}
        for agent, origin, disallowed, judged in con.execute("""
                SELECT agent, origin, disallowed, judged FROM s WHERE disallowed > 0
                QUALIFY row_number() OVER (PARTITION BY agent
                                           ORDER BY disallowed DESC, origin) <= ?
                ORDER BY agent, disallowed DESC, origin""", [top]).fetchall():
            tops.setdefault(agent, []).append(
                {"origin": origin, "disallowed": disallowed, "judged": judged})
        kinds, recorded = _stance_kinds(con, stances) if stances is not None else (None, {})
        summaries = []
        for agent, rows, judged, disallowed, unknown in per_agent:
            counted, fully, partly = sites.get(agent, (0, 0, 0))
            if kinds is None:
                summaries.append(AgentSummary(agent, rows, judged, disallowed, unknown,
                                              counted, fully, partly,
                                              top_sites=tops.get(agent, [])))
                continue
            found = kinds.get(agent, {"all": 0, "some": 0, "none": 0, "unknown": counted})
            summaries.append(AgentSummary(agent, rows, judged, disallowed, unknown, counted,
                                          found["all"], found["some"],
                                          top_sites=tops.get(agent, []), basis="stance",
                                          stances=found))
        differentials = _differentials(con, examples)
        summaries = _preferences(con, relation, summaries)
        summaries = _stoppable(summaries, recorded)
    except duckdb.Error as error:
        raise EngineError(f"cannot aggregate the verdict table: {error}") from None
    finally:
        if connection is None:
            con.close()
    label = os.fspath(source) if isinstance(source, (str, os.PathLike)) else "<table>"
    return Audit(label, int(totals[0]), int(totals[1]), summaries, differentials)


def _stance_kinds(con: duckdb.DuckDBPyConnection,
                  stances: Union[str, os.PathLike[str], pa.Table]
                  ) -> tuple[dict[str, dict[str, int]], dict[str, Optional[bool]]]:
    """Per agent, how many sites with a judged URL (table ``s``) have each stance kind,
    and the ``stoppable`` value the table records for the agent (when it has the column).

    A (site, agent) with no stance row, a null kind, or stance rows that disagree is
    ``unknown``; an agent whose rows disagree on ``stoppable`` (or hold only nulls) gets
    ``None``."""
    from .duckdb import read

    relation = read(con, stances)
    missing = {"site", "agent", "kind"} - set(relation.columns)
    if missing:
        raise InvalidArgument("not a stance table (robotsrules stance --robots output): no "
                              "column " + ", ".join(sorted(missing)))
    relation.select("CAST(site AS VARCHAR) AS site, CAST(agent AS VARCHAR) AS agent, "
                    "CAST(kind AS VARCHAR) AS kind").create_view("k_raw", replace=True)
    found: dict[str, dict[str, int]] = {}
    for agent, every, some, none, unknown in con.sql("""
            WITH k AS (SELECT site, agent,
                              CASE WHEN count(DISTINCT kind) = 1 AND count(kind) = count(*)
                                   THEN min(kind) END AS kind
                       FROM k_raw GROUP BY site, agent)
            SELECT s.agent, count(*) FILTER (WHERE k.kind = 'all'),
                   count(*) FILTER (WHERE k.kind = 'some'),
                   count(*) FILTER (WHERE k.kind = 'none'),
                   count(*) FILTER (WHERE k.kind IS NULL OR k.kind NOT IN ('all', 'some', 'none'))
            FROM s LEFT JOIN k ON k.site = s.origin AND k.agent = s.agent
            WHERE s.judged > 0 GROUP BY s.agent""").fetchall():
        found[agent] = {"all": int(every), "some": int(some), "none": int(none),
                        "unknown": int(unknown)}
    recorded: dict[str, Optional[bool]] = {}
    if "stoppable" in relation.columns:
        relation.create_view("k_stop", replace=True)
        for agent, values, value in con.sql("""
                SELECT CAST(agent AS VARCHAR),
                       count(DISTINCT CAST(stoppable AS BOOLEAN))
                         + (count(*) > count(stoppable))::INT,
                       bool_and(CAST(stoppable AS BOOLEAN))
                FROM k_stop WHERE agent IS NOT NULL GROUP BY 1""").fetchall():
            recorded[agent] = bool(value) if values == 1 and value is not None else None
    return found, recorded


def _stoppable(summaries: list[AgentSummary],
               recorded: dict[str, Optional[bool]]) -> list[AgentSummary]:
    """The summaries with :attr:`AgentSummary.stoppable`: as the stance table recorded it,
    else from the crawler registry."""
    from .bulk import agent_stoppable

    return [replace(s, stoppable=recorded[s.agent], stoppable_from="stances")
            if s.agent in recorded else replace(s, stoppable=agent_stoppable(s.agent))
            for s in summaries]


def stance_table(verdicts: Union[str, os.PathLike[str], pa.Table], robots: Any, *,
                 mode: Any = "google",
                 connection: Optional[duckdb.DuckDBPyConnection] = None) -> pa.Table:
    """The stance table :func:`audit` needs, worked out from a robots table (or a
    :class:`~robotsrules.bulk.RobotsIndex`) for just the origins and agents of a verdict
    table: each site's file parsed once (:func:`robotsrules.bulk.stances`)."""
    from .bulk import STANCE_SCHEMA, RobotsIndex, stances
    from .duckdb import load_index

    con = connection if connection is not None else duckdb.connect()
    try:
        relation = _relation(con, verdicts)
        index = robots if isinstance(robots, RobotsIndex) else load_index(con, robots)
        relation.select("CAST(origin AS VARCHAR) AS origin, CAST(agent AS VARCHAR) AS agent"
                        ).create_view("stance_keys", replace=True)
        wanted = RobotsIndex()
        for (origin,) in con.sql("SELECT DISTINCT origin FROM stance_keys "
                                 "WHERE origin IS NOT NULL").fetchall():
            row = index.get(origin)
            if row is not None:
                wanted.add(origin, row[0], row[1])
        agents = [a for (a,) in con.sql("SELECT DISTINCT agent FROM stance_keys WHERE agent "
                                        "IS NOT NULL ORDER BY 1").fetchall()]
    except duckdb.Error as error:
        raise EngineError(f"cannot read the verdict or robots table: {error}") from None
    finally:
        if connection is None:
            con.close()
    if not agents:
        return STANCE_SCHEMA.empty_table()
    return pa.Table.from_batches(list(stances(wanted, agents, mode=mode)), STANCE_SCHEMA)


def _preferences(con: duckdb.DuckDBPyConnection, relation: duckdb.DuckDBPyRelation,
                 summaries: list[AgentSummary]) -> list[AgentSummary]:
    """The summaries with the sites stating each purpose column's preference."""
    from ._tables._purposes import PURPOSES, column_name

    columns = [column_name(p) for p in PURPOSES if column_name(p) in relation.columns]
    if not columns:
        return summaries
    found: dict[str, dict[str, dict[str, int]]] = {}
    for column in columns:
        relation.select(f"CAST(agent AS VARCHAR) AS agent, CAST(origin AS VARCHAR) AS origin, "
                        f"CAST(allowed AS BOOLEAN) AS allowed, "
                        f'CAST("{column}" AS BOOLEAN) AS answer').create_view("p", replace=True)
        for agent, no, yes in con.sql("""
                SELECT agent, count(*) FILTER (WHERE said_no),
                       count(*) FILTER (WHERE said_yes AND NOT said_no)
                FROM (SELECT agent, origin, bool_or(answer = false) IS TRUE AS said_no,
                             bool_or(answer) IS TRUE AS said_yes
                      FROM p WHERE origin IS NOT NULL GROUP BY agent, origin
                      HAVING count(allowed) > 0)
                GROUP BY agent""").fetchall():
            found.setdefault(agent, {})[column] = {"no": int(no), "yes": int(yes)}
    return [replace(s, preferences={c: found.get(s.agent, {}).get(c, {"no": 0, "yes": 0})
                                    for c in columns}) for s in summaries]


def _differentials(con: duckdb.DuckDBPyConnection, examples: int) -> list[Differential]:
    url_pairs = {(a, b): n for a, b, n in con.sql("""
        WITH u AS (SELECT DISTINCT url, agent, allowed FROM v WHERE allowed IS NOT NULL)
        SELECT x.agent, y.agent, count(*) FROM u x JOIN u y
          ON x.url = y.url AND x.agent <> y.agent
        WHERE NOT x.allowed AND y.allowed GROUP BY ALL""").fetchall()}
    site_pairs: dict[tuple[str, str], list[Any]] = {}
    for a, b, origin, judged in con.execute("""
            SELECT x.agent, y.agent, x.origin, x.judged FROM s x JOIN s y
              ON x.origin = y.origin AND x.agent <> y.agent
            WHERE x.judged > 0 AND x.disallowed = x.judged
              AND y.judged > 0 AND y.disallowed = 0
            ORDER BY x.agent, y.agent, x.judged DESC, x.origin""").fetchall():
        site_pairs.setdefault((a, b), []).append((origin, judged))
    agents = [row[0] for row in con.sql("SELECT DISTINCT agent FROM v ORDER BY 1").fetchall()]
    out = []
    for a in agents:
        for b in agents:
            if a == b:
                continue
            found = site_pairs.get((a, b), [])
            out.append(Differential(a, b, int(url_pairs.get((a, b), 0)), len(found),
                                    [origin for origin, _ in found[:examples]]))
    return out


def _percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:5.1f}%" if whole else "    -"


def _table(rows: list[list[str]]) -> list[str]:
    """Rows of cells as aligned lines: the first column left, the others right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                      for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
            for row in rows]


def to_text(report: Audit) -> str:
    """The report as aligned text (agent names and sites, which are data, with control
    characters made visible)."""
    lines = [f"{report.source}: {report.rows:,} rows, {report.sites:,} sites, "
             f"{len(report.agents)} agents", ""]
    rows = [["agent", "URLs disallowed", "", "sites fully disallowed", "", "partly",
             "unknown URLs"]]
    for s in report.agents:
        rows.append([s.agent, _percent(s.disallowed, s.judged).strip(),
                     f"({s.disallowed:,}/{s.judged:,})", _percent(s.sites_fully, s.sites).strip(),
                     f"({s.sites_fully:,}/{s.sites:,})",
                     _percent(s.sites_partly, s.sites).strip(), f"{s.unknown:,}"])
    lines += _table(rows)
    staged = [s for s in report.agents if s.basis == "stance"]
    if staged:
        lines += ["", "site stances (the robots.txt rules; fully = all, partly = some), of the "
                      "sites with a judged URL"]
        table = [["agent", "all", "some", "none", "unknown"]]
        for s in staged:
            table.append([s.agent] + [f"{s.stances.get(k, 0):,}"
                                      for k in ("all", "some", "none", "unknown")])
        lines += ["  " + line for line in _table(table)]
    elif report.agents:
        lines += ["(sites fully/partly disallowed estimated from the judged URLs; pass "
                  "--robots or --stances for the sites' stances)"]
    unstopped = [s for s in report.agents if s.stoppable is False]
    if unstopped:
        lines += ["", "robots.txt does not stop these agents' requests, by their operators' word "
                      "(their disallowed figures say what the sites ask, not what they do)"]
        lines += [f"  {s.agent}: {_stoppable_note(s)}" for s in unstopped]
    stated = [s for s in report.agents if s.preferences]
    if stated:
        lines += ["", "usage preferences stated (share of sites with a judged URL): no / yes"]
        columns = list(stated[0].preferences)
        table = [["agent", *columns]]
        for s in stated:
            table.append([s.agent] + [
                f"{_percent(s.preferences[c]['no'], s.sites).strip()} / "
                f"{_percent(s.preferences[c]['yes'], s.sites).strip()}" for c in columns])
        lines += ["  " + line for line in _table(table)]
    lines += ["", "sites that block the most URLs (disallowed of judged)"]
    for s in report.agents:
        if not s.top_sites:
            lines.append(f"  {s.agent}: none")
            continue
        lines.append(f"  {s.agent}:")
        lines += ["    " + line for line in _table(
            [[site["origin"], f"{site['disallowed']:,}", "of", f"{site['judged']:,}"]
             for site in s.top_sites])]
    lines += ["", "blocked where others are not: URLs / sites disallowed for ROW, allowed for "
                  "COLUMN"]
    names = [s.agent for s in report.agents]
    if len(names) < 2:
        lines.append("  (one agent only)")
    else:
        pairs = {(d.blocked, d.allowed): d for d in report.differentials}
        matrix = [["", *names]]
        for a in names:
            matrix.append([a] + ["-" if (d := pairs.get((a, b))) is None
                                 else f"{d.urls:,} / {d.sites:,}" for b in names])
        lines += ["  " + line for line in _table(matrix)]
        shown = [d for d in report.differentials if d.examples]
        if shown:
            lines += ["", "sites that disallow all of one agent's URLs and allow all of "
                          "another's"]
            for d in shown:
                lines.append(f"  {d.blocked} blocked, {d.allowed} allowed: {d.sites:,} "
                             "sites, e.g. " + ", ".join(d.examples))
    from ._terminal import visible

    return "\n".join(visible(line) for line in lines) + "\n"


def _stoppable_note(summary: AgentSummary) -> str:
    """Why :attr:`AgentSummary.stoppable` is false: the registry's line on the agent, or the
    stance table's word."""
    if summary.stoppable_from == "stances":
        return "the stance table's stoppable column says false"
    from ._tables._crawlers import crawler_for, registry_info

    crawler = crawler_for(summary.agent)
    info = registry_info()
    where = f"crawler registry {info['version']} of {info['compiled']}"
    return f"{crawler.robots_txt_note()} ({where})" if crawler is not None else where


def to_json(report: Audit) -> dict[str, Any]:
    """The report as JSON-ready data (shares included)."""
    data = asdict(report)
    for item, summary in zip(data["agents"], report.agents):
        item["url_share"] = round(summary.url_share, 6)
        item["site_share"] = round(summary.site_share, 6)
    return data


_CHART_NAME_LIMIT = 28


def _chart_name(name: str) -> str:
    """An agent name for a chart label: control characters made visible, long names cut."""
    from ._terminal import visible

    text = visible(name)
    return text if len(text) <= _CHART_NAME_LIMIT else text[: _CHART_NAME_LIMIT - 1] + "\u2026"


def chart(report: Audit, path: Union[str, os.PathLike[str]]) -> None:
    """A PNG: share of URLs and of sites disallowed per agent, and the differential matrix,
    under a title naming the verdict table and its size (rows, sites, agents); every scale
    is labelled with what it counts.

    Agent names are data: they are drawn as plain text (never as mathtext, whatever ``$``
    or ``\\`` they hold). Numbers on the matrix's dark cells are white.
    """
    figure = _figure(report)
    import matplotlib.pyplot as plt

    try:
        figure.savefig(os.fspath(path), format="png", dpi=100)
    finally:
        plt.close(figure)


def _figure(report: Audit) -> Any:
    """The chart's matplotlib figure (not yet drawn)."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display: files only
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingExtra("--chart", "report", "matplotlib") from None
    names = [_chart_name(s.agent) for s in report.agents]
    many = len(names) > 1
    longest = max((len(name) for name in names), default=0)
    label = 0.085 * longest  # inches a label takes (about 8.5 points a character)
    height = max(3.5, 1.8 + 0.45 * len(names)) + (0.85 * label if many else 0.0)
    width = (12.0 if many else 7.0) + (2 * label if many else label)
    figure, axes = plt.subplots(1, 2 if many else 1, figsize=(width, height),
                                layout="constrained")
    bars = axes[0] if many else axes
    positions = list(range(len(names)))
    bars.barh([p - 0.2 for p in positions], [100 * s.url_share for s in report.agents],
              height=0.4, label="URLs disallowed")
    bars.barh([p + 0.2 for p in positions], [100 * s.site_share for s in report.agents],
              height=0.4, label="sites fully disallowed")
    bars.set_yticks(positions, names)
    bars.invert_yaxis()
    bars.set_xlabel("share disallowed (%)")
    bars.set_ylabel("agent")
    bars.set_xlim(0, 100)
    bars.legend(loc="upper center", bbox_to_anchor=(0.5, -0.17 - (0.6 * label / height
                                                                    if many else 0.0)),
                ncols=2, frameon=False)
    bars.set_title("Disallowed, by agent")
    labels = list(bars.get_yticklabels())
    if many:
        pairs = {(d.blocked, d.allowed): d.urls for d in report.differentials}
        agents = [s.agent for s in report.agents]
        matrix = [[pairs.get((a, b), 0) for b in agents] for a in agents]
        heat = axes[1]
        image = heat.imshow(matrix, cmap="Reds")
        heat.set_xticks(positions, names, rotation=45, ha="right")
        heat.set_yticks(positions, names)
        labels += list(heat.get_xticklabels()) + list(heat.get_yticklabels())
        for i, row in enumerate(matrix):
            for j, value in enumerate(row):
                if i != j:
                    dark = float(image.norm(value)) > 0.55
                    heat.text(j, i, f"{value:,}", ha="center", va="center", fontsize=8,
                              color="white" if dark else "black", parse_math=False)
        heat.set_title("URLs disallowed for row,\nallowed for column")
        heat.set_xlabel("allowed for this agent")
        heat.set_ylabel("disallowed for this agent")
        figure.colorbar(image, ax=heat, label="URLs")
    source = _chart_name(os.path.basename(str(report.source)) or str(report.source))
    title = figure.suptitle(
        f"robots.txt verdicts of {source}: {report.rows:,} verdicts, {report.sites:,} sites, "
        f"{len(report.agents):,} {'agent' if len(report.agents) == 1 else 'agents'}",
        fontsize=12)
    labels.append(title)
    for label in labels:
        label.set_parse_math(False)
    return figure
