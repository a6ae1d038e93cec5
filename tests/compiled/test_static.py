"""What mypyc refuses at run time, found by reading the source (issue 33 §1).

The compiled build compiles the modules of ``setup.py``'s ``COMPILED_MODULES`` (read here,
the one list) into native classes and functions. Some Python that runs in the pure build
fails, or silently does nothing, in the compiled one, and only where it runs: a fetch of
the compiled build once failed on every site because a pure class subclassed a compiled
one. These checks read every module of ``src/robotsrules`` and every test with :mod:`ast`,
resolve the names they use through their imports, and fail on:

* a class outside the compiled modules (in ``src`` or in ``tests``) whose base is a class
  of a compiled module ("interpreted classes cannot inherit from compiled"), unless that
  class is one mypyc leaves a Python class (a ``NamedTuple``, an ``Enum``, a ``TypedDict``,
  a ``Protocol``) or allows it (``@mypyc_attr(allow_interpreted_subclasses=True)``);
* an assignment to an attribute of a compiled native class, in ``src`` or by a test
  (``Cls.name = ...``, ``setattr(Cls, ...)``, ``monkeypatch.setattr(Cls, ...)``): compiled
  callers call a native class's methods directly and never see it, pure callers do, so what
  it changes depends on the build (a test of it can pass without testing anything);
* in ``src`` or a test, replacing a function, class or ``Final`` constant of a compiled
  module (``module.name = ...``, ``setattr``, ``monkeypatch.setattr``): compiled code calls
  and reads those directly, so the replacement is not seen (a test of it tests nothing). A
  plain module-level variable (no ``Final``) is read through the module's dictionary in
  both builds and may be set.

A line that does one of these on purpose (a test of the refusal itself, or a patch only
pure callers need to see) says so with the words "compiled build: on purpose" in a comment.
Names bound at run time (``getattr`` with a computed name, a module's lazy ``__getattr__``)
are out of a static check's reach; the run of the whole suite against the compiled build
covers them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Union

import pytest

from tests.compiled.listing import ROOT, compiled_modules

PACKAGE = ROOT / "src" / "robotsrules"
TESTS = ROOT / "tests"
PYTHON_CLASSES = {"NamedTuple", "Enum", "IntEnum", "Flag", "IntFlag", "TypedDict", "Protocol"}
"""Bases after which mypyc leaves a class a Python class (a subclass of it is allowed)."""


@dataclass
class Module:
    name: str
    tree: ast.Module
    lines: list[str]
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    functions: set[str] = field(default_factory=set)
    finals: set[str] = field(default_factory=set)
    imports: dict[str, tuple[str, Optional[str]]] = field(default_factory=dict)
    """A local name -> (module, attribute) for ``from m import a``, (module, None) for a module."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(module: str, node: ast.ImportFrom, package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if package else base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _read(path: Path, name: str) -> Module:
    return _parse(path.read_text(encoding="utf-8"), name, path.name == "__init__.py")


