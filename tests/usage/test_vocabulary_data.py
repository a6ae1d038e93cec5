"""The vocabularies are data (src/robotsrules/data/vocabularies.json): the generated names
of robotsrules._tables._purposes match it, the table is checked when read, and a damaged table is a
clear RobotsError, never a traceback of another kind."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any, get_args

import pytest

import robotsrules
from robotsrules import RobotsError
from robotsrules._tables import _purposes as purposes
from tests.scripts_loader import load_script

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "robotsrules" / "data" / "vocabularies.json"


def _script() -> ModuleType:
    return load_script("vocabularies")


def _data() -> dict[str, Any]:
    return json.loads(DATA.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_generated_names_are_current() -> None:
    script = _script()
    text = (ROOT / "src" / "robotsrules" / "_tables" / "_purposes.py").read_text(encoding="utf-8")
    assert script.updated(text, _data()) == text, "run python scripts/vocabularies.py"
    assert script.main(["--check"]) == 0


def test_a_data_change_shows_as_drift() -> None:
    # The check can fail: a label added to the current revision changes the Literal.
    script = _script()
    data = _data()
    current = next(r for r in data["aipref"]["revisions"]
                   if r["revision"] == data["aipref"]["current"])
    current["labels"]["ai-input"] = "AI Input"
    text = (ROOT / "src" / "robotsrules" / "_tables" / "_purposes.py").read_text(encoding="utf-8")
    changed = script.updated(text, data)
    assert changed != text
    assert '"train-ai", "search", "ai-input"' in changed


def test_literals_match_the_data() -> None:
    data = _data()
    aipref = data["aipref"]
    read = [r for r in aipref["revisions"] if r["labels"] is not None]
    labels = {label for r in read for label in r["labels"]}
    assert set(get_args(purposes.Category)) == labels == set(purposes.CATEGORIES)
    assert get_args(purposes.Signal) == tuple(data["content_signals"]["signals"])
    assert set(get_args(purposes.Purpose)) == set(purposes.PURPOSES)
    current = next(r for r in read if r["revision"] == aipref["current"])
    assert tuple(current["labels"]) == purposes.CURRENT_CATEGORIES
    assert purposes.AIPREF_REVISION == aipref["current"] == purposes.revision().revision


def test_revisions_are_dated_and_sourced() -> None:
    for row in _data()["aipref"]["revisions"]:
        assert len(row["date"]) == 10 and row["date"][4] == "-", row
        assert row["note"], row
        if row["labels"] is not None:
            assert row["commit"] and len(row["commit"]) == 40, row
    assert [r.revision for r in purposes.revisions()] == ["02", "03", "04", "05", "06", "07"]
    # -08 is recorded with what was read of it and both of its dates, and no reading
    eight = next(r for r in _data()["aipref"]["revisions"] if r["revision"] == "08")
    assert eight["labels"] is eight["broader"] is eight["signals"] is None
    assert eight["date"] == "2026-09-14" and "13 September 2026" in eight["date_note"]
    assert eight["read"].startswith("First page only") and "DO NOT REFLECT CONSENSUS" in eight["read"]
    assert "not followed" in eight["reported"]
    assert purposes.revision("07").date == "2026-08-19"
    assert purposes.revision("05").date == "2025-12-01"
    assert set(purposes.revision("05").labels) == set(purposes.revision("07").labels)


@pytest.mark.parametrize("mutate, problem", [
    (lambda d: d.pop("aipref"), "no aipref.revisions list"),
    (lambda d: d["aipref"]["revisions"][0].pop("revision"), "has no 'revision'"),
    (lambda d: d["aipref"]["revisions"][0].__setitem__("labels", ["bots"]),
     "is not a mapping"),
    (lambda d: d["aipref"]["revisions"][0]["broader"].__setitem__("x", "all"),
     "names an undefined label"),
    (lambda d: d["aipref"]["revisions"][0]["broader"].__setitem__("all", "train-ai"),
     "has a cycle"),
    (lambda d: d["aipref"]["revisions"][0]["signals"].__setitem__("ai-foo", "all"),
     "signal mapping"),
    (lambda d: d["aipref"].__setitem__("current", "08"), "is not one that was read"),
])
def test_damaged_table_is_a_clear_error(mutate: Any, problem: str) -> None:
    data = _data()
    mutate(data)
    with pytest.raises(RobotsError, match=problem):
        purposes.load_vocabulary(json.dumps(data))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", "[" * 100000, " " * (2 << 20)])
def test_hostile_text_is_a_clear_error(text: str) -> None:
    with pytest.raises(RobotsError, match=r"vocabularies\.json"):
        purposes.load_vocabulary(text)


def test_usage_reports_superseded_labels_and_reads_revisions() -> None:
    robots = robotsrules.parse(b"User-agent: *\nContent-Usage: / bots=n, search=y\n")
    usage = robots.usage("/", agent="a")
    assert usage.superseded == {"bots": "draft-ietf-aipref-vocab-03 to -04"}
    assert usage.allows("bots") is False and usage.allows("train-ai") is None
    assert usage.allows("train-ai", revision="03") is False
    assert usage.allows("search", revision="draft-ietf-aipref-vocab-03") is True
    assert [u.line for u in usage.deciding("train-ai")] == []
    assert [u.line for u in usage.deciding("train-ai", "03")] == [2]
    with pytest.raises(robotsrules.InvalidArgument, match=r"vocab-08 \(2026-09-14\): its text"):
        usage.allows("train-ai", revision="08")
    with pytest.raises(robotsrules.InvalidArgument, match="not read in full"):
        usage.deciding("train-ai", "draft-ietf-aipref-vocab-08")
    with pytest.raises(robotsrules.InvalidArgument, match="revision '09'; known: 02, "):
        usage.allows("train-ai", revision="09")
    assert robots.usage("/", agent="a").preferences == {"search": True, "bots": False}


def test_a_read_08_made_current_would_show_as_drift() -> None:
    # When -08's text is read: its labels go into its row, 'current' points at it, and the
    # generated names change until scripts/vocabularies.py is run (the drift this test sees).
    script = _script()
    data = _data()
    eight = next(r for r in data["aipref"]["revisions"] if r["revision"] == "08")
    eight.update(labels={"train-ai": "AI Training", "ai-use": "AI Use", "search": "Search"},
                 broader={}, signals={"search": "search", "ai-train": "train-ai"},
                 commit="0" * 40)
    data["aipref"]["current"] = "08"
    text = (ROOT / "src" / "robotsrules" / "_tables" / "_purposes.py").read_text(encoding="utf-8")
    changed = script.updated(text, data)
    assert 'AIPREF_REVISION: Final = "08"' in changed
    assert '("train-ai", "ai-use", "search")' in changed
    assert purposes.load_vocabulary(json.dumps(data)).current == "08"


# --- draft-kelley-aipref-training-preference-signal (issue 35 §1) ---

def test_purpose_group_draft_is_recorded_with_revision_date_and_how_much_was_read() -> None:
    # Only the first page of -00 (2026-10-30) could be read: the table records the draft,
    # says so, and records no token (nothing is guessed).
    block = _data()["training_preference_signal"]
    draft = purposes.purpose_group_draft()
    assert draft.name == purposes.PURPOSE_GROUP_DRAFT == (
        "draft-kelley-aipref-training-preference-signal-00")
    assert (draft.revision, draft.date, draft.read) == ("00", "2026-10-30", "abstract")
    assert draft.url == block["url"] == (
        "https://www.ietf.org/archive/id/draft-kelley-aipref-training-preference-signal-00.html")
    assert "not read" in block["read_note"] and block["google"]["date"] == "2026-10-30"
    assert dict(draft.tokens) == block["tokens"] == {}
    assert purposes.PURPOSE_GROUP_TOKENS == tuple(sorted(draft.tokens)) == ()
    info = purposes.vocabulary_info()
    assert info["purpose_groups"] == draft.name and info["purpose_groups_tokens"] == "none"


def test_purpose_group_tokens_show_as_drift() -> None:
    # The day the draft's tokens are read and entered, the generated tuple must follow.
    script = _script()
    data = _data()
    data["training_preference_signal"]["tokens"]["example-token"] = "train-ai"
    text = (ROOT / "src" / "robotsrules" / "_tables" / "_purposes.py").read_text(encoding="utf-8")
    changed = script.updated(text, data)
    assert changed != text
    assert 'PURPOSE_GROUP_TOKENS: Final[tuple[str, ...]] = ("example-token")' in changed
    read = purposes.load_vocabulary(json.dumps(data)).purpose_groups
    assert dict(read.tokens) == {"example-token": "train-ai"}


@pytest.mark.parametrize("mutate, problem", [
    (lambda d: d.pop("training_preference_signal"), "no training_preference_signal block"),
    (lambda d: d["training_preference_signal"].pop("revision"), "has no 'revision'"),
    (lambda d: d["training_preference_signal"].__setitem__("date", "30 Oct 2026"),
     "is not YYYY-MM-DD"),
    (lambda d: d["training_preference_signal"].__setitem__("tokens", ["x"]),
     "is not a mapping"),
    (lambda d: d["training_preference_signal"]["tokens"].__setitem__("*", "train-ai"),
     "is not a lower-case"),
    (lambda d: d["training_preference_signal"]["tokens"].__setitem__("Bot2000", "train-ai"),
     "is not a lower-case"),
    (lambda d: d["training_preference_signal"]["tokens"].__setitem__("x-train", "training"),
     "unknown purpose"),
])
def test_damaged_purpose_group_block_is_a_clear_error(mutate: Any, problem: str) -> None:
    data = _data()
    mutate(data)
    with pytest.raises(RobotsError, match=problem):
        purposes.load_vocabulary(json.dumps(data))


def test_provenance_records_the_purpose_group_draft() -> None:
    from robotsrules._tables._provenance import metadata, version_text

    data = metadata()
    assert data["robotsrules.purpose_groups_draft"] == purposes.PURPOSE_GROUP_DRAFT
    assert data["robotsrules.purpose_groups_draft_date"] == "2026-10-30"
    assert data["robotsrules.purpose_groups_read"] == "abstract"
    assert data["robotsrules.purpose_groups_tokens"] == "none"
    assert ("purpose groups: draft-kelley-aipref-training-preference-signal-00, 2026-10-30, "
            "read: abstract, tokens: none") in version_text()
