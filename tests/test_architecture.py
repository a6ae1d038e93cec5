"""The house shows its architecture: the import graph is checked, not hoped for.

* no import circle, at module level or deferred inside functions;
* no module inside the package imports the package root (``robotsrules/__init__.py``);
* no module imports a name with a leading underscore from another module;
* nothing imports the command line (``robotsrules.cli``) but ``__main__``;
* the core (parsing, matching, the fetch policy) imports only the standard library and
  other core modules, so ``import robotsrules`` stays light;
* every optional third-party package is imported by exactly the modules listed for it.
"""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "robotsrules"

# The core, read from the folders: every module of the core packages, and the few modules
# of the root (and of other packages) that are core too.
CORE_PACKAGES = ("_rules", "_tables", "_page", "_generate")
CORE_MODULES = {"robotsrules", "robotsrules.errors", "robotsrules.model", "robotsrules._compiled",
                "robotsrules.robotstxt", "robotsrules.policy", "robotsrules._scope",
                "robotsrules.useragent", "robotsrules.linter", "robotsrules.linter._codes",
                "robotsrules.linter._checks", "robotsrules._terminal", "robotsrules._sfv",
                "robotsrules._fetch._drive", "robotsrules._lru", "robotsrules._typing",
                "robotsrules._dates", "robotsrules._diff",
                "robotsrules._decoder"}  # the one body decoder: zlib, and brotli behind its extra
