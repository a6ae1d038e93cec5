"""The public surface is deliberate: what `robotsrules` exports, and the exception tree."""

from __future__ import annotations

import inspect
import pickle

import pytest

import robotsrules
from robotsrules import errors

# Changing this list is a change of the public API: say so in CHANGELOG.md.
PUBLIC = {
    "DEFAULT_MAX_BYTES", "MODES", "Agent", "AgentRules", "AsyncRobotsCache", "Diagnostic",
    "CorruptEntry", "EngineError", "FetchResult", "Group", "InvalidAgent", "InvalidArgument", "InvalidURL",
    "Line", "MissingExtra", "Mode", "Pace", "Policy", "RequestRate", "RobotsCache", "RobotsDisallowed",
    "SigningFailed",
    "RobotsError", "RobotsTxt", "Rule", "Verdict", "afetch", "agent_tokens", "fetch", "lint",
    "match_target", "origin_of", "parse", "product_token", "robots_url",
    "InvalidPurpose", "Usage", "UsageLine",
    "Combined", "Directive", "PageRefused", "PageSignals", "combine", "page_signals",
    "Answer", "TdmRepFile", "TdmRule",
    "Stance", "StanceTooComplex",
    "COMPILED",
    "LicenseAnswer", "LicenseDocument", "LicenseTerms", "parse_license",
    "LicenseLink", "PagePriced", "Pricing",
    "Evidence", "Verification", "verify",
    "KeyDirectories", "SeenSignatures", "verify_request",
    "Signer", "SigningKey",
    "LogAudit", "audit_logs",
    "AgentChoice", "GenerateError", "GeneratePolicy", "Generated", "generate",
}


def test_all_is_the_public_list() -> None:
    assert set(robotsrules.__all__) == PUBLIC
    assert len(robotsrules.__all__) == len(PUBLIC)        # no name twice


def test_every_public_name_resolves_and_is_listed_by_dir() -> None:
    listed = dir(robotsrules)
    for name in robotsrules.__all__:
        assert getattr(robotsrules, name) is not None
        assert name in listed, name


def test_every_public_name_has_a_docstring() -> None:
    for name in robotsrules.__all__:
        value = getattr(robotsrules, name)
        if isinstance(value, type) and "__mypyc_attrs__" in vars(value):
            continue  # a compiled class: mypyc keeps no docstring; the pure run reads them
        if isinstance(value, type) or inspect.isfunction(value):
            assert (value.__doc__ or "").strip(), name


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        robotsrules.no_such_name  # noqa: B018


def test_every_error_is_a_robots_error() -> None:
    classes = [value for value in vars(errors).values()
               if isinstance(value, type) and issubclass(value, BaseException)]
    assert {cls.__name__ for cls in classes} == set(errors.__all__)
    for cls in classes:
        assert issubclass(cls, errors.RobotsError), cls


def test_caller_mistakes_are_value_errors_and_failures_are_not() -> None:
    for cls in (errors.InvalidAgent, errors.InvalidURL, errors.InvalidArgument,
                errors.CorruptEntry):
        assert issubclass(cls, ValueError)
    for cls in (errors.RobotsError, errors.EngineError, errors.RobotsDisallowed,
                errors.MissingExtra, errors.SigningFailed):
        assert not issubclass(cls, ValueError)
    assert issubclass(errors.MissingExtra, ImportError)


def test_the_tree_in_the_docstring_names_every_class() -> None:
    for name in errors.__all__:
        assert f" {name} " in errors.__doc__ or f"── {name}" in errors.__doc__, name


def test_errors_pickle() -> None:
    missing = errors.MissingExtra("robotsrules.duckdb", "bulk", "duckdb")
    assert str(missing) == "robotsrules.duckdb needs the 'duckdb' package: pip install 'robotsrules[bulk]'"
    again = pickle.loads(pickle.dumps(missing))
    assert (type(again), str(again), again.name) == (errors.MissingExtra, str(missing), "duckdb")
    verdict = robotsrules.parse(b"User-agent: *\nDisallow: /\n").explain("/x", agent="Bot")
    refused = errors.RobotsDisallowed("https://a/x", "Bot", verdict)
    assert str(pickle.loads(pickle.dumps(refused))) == str(refused)


def test_pickles_name_only_public_modules() -> None:
    robots = robotsrules.parse(b"User-agent: *\nDisallow: /x\nCrawl-delay: 1\n")
    objects = [robots, robots.for_agent("Bot"), robots.explain("/x", agent="Bot"),
               robots.groups[0], robots.lines[0], robotsrules.RobotsTxt.allow_all()]
    for value in objects:
        data = pickle.dumps(value)
        assert b"robotsrules._" not in data, type(value)
        assert pickle.loads(data) == value or type(pickle.loads(data)) is type(value)


