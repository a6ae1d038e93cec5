"""data/webbotauth.json: the Web Bot Auth revisions read and the values the code takes."""

from __future__ import annotations

import json

import pytest

from robotsrules._identity._webbotauth import load_standard, standard
from robotsrules._tables._datafile import shipped_text
from robotsrules.errors import RobotsError


def test_the_shipped_table_names_each_revision_with_a_date() -> None:
    table = standard()
    revisions = {reading.revision for reading in table.revisions}
    assert {"RFC 9421", "RFC 9651", "RFC 7638", "RFC 8037",
            "draft-ietf-webbotauth-httpsig-protocol-00",
            "draft-ietf-webbotauth-httpsig-protocol-01"} <= revisions
    dates = {reading.revision: reading.date for reading in table.revisions}
    assert dates["draft-ietf-webbotauth-httpsig-protocol-00"] == "2026-09-01"
    assert dates["draft-ietf-webbotauth-httpsig-protocol-01"] == "2026-10-29"
    assert (table.request_tag, table.max_validity_seconds) == ("web-bot-auth", 86400)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("max_validity_seconds", 86401, "1 to 86400"),
    ("max_validity_seconds", True, "1 to 86400"),
    ("default_signature_agent_form", "card", "'origin' or 'jwks'"),
    ("well_known_path", "/keys", "/.well-known/"),
    ("request_tag", "", "non-empty"),
])
def test_a_damaged_value_is_refused(field: str, value: object, message: str) -> None:
    data = json.loads(shipped_text("webbotauth.json"))
    data["values"][field] = value
    with pytest.raises(RobotsError, match=message):
        load_standard(json.dumps(data))


def test_a_revision_without_its_date_is_refused() -> None:
    data = json.loads(shipped_text("webbotauth.json"))
    del data["revisions"][0]["date"]
    with pytest.raises(RobotsError, match=r"revisions\[0\]\.date"):
        load_standard(json.dumps(data))


def test_the_shipped_table_matches_its_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(shipped_text("webbotauth.schema.json"))
    data = json.loads(shipped_text("webbotauth.json"))
    jsonschema.validate(data, schema)
    data["values"]["max_validity_seconds"] = 90000
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)
