"""The lint code table: every code, its severity, summary and hint (one table that the
documentation, the SARIF output and the tests read), and the diagnostic record."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal, NamedTuple

__all__ = ["CODES", "FETCH_CODES", "MAX_PER_CODE", "PURPOSE_GROUP_CODES", "SEVERITIES", "Code",
           "Diagnostic", "Severity", "counts", "cut_counts", "cut_message", "diagnostic",
           "help_text"]

Severity = Literal["error", "warning", "info"]
"""How much a diagnostic matters (see :data:`SEVERITIES`)."""

SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
"""Severities, most severe first.

``error``: the file does not do what its text says for Google and RFC 9309 readers (a line
or rule is ignored or can never match). ``warning``: read leniently, read differently by
other parsers, or very likely a mistake. ``info``: harmless, worth knowing.
"""


class Code(NamedTuple):
    """One row of :data:`CODES`."""

    name: str
    """Kebab-case name, stable like the code."""
    severity: Severity
    """``"error"``, ``"warning"`` or ``"info"``."""
    summary: str
    """One sentence: what the code means (documentation, SARIF ``shortDescription``)."""
    hint: str
    """How to fix it; ``{field}`` placeholders are filled per diagnostic."""


class Diagnostic(NamedTuple):
    """One finding of :func:`lint`. Frozen, picklable, sortable by position."""

    code: str
    """Stable code, a key of :data:`CODES` (e.g. ``"R101"``)."""
    name: str
    """Kebab-case name of the code (e.g. ``"missing-colon"``)."""
    severity: Severity
    """``"error"``, ``"warning"`` or ``"info"`` (see :data:`SEVERITIES`)."""
    line: int
    """1-based physical line number."""
    column: int
    """1-based column, in code points of the line decoded as UTF-8."""
    message: str
    """What is wrong, quoting the text."""
    hint: str
    """How to fix it."""

    def __str__(self) -> str:
        return (f"{self.line}:{self.column}: {self.severity} {self.code} {self.name}: "
                f"{self.message} ({self.hint})")


# The code table: code -> (name, severity, summary, hint template). R0xx: the file;
# R1xx: lines; R2xx: groups and user-agents; R3xx: allow/disallow rules; R4xx: extras
# (sitemap, crawl-delay, request-rate, host); R5xx: differences between reading modes;
# R6xx: AI usage preferences; R7xx: RSL licences (the `License` line and its document).
CODES: dict[str, Code] = {
    "R001": Code(
        "utf8-bom", "warning",
        "The file starts with a UTF-8 byte-order mark: Google skips it, older parsers read "
        "it as part of the first key.",
        "save the file as UTF-8 without a byte-order mark",
    ),
    "R002": Code(
        "non-utf8", "warning",
        "The file has bytes that are not UTF-8: RFC 9309 expects UTF-8, Google matches the "
        "raw octets, other parsers may decode them differently.",
        "save the file as UTF-8, or percent-encode those octets in paths (e.g. `{escaped}`)",
    ),
    "R003": Code(
        "over-size-limit", "error",
        "Content past the size limit (500 KiB, the part Google reads) is ignored.",
        "keep the file under {limit} bytes: put the important rules first and merge rules "
        "with `*` patterns",
    ),
    "R004": Code(
        "html-content", "error",
        "The file looks like an HTML page, not a robots.txt: crawlers use only the lines "
        "that happen to be valid.",
        "serve a plain-text robots.txt (Content-Type: text/plain), or answer 404 if the "
        "site has none",
    ),
    "R005": Code(
        "no-groups", "info",
        "The file has no user-agent line, so it restricts no crawler.",
        "start the rules with `User-agent: *` if the file is meant to restrict crawlers",
    ),
    "R006": Code(
        "utf16-encoding", "error",
        "The file is UTF-16: robots.txt is UTF-8 (RFC 9309 §2.3), and a byte-by-byte reader "
        "such as Google's sees a NUL after every character and finds no valid line.",
        "save the file as UTF-8",
    ),
    "R007": Code(
        "findings-cut", "info",
        "One code found more often than lint lists (100 of each code): the rest are counted, "
        "not listed, so that lint's memory stays bounded whatever the file holds (a file of "
        "`y` lines would otherwise give one finding per line).",
        "fix the listed lines first: the {count} others say the same ({which})",
    ),
    "R101": Code(
        "missing-colon", "warning",
        "A key without a colon (`Disallow /x`): Google reads it, RFC 9309 parsers ignore "
        "the line.",
        "write `{fix}`",
    ),
    "R102": Code(
        "key-typo", "warning",
        "A misspelt key (`Disalow`) that Google accepts and other parsers ignore.",
        "write `{fix}`",
    ),
    "R103": Code(
        "key-prefix", "warning",
        "A key read by its prefix (`Disallowed:` is a disallow): Google only.",
        "write `{fix}`",
    ),
    "R104": Code(
        "unknown-key", "warning",
        "A key that no crawler this library knows of reads: the line is ignored.",
        "remove the line or correct its key{suggestion}",
    ),
    "R105": Code(
        "other-crawler-key", "info",
        "A recognised robots.txt extension that other readers know (Yandex's `Clean-param`, "
        "RSL's `License`, `LLM-Policy`, `Visit-time`, ...: data/extensions.json); Google and "
        "RFC 9309 ignore it.",
        "keep it for its readers ({crawler}); other crawlers ignore it",
    ),
    "R106": Code(
        "invalid-line", "warning",
        "A line that is neither `key: value`, a comment nor blank: it is ignored.",
        "write `key: value`, or start the line with `#` to make it a comment",
    ),
    "R107": Code(
        "line-too-long", "error",
        "A line longer than 16,663 bytes: Google reads only its first 16,663 bytes.",
        "split the rule into shorter ones (a `*` can stand for a long middle part)",
    ),
    "R108": Code(
        "nul-byte", "error",
        "A NUL byte ends the line early (Google reads lines as C strings).",
        "remove the NUL byte",
    ),
    "R109": Code(
        "extension-invalid-value", "warning",
        "A recognised extension whose value does not have the format its definition gives "
        "(`LLM-Policy` without an absolute URL, `Visit-time` not `HHMM-HHMM`, a `Host` that "
        "is no host name, ...): its readers may ignore the line. robotsrules hands the value "
        "on as written.",
        "write it as {form}",
    ),
    "R110": Code(
        "extension-no-effect", "warning",
        "A recognised extension that no longer does what it was written for: `Noindex` "
        "(Google stopped reading it in 2019), `Host` (Yandex no longer reads it), the "
        "withdrawn `Signature-Agent`/`Max-Crawl-Rate` proposal.",
        "{instead}",
    ),
    "R201": Code(
        "rule-outside-group", "error",
        "An allow/disallow rule before any user-agent line is ignored (RFC 9309 §2.2.2).",
        "put a `User-agent:` line (e.g. `User-agent: *`) before line {line}",
    ),
    "R202": Code(
        "empty-user-agent", "warning",
        "A user-agent line with no value names no crawler.",
        "write the crawler's product token, or `*` for every crawler",
    ),
    "R203": Code(
        "agent-truncated", "warning",
        "A user-agent value that Google cuts at its first character outside letters, `-` "
        "and `_` (`MJ12bot` is read as `mj`), so it names another crawler.",
        "name the crawler by its product token (letters, `-` and `_` only, RFC 9309 "
        "§2.2.1); parsers read this line as `User-agent: {token}`",
    ),
    "R204": Code(
        "agent-suffix-ignored", "info",
        "A user-agent value with a version or `*` after the product token "
        "(`Googlebot/2.1`): the suffix is ignored.",
        "write `User-agent: {token}`",
    ),
    "R205": Code(
        "agent-names-nobody", "error",
        "A user-agent value that names no crawler (`*bot`, `360Spider`): it does not start "
        "with a product token and is not `*` alone.",
        "{advice}",
    ),
    "R206": Code(
        "agent-in-several-groups", "info",
        "An agent named by several groups: the groups are merged (RFC 9309 §2.2.1).",
        "merge the groups for `{token}` into one to keep the file readable",
    ),
    "R207": Code(
        "group-joined", "warning",
        "A non-rule line between two user-agent lines (`User-agent: a` / `Crawl-delay: 1` / "
        "`User-agent: b`) does not end the group: both agents get the rules that follow "
        "(Google's grouping). A `Crawl-delay` or `Request-rate` there is still read for the "
        "user-agent lines above it only (per agent, as the crawlers that honour it read it).",
        "give line {first}'s agents their own allow/disallow rule before line {joiner}, or "
        "move line {joiner} below the group's rules",
    ),
    "R208": Code(
        "blank-line-joins-groups", "warning",
        "User-agent lines separated only by blank lines form one group for Google and RFC "
        "9309, but two records for 1994/1996-era parsers.",
        "remove the blank lines between lines {first} and {line}, or give line {first}'s "
        "agents rules of their own",
    ),
    "R209": Code(
        "group-without-rules", "warning",
        "A group with no allow/disallow rule: the agents it names may fetch everything and "
        "ignore the `*` rules.",
        "copy the `*` rules the agent should obey into its group (an empty `Disallow:` "
        "says 'everything allowed' explicitly)",
    ),
    "R210": Code(
        "catch-all-blocks-retrieval", "warning",
        "Training crawlers are blocked by name and the `*` group disallows every path: search "
        "and AI retrieval crawlers that no group names are turned away too (judged with the "
        "crawler registry, data/crawlers.json).",
        "name the welcome crawlers in groups of their own (`User-agent: Googlebot` / "
        "`Allow: /`), or disallow the training crawlers by name instead of `*`",
    ),
    "R211": Code(
        "control-token-crawl-delay", "warning",
        "A `Crawl-delay` or `Request-rate` in the group of a usage-control token "
        "(`Google-Extended`, `Applebot-Extended`): no request carries the token, so the value "
        "does nothing.",
        "give the value to the crawler's own token (e.g. `Googlebot`), or remove it",
    ),
    "R212": Code(
        "control-token-shares-group", "warning",
        "A usage-control token in one group with a crawler's own token: the group's disallow "
        "rules stop that crawler's fetching too, not only the use of its data.",
        "give the control token a group of its own",
    ),
    "R213": Code(
        "group-cannot-stop-agent", "warning",
        "A group that disallows paths names an agent whose operator states robots.txt does not "
        "bind it (`ChatGPT-User`, `Perplexity-User`, `Google-Agent`: user-triggered fetchers); "
        "the rules may not keep it out.",
        "block it at the server (by its published IP ranges or signed requests) if it must be "
        "kept out",
    ),
    "R301": Code(
        "path-not-slash", "error",
        "A pattern that starts with neither `/` nor `*` never matches: URL paths start "
        "with `/`.",
        "write `{fix}`",
    ),
    "R302": Code(
        "duplicate-rule", "warning",
        "A rule that repeats another rule of the same type for the same agent (the same "
        "pattern, or one matching exactly the same URLs): it never decides.",
        "remove line {line}",
    ),
    "R303": Code(
        "allow-disallow-same-pattern", "warning",
        "The same pattern is both allowed and disallowed: allow wins the tie, so the "
        "disallow never decides.",
        "remove one of lines {line} and {other}: keep the `Allow` to allow these URLs, the "
        "`Disallow` to block them",
    ),
    "R304": Code(
        "shadowed-rule", "warning",
        "A rule that never decides: a rule of the other type matches exactly the same URLs "
        "and always outranks it (longer pattern, or allow on a tie).",
        "remove one of lines {line} and {other}; precedence is the pattern's length in "
        "bytes, `*` included",
    ),
    "R305": Code(
        "empty-rule", "info",
        "An empty `Allow:`, or an empty `Disallow:` next to other rules, has no effect.",
        "remove line {line}",
    ),
    "R306": Code(
        "dollar-only", "error",
        "`Disallow: $` (or `Allow: $`) matches only the empty path, which no URL has: it "
        "never matches.",
        "write `/$` to match the home page only, or remove the line",
    ),
    "R307": Code(
        "path-not-encoded", "warning",
        "A rule path holds characters that should be percent-encoded (outside US-ASCII, "
        "space, control characters; RFC 9309 §2.2.2): Google encodes only those outside "
        "US-ASCII itself, and other parsers may compare the raw text. The fix writes a "
        "`%` that starts no escape as `%25` (RFC 3986 §2.4); none is offered when the "
        "encoded line would pass the 16,663 octets Google's library reads of a line.",
        "{advice}",
    ),
    "R401": Code(
        "crawl-delay-invalid", "warning",
        "A `Crawl-delay` value that is not a non-negative number of seconds: ignored.",
        "write a number of seconds, e.g. `Crawl-delay: 10`",
    ),
    "R402": Code(
        "request-rate-invalid", "warning",
        "A `Request-rate` value that is not `requests/time[s|m|h|d]`: ignored.",
        "write requests per time, e.g. `Request-rate: 1/5s`",
    ),
    "R403": Code(
        "extra-outside-group", "warning",
        "A `Crawl-delay` or `Request-rate` before any user-agent line: robotsrules asks it of "
        "every crawler given no value of its own (as texting_robots does); most other "
        "readers ignore it.",
        "move line {line} below `User-agent: *` (or the user-agent lines it is meant for)",
    ),
    "R404": Code(
        "extra-duplicate", "warning",
        "Several `Crawl-delay` (or `Request-rate`) values for the same agent: robotsrules "
        "uses the slowest; other readers take the first or the last.",
        "keep one value per agent (line {first} has another)",
    ),
    "R405": Code(
        "empty-value", "warning",
        "A `Sitemap`, `Host` or `License` line with no value: ignored.",
        "write the value after the colon, or remove the line",
    ),
    "R406": Code(
        "sitemap-not-absolute", "warning",
        "A sitemap that is not an absolute URL (RFC 9309 §2.3.5 asks for a fully "
        "qualified URL).",
        "write the full URL, e.g. `Sitemap: {fix}`",
    ),
    "R407": Code(
        "extra-capped", "warning",
        "A `Crawl-delay` above 365 days (31,536,000 seconds; `1e309` and other numbers too "
        "large for a float included), or a `Request-rate` slower than one request in 365 days "
        "or above 10^9 requests: read as 365 days (`1/31536000`; 10^9 requests), not "
        "ignored, since the owner asked for a slow crawl. Other readers differ: some "
        "ignore such a value, some wait as written.",
        "write the delay you mean in seconds, e.g. `Crawl-delay: 3600`",
    ),
    "R501": Code(
        "mode-difference", "info",
        "A rule that means different things in google, rfc and legacy modes "
        "(`parse(..., mode=...)`): `*`/`$` wildcards, `%XX` escapes, Google's index.html "
        "rule, or first-match order.",
        "{advice}",
    ),
    "R601": Code(
        "usage-invalid-value", "warning",
        "A `Content-Usage` value that is not a path then a structured-field dictionary "
        "(RFC 9651: lower-case labels, `label=y`, `,` between entries), or a "
        "`Content-Signal` value with an empty entry: what cannot be read states nothing, "
        "except the refusals (`label=n`) of a `Content-Usage` value, which still count.",
        "{advice}",
    ),
    "R602": Code(
        "usage-unknown-name", "warning",
        "A usage-preference name that neither vocabulary defines (`ai_train`), or a key "
        "spelled other than `Content-Signal`/`Content-Usage` (`Content-Signals:`): readers "
        "ignore the name, and many the whole line.",
        "{advice}",
    ),
    "R603": Code(
        "usage-bad-value", "warning",
        "A preference value other than `yes`/`no` (`Content-Signal`) or the tokens `y`/`n` "
        "(`Content-Usage`): no preference is stated for that name.",
        "write `{fix}`",
    ),
    "R604": Code(
        "usage-outside-group", "warning",
        "A `Content-Signal` or `Content-Usage` line before any user-agent line: it belongs "
        "to no group, so robotsrules (and readers following draft-ietf-aipref-attach, which "
        "makes these rules part of a group) apply it to no crawler; others may read it as "
        "site-wide.",
        "move line {line} into the group it is meant for, e.g. under `User-agent: *`",
    ),
    "R605": Code(
        "usage-conflict", "warning",
        "One group states both yes and no for the same purpose (or one `Content-Usage` "
        "value repeats a label): the most restrictive value applies (for a repeated label, "
        "the last one, as RFC 9651 reads dictionaries, and nothing when it is not `y`/`n`).",
        "keep one value for `{name}` in this group",
    ),
    "R606": Code(
        "usage-no-effect", "warning",
        "A usage preference on a path the group's agents may not fetch: preferences apply "
        "only to what may be crawled (draft-ietf-aipref-attach), so it has no effect.",
        "remove line {line}, or allow the path if the preference is meant to apply",
    ),
    "R607": Code(
        "search-yes-disallowed", "warning",
        "`search=yes` for agents that are disallowed from `/`: they may not fetch anything "
        "to put in a search index.",
        "allow the paths meant for search, or drop `search=yes` from line {line}",
    ),
    "R608": Code(
        "usage-not-inherited", "warning",
        "Usage preferences stated in the `*` group only, while crawlers that may fetch "
        "have groups of their own: a crawler reads its own group alone (RFC 9309 §2.2.1), "
        "so none of these preferences applies to them.",
        "repeat the line in the groups of {agents}, or move those crawlers into the `*` group",
    ),
    "R609": Code(
        "usage-superseded-label", "warning",
        "A `Content-Usage` label that an earlier revision of draft-ietf-aipref-vocab defined "
        "and the current one does not (`bots`, `all`, `ai-use`, `train-genai`, `ai-output`): "
        "robotsrules reads it for itself, readers that follow the current revision ignore it.",
        "{advice}",
    ),
    # Purpose groups (draft-kelley-aipref-training-preference-signal-00, 2026-10-30; issue 35
    # §1): only for the tokens data/vocabularies.json records, none until the draft is read.
    "R610": Code(
        "purpose-group-allows-all", "info",
        "A group keyed by a purpose-group policy token (draft-kelley-aipref-training-"
        "preference-signal) whose rules only allow: it states its purpose permitted where "
        "they match and refuses it nowhere.",
        "add `Disallow:` lines for the paths where the purpose is refused, or remove the "
        "group if nothing is",
    ),
    "R611": Code(
        "purpose-group-disagrees", "warning",
        "A purpose group and a `Content-Usage`/`Content-Signal` line state different "
        "preferences for the same purpose on the same path: robotsrules applies the more "
        "restrictive one; a reader that knows only one of the two ways reads the other answer.",
        "state the preference one way, or make line {usage} and line {other} agree",
    ),
    "R701": Code(
        "license-not-absolute", "warning",
        "A `License` value that is not an absolute http(s) URL: RSL 1.0 (RSL-SPEC-1.0, "
        "2025-11-06) §4.4 asks for an absolute URI, so readers cannot fetch the licence; "
        "or one carrying credentials (`user:password@`), which readers would send and "
        "robotsrules refuses.",
        "write the licence document's full URL, e.g. `License: {fix}`",
    ),
    "R702": Code(
        "license-unreachable", "warning",
        "The licence document a `License` line names could not be fetched (`lint --fetch`): "
        "RSL readers treat the content as unlicensed (RSL 1.0 §4.3), robotsrules answers "
        "'unknown'.",
        "serve the RSL document at {url} (HTTP 200, `application/rsl+xml`) or correct the URL",
    ),
    "R703": Code(
        "license-invalid", "error",
        "The licence document is not a valid RSL 1.0 document (not XML, a DTD or entity "
        "declaration, no `<rsl>` root, an unknown RSL element, a `<content>` without `url`): "
        "its terms are unknown (`lint --fetch`).",
        "fix the document at {url}: {problem}",
    ),
    "R704": Code(
        "license-content-other-origin", "info",
        "A `<content url>` of the licence document names another origin than this "
        "robots.txt's: it is ignored for this site (`lint --fetch`).",
        "write the path (`{path}`) or a URL on {origin}",
    ),
    "R705": Code(
        "license-in-group", "info",
        "A `License` line inside a group: robotsrules reads it for every crawler (the "
        "directive is global, rslstandard.org's robots.txt guide), but a reader that scopes "
        "it to the group (RSL 1.0 §4.4.2's per-crawler example) gives crawlers with groups "
        "of their own no licence from it.",
        "so that every reader agrees, move line {line} above the first `User-agent` line",
    ),
}

FETCH_CODES: tuple[str, ...] = ("R702", "R703", "R704")
"""Codes that only ``robotsrules lint --fetch`` emits: they judge the licence documents a
file's ``License`` lines name, which :func:`lint` (no network) never fetches."""