def _parse(text: str, name: str, package: bool = False) -> Module:
    tree = ast.parse(text)
    found = Module(name, tree, text.splitlines())
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            found.classes[node.name] = node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.functions.add(node.name)
        elif (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
              and "Final" in ast.unparse(node.annotation)):
            found.finals.add(node.target.id)
    for node in ast.walk(tree):  # imports inside functions bind names there: all of them
        if isinstance(node, ast.ImportFrom):
            source = _absolute(name, node, package)
            for alias in node.names:
                found.imports[alias.asname or alias.name] = (source, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    found.imports[alias.asname] = (alias.name, None)
                else:
                    top = alias.name.split(".")[0]
                    found.imports[top] = (top, None)
    return found


def _package() -> dict[str, Module]:
    return {_module_name(path): _read(path, _module_name(path))
            for path in sorted(PACKAGE.rglob("*.py"))}


Target = Union[tuple[str, None], tuple[str, str]]
"""A module (name, None) or a name defined in a module (module, name)."""


class Resolver:
    """Follows a name through imports to the module that defines it."""

    def __init__(self, modules: dict[str, Module]) -> None:
        self.modules = modules

    def member(self, module: str, name: str, depth: int = 0) -> Optional[Target]:
        if f"{module}.{name}" in self.modules:
            return (f"{module}.{name}", None)
        found = self.modules.get(module)
        if found is None or depth > 10:
            return None
        if name in found.classes or name in found.functions or name in found.finals:
            return (module, name)
        if name in found.imports:
            source, attribute = found.imports[name]
            if attribute is None:
                return (source, None) if source in self.modules else None
            return self.member(source, attribute, depth + 1)
        return (module, name)  # a plain variable of the module

    def expression(self, scope: Module, node: ast.expr) -> Optional[Target]:
        if isinstance(node, ast.Name):
            if node.id in scope.classes:
                return (scope.name, node.id)
            if node.id not in scope.imports:
                return None
            source, attribute = scope.imports[node.id]
            if attribute is None:
                return (source, None) if source in self.modules else None
            return self.member(source, attribute)
        if isinstance(node, ast.Attribute):
            owner = self.expression(scope, node.value)
            if owner is None:
                return None
            module, name = owner
            if name is None:
                return self.member(module, node.attr)
            return None  # an attribute of a class: the class is what matters
        return None

    def dotted(self, text: str) -> Optional[Target]:
        parts = text.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            if module in self.modules and cut == len(parts) - 1:
                return (module, parts[-1])
        return None


def _names(nodes: list[ast.expr]) -> set[str]:
    return {ast.unparse(node).split(".")[-1].split("[")[0] for node in nodes}


def _python_class(modules: dict[str, Module], resolver: Resolver, module: str, name: str,
                  depth: int = 0) -> bool:
    """True for a class that mypyc compiles as a Python class, not a native one."""
    node = modules[module].classes[name]
    decorators = " ".join(ast.unparse(d) for d in node.decorator_list)
    if "native_class=False" in decorators or "allow_interpreted_subclasses=True" in decorators:
        return True
    if _names(node.bases) & PYTHON_CLASSES or any(
            k.arg == "metaclass" for k in node.keywords):
        return True
    for base in node.bases:
        target = resolver.expression(modules[module], base)
        if (depth < 10 and target is not None and target[1] is not None
                and target[1] in modules.get(target[0], Module("", ast.Module(), [])).classes
                and _python_class(modules, resolver, target[0], target[1], depth + 1)):
            return True
    return False


def _native_class(modules: dict[str, Module], resolver: Resolver, compiled: set[str],
                  target: Optional[Target]) -> bool:
    if target is None or target[1] is None or target[0] not in compiled:
        return False
    module, name = target
    return (name in modules[module].classes
            and not _python_class(modules, resolver, module, name))


def _sources(modules: dict[str, Module]) -> list[tuple[str, Module]]:
    """Every module of the package and every test module, by its path."""
    found = [(f"src/{name.replace('.', '/')}.py", module) for name, module in modules.items()]
    for path in sorted(TESTS.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        found.append((relative, _read(path, relative[:-3].replace("/", "."))))
    return found


def subclass_offences(modules: dict[str, Module], compiled: set[str],
                      sources: list[tuple[str, Module]]) -> list[str]:
    """Classes outside the compiled modules whose base is a native compiled class."""
    resolver = Resolver(modules)
    found = []
    for where, module in sources:
        if module.name in compiled:
            continue  # one group: mypyc compiles a subclass beside its base
        for node in ast.walk(module.tree):
            if not isinstance(node, ast.ClassDef):
                continue
            if "compiled build: on purpose" in module.lines[node.lineno - 1]:
                continue  # a test of the refusal itself
            for base in node.bases:
                target = resolver.expression(module, base)
                if _native_class(modules, resolver, compiled, target):
                    found.append(f"{where}:{node.lineno}: class {node.name} subclasses "
                                 f"compiled {target[0]}.{target[1]}")
    return found


def _assigned(module: Module) -> Iterator[tuple[int, ast.expr, str]]:
    """(line, owner expression or a string constant, attribute) of each attribute set."""
    for node in ast.walk(module.tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute):
                    yield node.lineno, target.value, target.attr
        elif isinstance(node, ast.Call) and node.args:
            callee = ast.unparse(node.func)
            if callee not in ("setattr", "monkeypatch.setattr", "delattr",
                              "monkeypatch.delattr"):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield node.lineno, first, ""  # monkeypatch.setattr("module.name", value)
            elif len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                yield node.lineno, first, str(node.args[1].value)


def patch_offences(modules: dict[str, Module], compiled: set[str],
                   sources: list[tuple[str, Module]]) -> list[str]:
    """Attributes set on a compiled native class, or a compiled module's functions, classes
    and ``Final`` constants replaced."""
    resolver = Resolver(modules)
    found = []
    for where, module in sources:
        for line, owner, attribute in _assigned(module):
            if isinstance(owner, ast.Constant):
                target = resolver.dotted(str(owner.value))
                owner_target: Optional[Target] = None
            else:
                owner_target = resolver.expression(module, owner)
                target = None
                if owner_target is not None and owner_target[1] is None:
                    target = (owner_target[0], attribute)  # only the module's own global
            if "compiled build: on purpose" in module.lines[line - 1]:
                continue
            if _native_class(modules, resolver, compiled, owner_target):
                if attribute == "__module__" and module.name == owner_target[0]:
                    continue  # the compiled module names its own class's home (read at import)
                found.append(f"{where}:{line}: sets {attribute} on compiled class "
                             f"{owner_target[0]}.{owner_target[1]}")
            elif target is not None and target[0] in compiled and target[1] is not None:
                defined = modules[target[0]]
                if target[1] in defined.functions | set(defined.classes) | defined.finals:
                    found.append(f"{where}:{line}: replaces {target[1]} of compiled module "
                                 f"{target[0]}")
    return found


@pytest.fixture(scope="module")
def package() -> dict[str, Module]:
    return _package()


@pytest.fixture(scope="module")
def compiled(package: dict[str, Module]) -> set[str]:
    names = {f"robotsrules.{name}" for name in compiled_modules()}
    assert names <= set(package), names - set(package)
    return names


@pytest.fixture(scope="module")
def sources(package: dict[str, Module]) -> list[tuple[str, Module]]:
    return _sources(package)


def test_no_pure_class_subclasses_a_compiled_one(package: dict[str, Module], compiled: set[str],
                                                 sources: list[tuple[str, Module]]) -> None:
    assert subclass_offences(package, compiled, sources) == []


def test_nothing_patches_a_compiled_class_or_function(
        package: dict[str, Module], compiled: set[str],
        sources: list[tuple[str, Module]]) -> None:
    assert patch_offences(package, compiled, sources) == []


def _snippet(text: str) -> list[tuple[str, Module]]:
    return [("snippet", _parse(text, "tests.snippet"))]


@pytest.mark.parametrize("text, expected", [
    # the defect of issue 33 §1, as it stood in _fetcher
    ("from robotsrules._decoder import BodyDecoder\nclass _Body(BodyDecoder): pass\n",
     "class _Body subclasses compiled robotsrules._decoder.BodyDecoder"),
    ("from robotsrules import _decoder\nclass B(_decoder.BodyDecoder): pass\n",
     "class B subclasses compiled robotsrules._decoder.BodyDecoder"),
    ("import robotsrules\nclass R(robotsrules.RobotsTxt): pass\n",
     "class R subclasses compiled robotsrules.robotstxt.RobotsTxt"),
])
def test_the_subclass_check_finds(package: dict[str, Module], compiled: set[str],
                                  text: str, expected: str) -> None:
    assert subclass_offences(package, compiled, _snippet(text)) == [
        f"snippet:{text.count(chr(10))}: {expected}"]


@pytest.mark.parametrize("text, expected", [
    ("import robotsrules\ndef t(monkeypatch):\n"
     "    monkeypatch.setattr(robotsrules.RobotsTxt, 'allowed', None)\n",
     "snippet:3: sets allowed on compiled class robotsrules.robotstxt.RobotsTxt"),
    ("from robotsrules._rules import _stance as solver\nsolver._Search.compatible = None\n",
     "snippet:2: sets compatible on compiled class robotsrules._rules._stance._Search"),
    ("from robotsrules._page import _html\nsetattr(_html, 'read_head', None)\n",
     "snippet:2: replaces read_head of compiled module robotsrules._page._html"),
    ("def t(monkeypatch):\n    monkeypatch.setattr('robotsrules._decoder.accept_encoding', 1)\n",
     "snippet:2: replaces accept_encoding of compiled module robotsrules._decoder"),
])
def test_the_patch_check_finds(package: dict[str, Module], compiled: set[str],
                               text: str, expected: str) -> None:
    assert patch_offences(package, compiled, _snippet(text)) == [expected]


@pytest.mark.parametrize("text", [
    # a compiled module's plain variable is read through its dictionary in both builds
    "from robotsrules._page import _html\n_html._WINDOW_SLACK = 1\n",
    # a pure module's name for a compiled class: the pure module's own code reads it
    "from robotsrules import warc\ndef t(monkeypatch):\n"
    "    monkeypatch.setattr(warc, '_WarcReader', None)\n",
    "import robotsrules\nclass R(robotsrules.RobotsTxt):  # compiled build: on purpose\n"
    "    pass\n",
])
def test_the_checks_let_pass(package: dict[str, Module], compiled: set[str], text: str) -> None:
    snippet = _snippet(text)
    assert patch_offences(package, compiled, snippet) == []
    assert subclass_offences(package, compiled, snippet) == []