CORE = CORE_MODULES | {
    ".".join(("robotsrules", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(
        ".__init__")
    for folder in CORE_PACKAGES for path in (PACKAGE / folder).rglob("*.py")}

# Packages that must never import others (read from the folders): the fetch layer is given
# a signing callable and never imports the identity package, which fetches through it.
NEVER = {"_fetch": ("_identity", "_web"), "_rules": ("_fetch", "_identity", "_web"),
         "_tables": ("_fetch", "_identity", "_web", "_rules")}

# Optional packages and the modules allowed to import them (each behind its extra).
OPTIONAL = {
    "httpx": {"robotsrules._fetch._fetcher", "robotsrules.httpx", "robotsrules._fetch._robotscache",
              "robotsrules.robotparser", "robotsrules.aiohttp", "robotsrules.cli._page",
              "robotsrules._fetch._pinned", "robotsrules._web._app",
              "robotsrules._web._api"},  # the address guard's pinned connections
    # UTS-46 host names: a runtime dependency, imported on the first non-ASCII host only, so
    # the scope functions are part of the core and `import robotsrules` stays light.
    "idna": {"robotsrules._scope"},
    "duckdb": {"robotsrules.duckdb", "robotsrules._report", "robotsrules.cli._jobs",
               "robotsrules.datatrove",
               "robotsrules._audit._summary"},  # the log audit's aggregation (issue 37)
    "pyspark": {"robotsrules.spark"},
    "scrapy": {"robotsrules.scrapy"},
    "aiohttp": {"robotsrules.aiohttp"},
    "redis": {"robotsrules.cache.redis"},
    # robotsrules.datatrove.WarcHeadersReader iterates WARC records as datatrove's reader does.
    "warcio": {"robotsrules.warc", "robotsrules.datatrove"},
    "matplotlib": {"robotsrules._report"},
    # The workbench page (issue 39): the web extra, behind MissingExtra.guard.
    "starlette": {"robotsrules._web._app", "robotsrules._web._api"},
    "jinja2": {"robotsrules._web._app"},
    "uvicorn": {"robotsrules._web._server"},
    "prometheus_client": {"robotsrules._web._api"},  # serve --api's /metrics (issue 41)
    "datatrove": {"robotsrules.datatrove"},
    # br bodies, decoded within a bound by the one body decoder (issue 24).
    "brotli": {"robotsrules._decoder"},
    # RSL licence documents (issue 26): XML read with DTDs and entities forbidden.
    "defusedxml": {"robotsrules._rsl"},
    # Forward-confirmed reverse DNS (issue 36), behind the 'verify' extra.
    "dns": {"robotsrules._identity._dns"},
    # zstd-compressed access logs (issue 37) before Python 3.14's compression.zstd.
    "backports": {"robotsrules._audit._streams"},
    # Web Bot Auth (issue 38): Ed25519 and PKCS#8, behind the 'sign' extra.
    "cryptography": {"robotsrules._identity._httpsig"},
    # TOML policy files of `generate` before Python 3.11's tomllib (issue 40).
    "tomli": {"robotsrules.cli._generate"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache  # each file parsed once per run, not once per test
def _imports(path: Path) -> tuple[tuple[str, tuple[str, ...], bool], ...]:
    """(module imported, names taken, at module level?) for each import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    top_level = {id(node) for node in tree.body}
    # imports under `if TYPE_CHECKING:` count as module level for circles: skip them (they
    # never run), as the interpreter does.
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for child in ast.walk(node):
                child.type_checking = True  # type: ignore[attr-defined]
    for node in ast.walk(tree):
        if getattr(node, "type_checking", False):
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((alias.name, [], id(node) in top_level))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            names = [alias.name for alias in node.names]
            if node.module is None:
                # `from . import x` imports the submodule x, not the package's own names
                found += [(f"{module}.{name}", [], id(node) in top_level)
                          for name in names if _is_module(f"{module}.{name}")]
                names = [name for name in names if not _is_module(f"{module}.{name}")]
                if not names:
                    continue
            found.append((module, names, id(node) in top_level))
    return tuple((module, tuple(names), top) for module, names, top in found)


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for module, _names, _top in _imports(path):
            if module in modules and module != name:
                graph[name].add(module)
    return graph


def test_no_import_circle() -> None:
    graph = _graph()
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                cycle = [*stack[stack.index(target):], target]
                raise AssertionError("import circle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)


def test_no_module_imports_the_package_root() -> None:
    # The root (`robotsrules/__init__.py`) is the face: it imports the house, never the
    # other way round. A module wanting the version or the build reads `_version` or
    # `_compiled`; one wanting a public name imports it from the module that defines it.
    offences = [f"{_module_name(path)} imports {', '.join(names) or 'robotsrules'} from the root"
                for path in PACKAGE.rglob("*.py") if _module_name(path) != "robotsrules"
                for module, names, _top in _imports(path) if module == "robotsrules"]
    assert not offences, "\n".join(offences)


def test_no_private_name_crosses_a_module_boundary() -> None:
    offences = []
    for path in PACKAGE.rglob("*.py"):
        for module, names, _top in _imports(path):
            if not module.startswith("robotsrules"):
                continue
            # `from . import _module` takes a private *module*: the package's own business.
            offences += [f"{_module_name(path)} imports {module}.{name}" for name in names
                         if name.startswith("_") and not name.startswith("__")
                         and not _is_module(f"{module}.{name}")]
    assert not offences, "\n".join(offences)


def _is_module(dotted: str) -> bool:
    parts = dotted.split(".")
    path = PACKAGE.parent.joinpath(*parts)
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def test_nothing_imports_the_command_line() -> None:
    for path in PACKAGE.rglob("*.py"):
        me = _module_name(path)
        if me.startswith("robotsrules.cli") or me == "robotsrules.__main__":
            continue
        for module, _names, _top in _imports(path):
            assert not module.startswith("robotsrules.cli"), f"{me} imports {module}"


def test_the_core_imports_only_the_standard_library() -> None:
    stdlib = set(sys.stdlib_module_names)
    for path in PACKAGE.rglob("*.py"):
        me = _module_name(path)
        if me not in CORE:
            continue
        for module, _names, top in _imports(path):
            root = module.split(".")[0]
            if root == "robotsrules":
                # lazily loaded names (the package __init__'s __getattr__) are not imports
                assert module in CORE or not top or me == "robotsrules", f"{me} imports {module}"
            else:
                assert root in stdlib or (module in OPTIONAL and me in OPTIONAL[module] and not top), \
                    f"core module {me} imports {module}"


def test_optional_packages_are_imported_only_where_listed() -> None:
    for path in PACKAGE.rglob("*.py"):
        me = _module_name(path)
        for module, _names, _top in _imports(path):
            root = module.split(".")[0]
            if root in OPTIONAL:
                assert me in OPTIONAL[root], f"{me} imports {root}"


def _package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and (PACKAGE / parts[1]).is_dir() else module


def test_the_packages_import_no_package_above_them() -> None:
    for path in PACKAGE.rglob("*.py"):
        me = _module_name(path)
        for module, _names, _top in _imports(path):
            if module.startswith("robotsrules."):
                assert _package_of(module) not in NEVER.get(_package_of(me), ()), \
                    f"{me} imports {module}"


def test_no_import_circle_between_packages() -> None:
    graph: dict[str, set[str]] = {}
    for name, targets in _graph().items():
        for target in targets:
            if target != "robotsrules" and _package_of(name) != _package_of(target):
                graph.setdefault(_package_of(name), set()).add(_package_of(target))
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph.get(node, ())):
            assert state.get(target) != 1, "circle: " + " -> ".join([*stack, node, target])
            if target not in state:
                visit(target, [*stack, node])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])


def test_the_package_root_stays_small() -> None:
    # a new capability gets a package (docs/development.md, "The layout"), not root files
    root = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(root) <= 32, root
