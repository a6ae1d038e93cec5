"""The RSL data table (src/robotsrules/data/rsl.json): complete, consistent, and what the
docs say. A change of vocabulary is a change of the file and of these tests."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from robotsrules._rsl import STATUSES, USAGE_TOKENS, LicenseStatus, rsl_data, usage_token
from robotsrules._tables._purposes import PURPOSES

ROOT = Path(__file__).resolve().parents[2]


def test_the_source_is_dated_and_named() -> None:
    source = rsl_data()["source"]
    assert source["document"] == "RSL-SPEC-1.0" and source["published"] == "2025-11-06"
    assert source["status"] == "Recommendation"
    assert source["namespace"] == "https://rslstandard.org/rsl"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", rsl_data()["compiled"])


def test_usage_tokens_and_what_they_cover() -> None:
    usage = rsl_data()["usage"]
    assert USAGE_TOKENS == ("all", "ai-all", "ai-train", "ai-input", "ai-index", "search")
    for token, entry in usage.items():
        assert set(entry["covers"]) <= set(usage), token
        assert entry["section"] and entry["meaning"]
    assert set(usage["all"]["covers"]) == {"ai-all", "search"}


def test_every_library_purpose_has_an_rsl_token() -> None:
    purposes = rsl_data()["purposes"]
    assert set(purposes) == set(PURPOSES), "data/rsl.json and robotsrules._tables._purposes drifted"
    for name, entry in purposes.items():
        assert entry["token"] in USAGE_TOKENS and entry["why"], name
        assert usage_token(name) == entry["token"]


def test_aliases_point_at_tokens() -> None:
    for alias, entry in rsl_data()["aliases"].items():
        assert alias not in USAGE_TOKENS and entry["token"] in USAGE_TOKENS
        assert entry["why"].startswith("Leniency:")


def test_payment_types() -> None:
    types = rsl_data()["payment"]["types"]
    assert set(types) == {"purchase", "subscription", "training", "crawl", "use",
                          "contribution", "attribution", "free"}
    assert [name for name, entry in types.items() if entry["free"]] == ["free"]


def test_statuses_are_the_literal() -> None:
    assert set(STATUSES) == set(get_args(LicenseStatus))


def test_the_guide_shows_the_table_as_it_is() -> None:
    guide = (ROOT / "docs" / "guides" / "licences.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z-]+)` \| `([a-z-]+)` \| (.+) \|$", guide, re.MULTILINE)
    assert rows == [(name, entry["token"], entry["why"])
                    for name, entry in rsl_data()["purposes"].items()]


def test_user_classes_and_geo_codes_are_data_with_their_source() -> None:
    user, geo = rsl_data()["user"], rsl_data()["geo"]
    assert user["tokens"] == ["commercial", "non-commercial", "education", "government",
                              "personal"]
    countries = geo["countries"]
    assert "iso-codes" in countries["source"] and re.fullmatch(r"\d{4}-\d{2}-\d{2}",
                                                               countries["date"])
    codes = countries["codes"]
    assert codes == sorted(set(codes)) and len(codes) == 249
    assert all(re.fullmatch(r"[A-Z]{2}", code) for code in codes)
    assert {"US", "GB", "DE", "GR", "SS"} <= set(codes)
    assert not {"UK", "EU", "EL", "XX"} & set(codes)  # reserved, not assigned
    eu = geo["regions"]["EU"]
    assert len(eu["members"]) == 27 and set(eu["members"]) <= set(codes)
    assert "GB" not in eu["members"] and "GR" in eu["members"]
    assert eu["source"] and re.fullmatch(r"\d{4}-\d{2}-\d{2}", eu["date"])
