"""The log audit's HTML report: one standalone file a site owner opens in a browser.

:func:`render_report` turns the audit's JSON-able summary (``robotsrules-log-audit/1``,
documented in :mod:`robotsrules._audit._summary`) into a page with no network access
needed: the charts are SVG drawn here from the data (requests per bot per day as small
multiples, violations per bot, the verified share per bot), the tables sort, nothing is
fetched (no external script, style, font or image).

Strangers' text. Every string the summary holds may come from a log line a stranger wrote
(user agents, product tokens, paths, the deciding lines of a robots.txt, examples of bad
lines): each one goes through :func:`_text`, which makes control characters visible
(:func:`robotsrules._terminal.visible`: C0/C1 controls, bidirectional overrides, zero-width
characters) and then escapes it for HTML (``&``, ``<``, ``>``, both quotes). No string from
the log is ever put in a URL attribute (no ``href``, so ``javascript:`` is plain text), an
event attribute, a ``style``, or the script. Numbers are formatted from numbers.

Why an embedded ``<script>``. A standalone file opened from disk has no server to sort a
table for it, and pre-rendered orders (one copy of each table per sortable column) grow the
file by the number of columns. The file carries one small script and one style, and a
Content-Security-Policy ``<meta>`` that allows exactly those two by their SHA-256 hashes
and nothing else (``default-src 'none'``): an injected ``<script>``, inline event handler
or ``javascript:`` URL would not run even if escaping failed. Without the script (disabled,
or a viewer that runs none) the tables show in their first order (most requests first).

Accessible and small screens: the charts state their numbers as text (in the SVG and in
the tables next to them) and tell series apart by pattern and label, never by colour
alone; the page reflows at phone width (the tables scroll sideways in their own box).
"""

from __future__ import annotations

import base64
import hashlib
import html
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Optional

from robotsrules._terminal import visible

__all__ = ["render_report"]

TOP_BOTS = 8
"""Bots drawn in the charts (the ones with most requests; every bot is in the tables)."""
MAX_ROWS = 1000
"""Rows of a table at most (the summary is bounded already: this bounds a hand-made one)."""
MAX_TEXT = 300
"""Characters of one string shown (the rest is cut, with an ellipsis)."""
VERIFICATIONS = ("verified", "not-verified", "unverifiable", "unknown", "not-checked")
VERIFICATION_FILL = {  # pattern and shade: told apart in grey, printed, or colour-blind
    "verified": "#1b7837", "not-verified": "url(#p-cross)", "unverifiable": "url(#p-diag)",
    "unknown": "url(#p-dots)", "not-checked": "#d9d9d9"}
VERIFICATION_WORDS = {
    "verified": "verified", "not-verified": "not verified (spoofed?)",
    "unverifiable": "unverifiable (no published addresses)", "unknown": "unknown",
    "not-checked": "not checked"}

_STYLE = """
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",sans-serif}
body{margin:0 auto;max-width:72rem;padding:0 1rem 3rem;line-height:1.45;color:#1a1a1a}
h1{font-size:1.6rem;margin:1.2rem 0 .2rem}h2{font-size:1.25rem;margin-top:2rem}
.meta{color:#444;margin:0 0 1rem;overflow-wrap:anywhere}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(8rem,1fr));gap:.6rem}
.card{border:1px solid #bbb;border-radius:.4rem;padding:.5rem .7rem}
.card b{display:block;font-size:1.35rem}.card.bad{border:2px solid #b2182b}
.scroll{overflow-x:auto;max-width:100%}.chart svg{min-width:34rem}
table{border-collapse:collapse;font-size:.9rem;min-width:100%}
th,td{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
td code,li code{overflow-wrap:anywhere;white-space:pre-wrap}
th button{all:inherit;cursor:pointer;text-decoration:underline dotted}
th[aria-sort=ascending] button::after{content:" \\2191"}
th[aria-sort=descending] button::after{content:" \\2193"}
svg{max-width:100%;height:auto;display:block}svg text{font-size:12px;fill:#1a1a1a}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1rem;margin:.3rem 0;font-size:.9rem}
.legend svg{display:inline-block;vertical-align:middle}
.none{color:#444;font-style:italic}.defs{position:absolute}
@media (max-width:40rem){body{padding:0 .5rem 2rem}h1{font-size:1.3rem}}
"""

