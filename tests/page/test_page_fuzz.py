"""The page-signal fuzz target (``fuzz/fuzz_page.py``): its seeds and a short plain run."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

FUZZ = Path(__file__).resolve().parent.parent.parent / "fuzz" / "fuzz_page.py"


def _target() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_page", FUZZ)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_plain_run_holds_the_invariant() -> None:
    assert _target().plain(150, 7) == 150 + len(_target().SEEDS)


def test_the_invariant_catches_a_broken_promise(monkeypatch: pytest.MonkeyPatch) -> None:
    target = _target()
    monkeypatch.setattr(target, "page_signals", lambda *a, **k: (_ for _ in ()).throw(
        RuntimeError("boom")))
    with pytest.raises(RuntimeError):
        target.check(target.SEEDS[0])
