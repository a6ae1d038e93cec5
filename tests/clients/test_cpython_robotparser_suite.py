"""CPython's own tests of ``urllib.robotparser``, run against ``robotsrules.robotparser``.

The test file ships with the interpreter (``Lib/test/test_robotparser.py``, the ``test``
package); it is imported at run time, never copied here, and these tests skip with a clear
message where the interpreter was installed without it. Each of its test classes runs with
``urllib.robotparser.RobotFileParser`` and ``RequestRate`` replaced by robotsrules' for
the duration, so its own assertions judge the drop-in.

Every assertion of that suite that the drop-in does not satisfy must be one of the
deliberate differences of :mod:`robotsrules.robotparser`'s docstring (:data:`DIFFERENCES`
names the difference number of each): a new failure is a regression, and a listed failure
that starts to pass means the docstring, the README and this table are out of date.
``NetworkTestCase`` is left out: it reads ``http://www.pythontest.net/`` over the internet.
"""

from __future__ import annotations

import types
import unittest
import urllib.robotparser
from typing import Optional

import pytest

from robotsrules import robotparser

suite: Optional[types.ModuleType]
try:
    import test.test_robotparser as suite
except ImportError:  # a Python built without its test package (Debian's python3 without -dev ...)
    suite = None

SKIP_REASON = ("this interpreter has no test package (Lib/test/test_robotparser.py): "
               "install the full CPython (e.g. pyenv, or Debian's libpython3-testsuite)")

Key = tuple[str, str, tuple[tuple[str, str], ...]]
"""(test class, test method, the subtest's parameters) of one assertion of the suite."""

# The assertions of CPython's suite the drop-in answers otherwise, on purpose, with the
# number of the difference in the robotparser module's docstring.
DIFFERENCES: dict[Key, str] = {
    # /%7ejoe/... is not /~joe/...: escapes are compared as written, never decoded.
    ("CrawlDelayAndRequestRateTest", "test_bad_urls",
     (("agent", "figtree"), ("url", "/~joe/index.html"))): "5",
    ("DifferentAgentTest", "test_bad_urls",
     (("agent", "FigTree Robot libwww-perl/5.04"), ("url", "/~joe/index.html"))): "5",
    # A 403 means "no rules" (RFC 9309), and /robots.txt itself is always allowed.
    ("PasswordProtectedSiteTestCase", "testPasswordProtectedSite", ()): "8, 9",
    # str(parser) is the file as read, not a re-rendering of the records kept.
    ("StringFormattingTest", "test_string_formatting", ()): "14",
    # Two '*' groups merge: /another/path is disallowed too, not only the first group's.
    ("UseFirstUserAgentWildcardTest", "test_good_urls",
     (("agent", "test_robotparser"), ("url", "/another/path"))): "2",
    # Googlebot-Mobile obeys its own group, not the first group whose name is a substring.
    ("UserAgentGoogleMobileTest", "test_bad_urls",
     (("agent", "Googlebot-Mobile"), ("url", "/something.jpg"))): "1",
}


class _Outcomes(unittest.TestResult):
    """Every assertion that ran: passed, or what went wrong (subtests one by one)."""

    def __init__(self) -> None:
        super().__init__()
        self.ran: dict[Key, Optional[str]] = {}

    @staticmethod
    def _key(test: unittest.TestCase, params: Optional[dict[str, object]] = None) -> Key:
        cls, method = test.id().split(".")[-2:]
        return cls, method, tuple(sorted((k, str(v)) for k, v in (params or {}).items()))

    def addSubTest(self, test: unittest.TestCase, subtest: unittest.TestCase,
                   err: object) -> None:
        params = dict(getattr(subtest, "params", {}))
        self.ran[self._key(test, params)] = None if err is None else self._why(err)

    def addSuccess(self, test: unittest.TestCase) -> None:
        self.ran.setdefault(self._key(test), None)

    def addFailure(self, test: unittest.TestCase, err: object) -> None:
        self.ran[self._key(test)] = self._why(err)

    def addError(self, test: unittest.TestCase, err: object) -> None:
        self.ran[self._key(test)] = "error: " + self._why(err)

    def addSkip(self, test: unittest.TestCase, reason: str) -> None:
        self.ran[self._key(test)] = "skipped: " + reason

    @staticmethod
    def _why(err: object) -> str:
        kind, value = err[0], err[1]  # type: ignore[index]
        return f"{kind.__name__}: {str(value).splitlines()[0] if str(value) else ''}"


def _test_classes() -> list[str]:
    if suite is None:
        return []
    return sorted(
        name for name, value in vars(suite).items()
        if isinstance(value, type) and issubclass(value, unittest.TestCase)
        and value.__module__ == suite.__name__ and name != "NetworkTestCase"
        and unittest.TestLoader().getTestCaseNames(value)
    )


CLASSES = _test_classes()


def _run(name: str, monkeypatch: pytest.MonkeyPatch) -> dict[Key, Optional[str]]:
    assert suite is not None
    monkeypatch.setattr(urllib.robotparser, "RobotFileParser", robotparser.RobotFileParser)
    monkeypatch.setattr(urllib.robotparser, "RequestRate", robotparser.RequestRate)
    outcomes = _Outcomes()
    unittest.TestLoader().loadTestsFromTestCase(getattr(suite, name)).run(outcomes)
    return outcomes.ran


@pytest.mark.skipif(suite is None, reason=SKIP_REASON)
def test_the_suite_is_there_and_sizeable() -> None:
    # The suite was found and still has its classic cases: a rename must not silently
    # leave this file checking nothing.
    assert len(CLASSES) >= 15, CLASSES
    assert {cls for cls, _, _ in DIFFERENCES} <= set(CLASSES)


@pytest.mark.skipif(suite is None, reason=SKIP_REASON)
@pytest.mark.parametrize("name", CLASSES or ["(absent)"])
def test_cpython_robotparser_case(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ran = _run(name, monkeypatch)
    assert ran, f"{name}: no test ran"
    failed = {key: why for key, why in ran.items() if why is not None}
    # A documented difference is another answer (an assertion that fails), never an error.
    unexpected = {key: why for key, why in failed.items()
                  if key not in DIFFERENCES or not why.startswith("AssertionError")}
    assert unexpected == {}, "CPython's assertions the drop-in fails, not a documented difference"
    expected_here = {key for key in DIFFERENCES if key[0] == name and key in ran}
    passing_now = expected_here - set(failed)
    assert passing_now == set(), ("documented differences that no longer differ: update "
                                  "DIFFERENCES, the module docstring and the README")