# Sorts a table by a column when its header's button is pressed: numbers by the cell's
# data-v attribute (written from numbers only), text by its content; a second press flips.
_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.querySelectorAll("thead th");
  heads.forEach(function (th, column) {
    var button = th.querySelector("button");
    if (!button) { return; }
    button.addEventListener("click", function () {
      var down = th.getAttribute("aria-sort") !== "descending";
      heads.forEach(function (other) { other.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", down ? "descending" : "ascending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var numeric = th.classList.contains("n");
      rows.sort(function (a, b) {
        var x = a.cells[column], y = b.cells[column];
        var order = numeric
          ? Number(x.getAttribute("data-v")) - Number(y.getAttribute("data-v"))
          : x.textContent.localeCompare(y.textContent);
        return down ? -order : order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
"""


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


_CSP = (f"default-src 'none'; style-src {_hash(_STYLE)}; script-src {_hash(_SCRIPT)}; "
        "img-src 'none'; base-uri 'none'; form-action 'none'")


# ------------------------------------------------------------------------- the pieces

def _text(value: Any) -> str:
    """A stranger's string as HTML text: cut, control characters visible, escaped."""
    text = "" if value is None else str(value)
    if len(text) > MAX_TEXT:
        text = text[:MAX_TEXT] + "\N{HORIZONTAL ELLIPSIS}"
    return html.escape(visible(text), quote=True)


def _number(value: Any) -> float:
    """A count from the summary (anything else is 0: a hand-made summary is no code)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(
            value):
        return 0
    return value


def _count(value: Any) -> str:
    number = _number(value)
    return f"{number:,.0f}" if float(number).is_integer() else f"{number:,.2f}"


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return list(value)[:MAX_ROWS] if isinstance(value, (list, tuple)) else []


def _bytes(value: Any) -> str:
    number = _number(value)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if number < 1024 or unit == "GiB":
            return f"{number:,.0f} {unit}" if unit == "B" else f"{number:,.1f} {unit}"
        number /= 1024
    return ""  # pragma: no cover  (the loop returns)


def _share(part: Any, whole: Any) -> str:
    total = _number(whole)
    return f"{100 * _number(part) / total:.0f} %" if total else "-"


class _Cell:
    """One table cell: its HTML (already escaped) and, for numbers, the sort value."""

    __slots__ = ("html", "sort")

    def __init__(self, text: str, sort: Optional[float] = None) -> None:
        self.html = text
        self.sort = sort


def _num(value: Any, shown: Optional[str] = None) -> _Cell:
    return _Cell(shown if shown is not None else _count(value), _number(value))


def _table(caption: str, heads: Sequence[tuple[str, bool]], rows: Iterable[Sequence[_Cell]],
           empty: str) -> str:
    """A sortable table (``heads``: title, numeric?); ``empty`` when it has no row."""
    body = []
    for row in rows:
        cells = []
        for (_, numeric), cell in zip(heads, row):
            if numeric:
                cells.append(f'<td class="n" data-v="{cell.sort or 0:g}">{cell.html}</td>')
            else:
                cells.append(f"<td>{cell.html}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
        if len(body) >= MAX_ROWS:
            break
    if not body:
        return f'<p class="none">{empty}</p>'
    head = "".join(f'<th scope="col"{" class=n" if numeric else ""}><button type="button">'
                   f"{title}</button></th>" for title, numeric in heads)
    return (f'<div class="scroll"><table class="sortable"><caption class="none">{caption} '
            "(press a column title to sort)</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>")


# ------------------------------------------------------------------------- the charts

_DEFS = """<defs>
<pattern id="p-diag" width="6" height="6" patternUnits="userSpaceOnUse">
<rect width="6" height="6" fill="#fddbc7"/><path d="M0,6 L6,0" stroke="#b2182b" stroke-width="1.5"/>
</pattern>
<pattern id="p-cross" width="6" height="6" patternUnits="userSpaceOnUse">
<rect width="6" height="6" fill="#f4a582"/><path d="M0,0 L6,6 M0,6 L6,0" stroke="#67001f"
stroke-width="1.2"/></pattern>
<pattern id="p-dots" width="5" height="5" patternUnits="userSpaceOnUse">
<rect width="5" height="5" fill="#ffffff"/><circle cx="2.5" cy="2.5" r="1.2" fill="#4d4d4d"/>
</pattern>
</defs>"""


def _svg(width: int, height: int, label: str, inner: str) -> str:
    """A chart, in a box that scrolls sideways on a narrow screen rather than shrink its
    text below legibility."""
    return (f'<div class="scroll chart"><svg xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
            f'aria-label="{label}">{inner}</svg></div>')


def _day_chart(days_by_bot: Sequence[tuple[str, Mapping[str, float]]], days: list[str]) -> str:
    """Requests per day, one row of bars per bot (small multiples: no colour to decode);
    each row's largest day is written beside it, each bar says its number on hover."""
    if not days or not days_by_bot:
        return '<p class="none">No crawler request with a time.</p>'
    label_width, row_height, chart_width = 165, 38, 505
    width = label_width + chart_width + 70
    height = row_height * len(days_by_bot) + 24
    step = chart_width / len(days)
    parts = []
    for row, (token, per_day) in enumerate(days_by_bot):
        top = row * row_height + 4
        peak = max((per_day.get(day, 0) for day in days), default=0) or 1
        parts.append(f'<text x="0" y="{top + 20}">{_text(token[:20])}</text>')
        parts.append(f'<line x1="{label_width}" y1="{top + 30}" x2="{label_width + chart_width}"'
                     f' y2="{top + 30}" stroke="#999"/>')
        for column, day in enumerate(days):
            value = per_day.get(day, 0)
            if not value:
                continue
            bar = max(1.0, 28 * value / peak)
            parts.append(
                f'<rect x="{label_width + column * step + 0.5:.1f}" y="{top + 30 - bar:.1f}" '
                f'width="{max(1.0, step - 1):.1f}" height="{bar:.1f}" fill="#2166ac">'
                f"<title>{_text(token)} {_text(day)}: {_count(value)}</title></rect>")
        parts.append(f'<text x="{label_width + chart_width + 6}" y="{top + 20}">max '
                     f"{_count(peak)}</text>")
    bottom = row_height * len(days_by_bot) + 18
    parts.append(f'<text x="{label_width}" y="{bottom}">{_text(days[0])}</text>')
    if len(days) > 1:
        parts.append(f'<text x="{label_width + chart_width}" y="{bottom}" text-anchor="end">'
                     f"{_text(days[-1])}</text>")
    return _svg(width, height, "Requests per day for each crawler", "".join(parts))


def _bar_chart(rows: list[tuple[str, float, float]], label: str) -> str:
    """Horizontal bars per bot: violations (solid) and within the caching allowance
    (hatched), each with its number written at its end."""
    if not rows:
        return '<p class="none">No violation, and nothing within the caching allowance.</p>'
    label_width, chart_width, row_height = 165, 405, 34
    peak = max(max(a, b) for _, a, b in rows) or 1
    parts = []
    for row, (token, violations, allowance) in enumerate(rows):
        top = row * row_height + 4
        parts.append(f'<text x="0" y="{top + 17}">{_text(token[:20])}</text>')
        for offset, value, fill, word in ((0, violations, "#b2182b", "violations"),
                                          (14, allowance, "url(#p-diag)", "caching allowance")):
            bar = chart_width * value / peak
            parts.append(f'<rect x="{label_width}" y="{top + offset}" width="{bar:.1f}" '
                         f'height="12" fill="{fill}" stroke="#67001f" stroke-width="0.5">'
                         f"<title>{_text(token)}: {_count(value)} {word}</title></rect>")
            parts.append(f'<text x="{label_width + bar + 4:.1f}" y="{top + offset + 10}">'
                         f"{_count(value)} {word}</text>")
    width = label_width + chart_width + 170
    return _svg(width, row_height * len(rows) + 6, label, "".join(parts))


def _share_chart(rows: list[tuple[str, Mapping[str, Any], float]]) -> str:
    """One 100 % bar per bot, split by verification answer (told apart by pattern and
    shade, named in the legend; the shares in the bots table)."""
    if not rows:
        return '<p class="none">No crawler request.</p>'
    label_width, chart_width, row_height = 165, 405, 24
    parts = []
    for row, (token, counts, total) in enumerate(rows):
        top = row * row_height + 4
        parts.append(f'<text x="0" y="{top + 13}">{_text(token[:20])}</text>')
        x = float(label_width)
        for answer in VERIFICATIONS:
            value = _number(counts.get(answer))
            if not value or not total:
                continue
            width = chart_width * value / total
            parts.append(f'<rect x="{x:.1f}" y="{top}" width="{width:.1f}" height="16" '
                         f'fill="{VERIFICATION_FILL[answer]}" stroke="#333" stroke-width="0.5">'
                         f"<title>{_text(token)}: {VERIFICATION_WORDS[answer]} "
                         f"{_share(value, total)}</title></rect>")
            x += width
        verified = _share(counts.get("verified"), total)
        parts.append(f'<text x="{label_width + chart_width + 6}" y="{top + 13}">'
                     f"{verified} verified</text>")
    chart = _svg(label_width + chart_width + 110, row_height * len(rows) + 6,
                 "Share of requests verified for each crawler", "".join(parts))
    legend = "".join(
        f'<span><svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">'
        f'<rect width="14" height="14" fill="{VERIFICATION_FILL[answer]}" stroke="#333"/></svg>'
        f" {VERIFICATION_WORDS[answer]}</span>" for answer in VERIFICATIONS)
    return f'{chart}<div class="legend">{legend}</div>'


# ------------------------------------------------------------------------- the report

def _bots(summary: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [bot for bot in _list(summary.get("bots")) if isinstance(bot, Mapping)]


def _bot_rows(bots: list[Mapping[str, Any]]) -> Iterable[list[_Cell]]:
    for bot, verdicts, verification in _counted(bots):
        requests = bot.get("requests")
        robots = _mapping(bot.get("robots_txt"))
        delay = _mapping(bot.get("crawl_delay"))
        kept = delay.get("kept")
        delay_text = ("kept" if kept is True else "NOT kept" if kept is False else
                      "not judged" if delay.get("reads") != "no" else "does not read it")
        verified = _number(verification.get("verified"))
        total = _number(requests)
        yield [
            _Cell(f"<code>{_text(bot.get('token'))}</code>"),
            _Cell(_text(bot.get("operator") or "")),
            _Cell(_text(bot.get("category") or "")),
            _num(requests),
            _num(verified / total if total else 0, _share(verified, total)),
            _num(verification.get("not-verified")),
            _num(verdicts.get("violation")),
            _num(verdicts.get("caching-allowance")),
            _num(robots.get("count"), _count(robots.get("count")) if robots.get("fetched")
                 else "never"),
            _Cell(_text(delay_text)),
            _num(bot.get("bytes"), _bytes(bot.get("bytes"))),
        ]


def _violation_rows(bots: list[Mapping[str, Any]]) -> Iterable[list[_Cell]]:
    for bot in bots:
        for entry in _list(bot.get("violations")):
            if not isinstance(entry, Mapping):
                continue
            examples = "".join(
                f"<li>{_text(example.get('time'))} <code>{_text(example.get('url'))}</code></li>"
                for example in _list(entry.get("examples"))[:5] if isinstance(example, Mapping))
            status = entry.get("status")
            yield [
                _Cell(f"<code>{_text(bot.get('token'))}</code>"),
                _Cell("violation" if status == "violation" else
                      "within the caching allowance" if status == "caching-allowance"
                      else _text(status)),
                _Cell(f"line {_text(entry.get('line'))}: <code>{_text(entry.get('rule'))}</code>"
                      if entry.get("line") is not None else "-"),
                _num(entry.get("count")),
                _Cell(f"<ul>{examples}</ul>" if examples else "-"),
            ]


def _counted(value: Any) -> Iterable[tuple[Mapping[str, Any], Mapping[str, Any],
                                            Mapping[str, Any]]]:
    """(entry, its verdicts, its verification answers) for each entry of a summary's list."""
    for entry in _list(value):
        if isinstance(entry, Mapping):
            yield entry, _mapping(entry.get("verdicts")), _mapping(entry.get("verification"))


def _category_rows(summary: Mapping[str, Any]) -> Iterable[list[_Cell]]:
    for category, verdicts, verification in _counted(summary.get("categories")):
        requests = category.get("requests")
        yield [_Cell(_text(category.get("category"))), _num(category.get("bots")),
               _num(requests),
               _num(_number(verification.get("verified")) / (_number(requests) or 1),
                    _share(verification.get("verified"), requests)),
               _num(verdicts.get("violation")), _num(verdicts.get("caching-allowance")),
               _num(category.get("bytes"), _bytes(category.get("bytes")))]


def _day_rows(summary: Mapping[str, Any]) -> Iterable[list[_Cell]]:
    for day, verdicts, verification in _counted(summary.get("days")):
        yield [_Cell(_text(day.get("day"))), _num(day.get("requests")),
               _num(verification.get("verified")), _num(verification.get("not-verified")),
               _num(verdicts.get("violation")), _num(verdicts.get("caching-allowance")),
               _num(day.get("robots_fetches"))]


def _problem_rows(summary: Mapping[str, Any]) -> Iterable[list[_Cell]]:
    sections = (("log", _mapping(_mapping(summary.get("input")).get("problems"))),
                ("robots.txt history", _mapping(_mapping(summary.get("robots")).get("findings"))))
    for where, problems in sections:
        for kind, found in sorted(problems.items(), key=lambda item: str(item[0])):
            found = _mapping(found)
            examples = "".join(f"<li><code>{_text(example)}</code></li>"
                               for example in _list(found.get("examples"))[:5])
            yield [_Cell(where), _Cell(_text(kind)), _num(found.get("count")),
                   _Cell(f"<ul>{examples}</ul>" if examples else "-")]


def _cards(summary: Mapping[str, Any]) -> str:
    totals = _mapping(summary.get("totals"))
    fetches = _mapping(summary.get("robots_fetches"))
    cards = [("crawler requests", _count(totals.get("requests")), False),
             ("crawlers", _count(totals.get("bots")), False),
             ("violations", _count(totals.get("violations")),
              _number(totals.get("violations")) > 0),
             ("within the caching allowance", _count(totals.get("caching_allowance")), False),
             ("disallowed only in RFC 9309's reading", _count(totals.get("rfc_only")), False),
             ("robots.txt fetches", _count(fetches.get("count", totals.get("robots_fetches"))),
              False),
             ("other requests (browsers…)", _count(totals.get("other_requests")), False)]
    return '<div class="cards">' + "".join(
        f'<div class="card{" bad" if bad else ""}"><b>{value}</b>{name}</div>'
        for name, value, bad in cards) + "</div>"


def _versions(summary: Mapping[str, Any]) -> str:
    robots = _mapping(summary.get("robots"))
    versions = [v for v in _list(robots.get("versions")) if isinstance(v, Mapping)]
    if not versions:
        return '<p class="none">No robots.txt version known.</p>'
    items = "".join(
        f"<li>{_text(v.get('since') or 'always')}: <code>{_text(v.get('source'))}</code></li>"
        for v in versions[:50])
    more = f"<li>… and {len(versions) - 50:,} more</li>" if len(versions) > 50 else ""
    return f"<ul>{items}{more}</ul>"


def render_report(summary: Mapping[str, Any], *, title: str = "Who crawls me, and did they obey?"
                  ) -> str:
    """The HTML report (one standalone UTF-8 page) of an audit's ``summary``.

    ``summary`` is the JSON-able dict of ``robotsrules.audit_logs`` (schema
    ``robotsrules-log-audit/1``); a field it lacks shows as empty, never as an error.
    Every string in it is escaped; see the module docstring.
    """
    bots = _bots(summary)
    days = sorted({str(day.get("day")) for bot in bots for day in _list(bot.get("days"))
                   if isinstance(day, Mapping) and day.get("day") is not None})
    top = bots[:TOP_BOTS]
    per_day = [(str(bot.get("token")), {str(day.get("day")): _number(day.get("requests"))
                                        for day in _list(bot.get("days"))
                                        if isinstance(day, Mapping)}) for bot in top]
    bad = [(str(bot.get("token")), _number(_mapping(bot.get("verdicts")).get("violation")),
            _number(_mapping(bot.get("verdicts")).get("caching-allowance"))) for bot in bots]
    bad = sorted((row for row in bad if row[1] or row[2]), key=lambda row: -row[1] - row[2])
    shares = [(str(bot.get("token")), _mapping(bot.get("verification")),
               _number(bot.get("requests"))) for bot in top]
    other = _mapping(summary.get("other_bots"))
    window = _number(summary.get("window_hours"))
    meta = (f"Site <code>{_text(summary.get('site'))}</code>"
            f"{f' · {_text(days[0])} to {_text(days[-1])} (UTC)' if days else ''}"
            f" · caching window {_count(window)} h (RFC 9309 of September 2022, §2.4)"
            f" · addresses checked: {_text(summary.get('verification') or 'unknown')}"
            f" · engine {_text(summary.get('engine') or 'unknown')}")
    provenance = _mapping(summary.get("provenance"))
    made = " · ".join(f"{_text(key)} {_text(value)}" for key, value in
                      list(provenance.items())[:8])
    more_bots = (f"<p>{_count(other.get('bots'))} more crawlers with "
                 f"{_count(other.get('requests'))} requests are left out of this report.</p>"
                 if _number(other.get("bots")) else "")
    sections = [
        f"<h1>{_text(title)}</h1>", f'<p class="meta">{meta}</p>', _cards(summary),
        "<h2>Requests per day, by crawler</h2>",
        f"<p>The {len(top)} crawlers with most requests; every crawler is in the table "
        "below. Each row has its own scale (its busiest day is written at its end).</p>",
        _day_chart(per_day, days),
        "<h2>Did they obey?</h2>",
        "<p>A <strong>violation</strong> is a request for a URL that every robots.txt in "
        "force during the caching window before it disallowed. A request disallowed only by "
        "a file younger than the window is counted apart, <strong>within the caching "
        "allowance</strong>: a crawler may use a copy up to 24 hours old (RFC 9309 of "
        "September 2022, §2.4). A request allowed as Google's library reads the file but "
        "disallowed as RFC 9309 (§2.2.2) reads it (a percent-encoded rule such as "
        "<code>/%7Ejoe</code> against <code>/~joe</code>) is counted apart too, "
        "<strong>disallowed only in RFC 9309's reading</strong>: never a violation.</p>",
        _bar_chart(bad[:TOP_BOTS], "Violations and requests within the caching allowance, "
                                   "per crawler"),
        "<h2>Are they who they claim?</h2>",
        "<p>Whether the address of each request belongs to the operator the user agent names "
        "(its published address ranges, or reverse DNS when asked).</p>",
        _share_chart(shares),
        "<h2>Crawlers</h2>",
        _table("Crawlers", [("Crawler", False), ("Operator", False), ("Category", False),
                            ("Requests", True), ("Verified", True), ("Not verified", True),
                            ("Violations", True), ("Caching allowance", True),
                            ("robots.txt fetches", True), ("Crawl-delay", False),
                            ("Bytes", True)],
               _bot_rows(bots), "No crawler found in the log."),
        more_bots,
        "<h2>Violations, with the deciding line</h2>",
        _table("Violations", [("Crawler", False), ("Kind", False), ("Deciding line", False),
                              ("Requests", True), ("Examples (UTC)", False)],
               _violation_rows(bots), "No violation found."),
        "<h2>By category</h2>",
        _table("Categories", [("Category", False), ("Crawlers", True), ("Requests", True),
                              ("Verified", True), ("Violations", True),
                              ("Caching allowance", True), ("Bytes", True)],
               _category_rows(summary), "No crawler found."),
        "<h2>By day</h2>",
        _table("Days", [("Day (UTC)", False), ("Requests", True), ("Verified", True),
                        ("Not verified", True), ("Violations", True),
                        ("Caching allowance", True), ("robots.txt fetches", True)],
               _day_rows(summary), "No day."),
        "<h2>The robots.txt versions judged against</h2>", _versions(summary),
        "<h2>What could not be read</h2>",
        _table("Problems", [("Where", False), ("Kind", False), ("Count", True),
                            ("Examples", False)],
               _problem_rows(summary), "Every line was read."),
        f'<p class="meta">Made by {made or "robotsrules"}.</p>',
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_text(title)}</title><style>{_STYLE}</style></head><body>"
            '<svg class="defs" width="0" height="0" aria-hidden="true">' + _DEFS + "</svg>"
            + "\n".join(sections)
            + f"<script>{_SCRIPT}</script></body></html>\n")