PURPOSE_GROUP_CODES: tuple[str, ...] = ("R610", "R611")
"""Codes about purpose groups (draft-kelley-aipref-training-preference-signal-00,
2026-10-30): emitted only for the policy tokens ``data/vocabularies.json`` records, and it
records none until the draft's text defining them is read, so :func:`lint` does not emit
them yet."""


def diagnostic(code: str, line: int, column: int, message: str, escapes: dict[int, str],
               **fields: object) -> Diagnostic:
    """The :class:`Diagnostic` of ``code`` at ``line``:``column``: the hint's ``{field}``
    placeholders filled from ``fields`` (``line`` by default), and ``escapes`` (a
    :meth:`str.translate` table) applied to the message and hint, which quote content."""
    entry = CODES[code]
    fields.setdefault("line", line)
    return Diagnostic(code, entry.name, entry.severity, line, max(column, 1),
                      message.translate(escapes), entry.hint.format(**fields).translate(escapes))


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return f"<{key}>"


def help_text(code: str) -> str:
    """The hint of ``code`` with its placeholders shown as ``<field>`` (for documentation).

    >>> help_text("R101")
    'write `<fix>`'
    """
    return CODES[code].hint.format_map(_Blank())


MAX_PER_CODE = 100
"""The most diagnostics :func:`~robotsrules.linter.lint` lists for one code; past that, one
``R007`` diagnostic per code counts the others (:func:`cut_counts` reads them back)."""

