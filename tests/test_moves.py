"""Moving private modules (issue 34) changes no public name and breaks no stored pickle.

``tests/data/pickles34`` was written on the tree before the moves: ``names.json`` lists every
public name of the public modules (and ``robotsrules.__all__``), the ``*.pickle`` files are
public objects pickled with protocols 2 and 4, ``reprs.json`` their reprs at the time.
"""

from __future__ import annotations

import importlib
import json
import pickle
from pathlib import Path
from typing import Dict, List

import pytest

import robotsrules

DATA = Path(__file__).resolve().parent / "data" / "pickles34"
NAMES: Dict[str, List[str]] = json.loads((DATA / "names.json").read_text(encoding="utf-8"))
REPRS: Dict[str, str] = json.loads((DATA / "reprs.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("module", sorted(NAMES))
def test_every_name_importable_before_the_moves_still_is(module: str) -> None:
    if module == "robotsrules.__all__":
        assert sorted(robotsrules.__all__) == NAMES[module]
        return
    try:
        found = importlib.import_module(module)
    except ImportError as exc:  # an integration whose extra this environment lacks
        pytest.skip(str(exc))
    missing = [name for name in NAMES[module] if not hasattr(found, name)]
    assert not missing, f"{module} lost {missing}"


@pytest.mark.parametrize("name", sorted(REPRS))
def test_pickles_made_before_the_moves_still_load(name: str) -> None:
    value = pickle.loads((DATA / f"{name}.pickle").read_bytes())
    assert repr(value) == REPRS[name]
    # and the loaded object pickles again to an equal object
    assert repr(pickle.loads(pickle.dumps(value))) == REPRS[name]
