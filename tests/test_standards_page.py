"""docs/reference/standards.md says what the data files say: the vocabulary revisions with
their dates, labels and nesting, the current reading, the extensions, the registry version."""

from __future__ import annotations

import re
from pathlib import Path

from robotsrules._tables._crawlers import registry_info
from robotsrules._tables._extensions import extensions
from robotsrules._tables._purposes import purpose_group_draft, revision, revisions

PAGE = (Path(__file__).resolve().parent.parent / "docs" / "reference" /
        "standards.md").read_text(encoding="utf-8")


def test_current_reading_is_named_with_its_date() -> None:
    current = revision()
    assert f"**-{current.revision}, {current.date}**" in PAGE


def test_every_revision_row_matches_the_data() -> None:
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| -(\d\d) \| .*$", PAGE, re.M)}
    assert set(rows) == {r.revision for r in revisions()}
    for reading in revisions():
        cells = [c.strip() for c in rows[reading.revision].strip("|").split("|")]
        assert cells[1] == reading.date
        assert cells[2] == ", ".join(f"`{label}`" for label in reading.labels)
        nesting = "; ".join(f"`{c}`: `{p}`" for c, p in reading.broader.items()) or "none"
        assert cells[3] == nesting
        for signal in reading.signals:
            assert signal in cells[4]
        assert ("ai-input" in cells[4]) is ("ai-input" in reading.signals)


def test_every_extension_is_listed() -> None:
    for extension in extensions():
        row = f"| `{extension.name}` | {extension.by} | {extension.scope} | {extension.status} |"
        assert row in PAGE, extension.key


def test_registry_version_and_date() -> None:
    info = registry_info()
    assert f"version {info['version']}, compiled {info['compiled']}" in PAGE


def test_the_purpose_group_draft_is_listed_with_what_was_read() -> None:
    draft = purpose_group_draft()
    assert f"| **-{draft.revision}, {draft.date}** |" in PAGE
    assert draft.url in PAGE and draft.document in PAGE
    assert (draft.read == "abstract") is ("**abstract only read**" in PAGE)
    assert (not draft.tokens) is ("none is recorded" in PAGE)


def test_web_bot_auth_revisions_and_values_match_the_data() -> None:
    from robotsrules._identity._webbotauth import standard

    table = standard()
    assert f"version {table.version}, compiled\n{table.compiled}" in PAGE
    for value in (table.request_tag, table.directory_tag, table.media_type,
                  table.well_known_path, f"{table.max_validity_seconds} seconds"):
        assert f"{value}" in PAGE, value
    for reading in table.revisions:
        row = (f"| [{reading.name}]({reading.source}) | {reading.revision} | {reading.date} "
               f"| {reading.read} | {reading.takes} |")
        assert row in PAGE, reading.revision