_CUT = re.compile(r"(\d+) more `(R\d{3})` findings")


def cut_message(code: str, count: int, first: int, last: int) -> str:
    """The message of the ``R007`` diagnostic for ``count`` findings of ``code`` not listed
    (the first and last of their lines), which :func:`cut_counts` reads back."""
    return (f"{count} more `{code}` findings ({CODES[code].name}) between lines {first} and "
            f"{last} are not listed: lint lists {MAX_PER_CODE} of each code")


def cut_counts(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    """The findings not listed, per code, from the ``R007`` diagnostics (empty when every
    finding is listed).

    >>> message = cut_message("R106", 5, 9, 40)
    >>> cut_counts([diagnostic("R007", 9, 1, message, {}, which="R106", count=5)])
    {'R106': 5}
    """
    found: dict[str, int] = {}
    for diagnostic_ in diagnostics:
        if diagnostic_.code == "R007":
            match = _CUT.match(diagnostic_.message)
            if match is not None:
                found[match.group(2)] = found.get(match.group(2), 0) + int(match.group(1))
    return found


def counts(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    """Diagnostics per severity, every severity present (for summaries)."""
    totals: dict[str, int] = dict.fromkeys(SEVERITIES, 0)
    for diagnostic in diagnostics:
        totals[diagnostic.severity] = totals.get(diagnostic.severity, 0) + 1
    return totals