def test_pickles_of_the_first_release_still_load() -> None:
    # A RobotsTxt pickled by robotsrules 0.1.0 before the outline reader: protocol 2,
    # calling robotsrules.robotstxt._restore(source, groups, sitemaps, hosts, truncated,
    # synthetic). Written out by hand so that this test does not depend on today's code.
    data = (b"\x80\x02crobotsrules.robotstxt\n_restore\nq\x00(c_codecs\nencode\nq\x01X\x1b\x00"
            b"\x00\x00User-agent: *\nDisallow: /x\nq\x02X\x06\x00\x00\x00latin1q\x03\x86q\x04Rq\x05"
            b"crobotsrules.model\nGroup\nq\x06(K\x01K\x01\x85q\x07X\x01\x00\x00\x00*q\x08\x85q\t"
            b"h\x08\x85q\ncrobotsrules.model\nRule\nq\x0b(X\x08\x00\x00\x00disallowq\x0cX\x02\x00"
            b"\x00\x00/xq\rh\rK\x02tq\x0e\x81q\x0f\x85q\x10NNtq\x11\x81q\x12\x85q\x13))\x89Ntq"
            b"\x14Rq\x15.")
    robots = pickle.loads(data)
    assert robots.allowed("/x", agent="Bot") is False
    assert robots.allowed("/y", agent="Bot") is True


# bulk's API before issue 34 cut it to the user's functions: every name stays importable for
# one release, the plumbing ones with a DeprecationWarning (the CHANGELOG says so).
BULK_BEFORE_ISSUE_34 = [
    "ALLOWED", "ANY_AGENT_SCHEMA", "DEFAULT_CACHE_SIZE", "DEFAULT_PAGE_BATCH_ROWS",
    "DEFAULT_POLICY", "FILE_FORMATS", "INVALID_URL", "KEYS", "MISSING", "NO_ROBOTS",
    "PAGE_SCHEMA", "PAGE_SIGNALS_TYPE", "RANKING", "SORTED_COLUMNS", "STANCE_SCHEMA",
    "STANCE_SORTED_COLUMNS", "STANCE_TYPE", "TOO_COMPLEX", "VERDICT_SCHEMA", "VERDICT_TYPE",
    "AnyRow", "BodyCache", "ColumnFunction", "FileFormat", "Judge", "Key", "Missing",
    "ParsedCache", "Rank", "RobotsHistory", "RobotsIndex", "RobotsRow", "Row", "StanceRow",
    "agent_stoppable", "any_agent", "any_agent_verdicts", "any_verdict", "as_of_verdicts",
    "check_agents", "check_purposes", "check_stance_mode", "column_functions", "fast_origin",
    "file_format", "first_disallowed", "host_key", "judge_sorted", "judge_sorted_any",
    "missing_any", "missing_verdict", "page_batches", "page_schema", "provenance", "rank",
    "robots_for", "spark_ddl", "spark_type", "sql_type", "stance_row", "stances",
    "stances_sorted", "struct_array", "usage_of", "verdict_of", "verdict_schema", "verdicts",
    "with_provenance",
]


def test_bulk_names_cut_from_the_api_still_import_with_a_warning() -> None:
    pytest.importorskip("pyarrow")
    import warnings

    from robotsrules import bulk

    assert bulk.__all__ == sorted(bulk.__all__, key=lambda n: (not n.isupper(), n))
    for name in bulk.__all__:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert getattr(bulk, name) is not None  # the user's API: no warning
    removed = [name for name in BULK_BEFORE_ISSUE_34 if name not in bulk.__all__]
    assert "fast_origin" in removed and "verdicts" not in removed
    for name in removed:
        with pytest.warns(DeprecationWarning, match=f"robotsrules.bulk.{name} is deprecated"):
            value = getattr(bulk, name)
        assert value is not None
    with pytest.warns(DeprecationWarning):
        from robotsrules.bulk import judge_sorted  # noqa: F401  (the import statement too)
    with pytest.raises(AttributeError):
        bulk.no_such_name  # noqa: B018


def test_signing_names_do_not_import_cryptography() -> None:
    """`import robotsrules` and its signing names stay light: cryptography (the 'sign'
    extra) is imported when a key is first made or read (issue 38)."""
    import subprocess
    import sys
    code = ("import sys, robotsrules; robotsrules.Signer; robotsrules.SigningKey; "
            "before = 'cryptography' in sys.modules; robotsrules.SigningKey.generate(); "
            "print(before, 'cryptography' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["False", "True"]
