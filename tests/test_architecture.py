"""The floor plan holds: imports go one way, no cycles, small modules and functions, public APIs only.

Read from the source with ``ast`` (nothing is imported), so a function-level
import counts like a module-level one.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("trees", "datasets", "lab", "viz", "ui", "app_pages", "bench")
# Which top-level packages each layer may import (docs/ARCHITECTURE.md: app_pages -> ui -> viz, lab,
# datasets, trees; lab -> trees, datasets; viz imports none of the project's packages).
ALLOWED = {
    "trees": {"trees"},
    "datasets": {"datasets"},
    "lab": {"lab", "trees", "datasets"},
    "viz": {"viz"},
    "ui": {"ui", "viz", "datasets", "trees", "lab"},
    "app_pages": {"app_pages", "ui", "viz", "datasets", "trees", "lab"},
    "bench": {
        "bench",
        "trees",
        "datasets",
        "lab",
        "ui",
    },  # the page benchmark reads the list of pages
    "app": {"ui"},
}
# Inside trees, sub-packages import one way: interop -> studies -> ensemble -> tree.
TREES_RANK = {"tree": 0, "ensemble": 1, "studies": 2, "interop": 3}
# The uses of Streamlit's internals, and why. The first: no public API lets go of an uploaded file, and
# Streamlit's uploader keeps a copy per session for the session's life (issue 33, item 1).
# st.chat_input removes its files the same way; the call is guarded, so a Streamlit without it
# only keeps the copy.
# The second: no public API tells whether a cached function is running, and an element
# written from one into a block made outside it fails the page (ui.engine's message; guarded:
# without it the message is shown as before).
INTERNALS_ALLOWED = {
    ("ui.data_controls", "streamlit.runtime.scriptrunner"),
    ("ui.data_controls", "streamlit.runtime.scriptrunner.get_script_run_ctx"),
    ("ui.engine", "streamlit.runtime.scriptrunner_utils.script_run_context"),
    ("ui.engine", "streamlit.runtime.scriptrunner_utils.script_run_context.in_cached_function"),
}
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80


def _modules():
    files = [ROOT / "app.py"]
    for package in PACKAGES:
        files += sorted((ROOT / package).rglob("*.py"))
    return [f for f in files if "__pycache__" not in f.parts]


def _module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path):
    """Every module ``path`` imports, at any level, as absolute dotted names."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
                if node.module is None:  # "from . import x": x may be a module
                    found += [f"{module}.{alias.name}" for alias in node.names]
                found.append(module)
            else:  # "from ui import figures": figures may be a module
                found += [f"{node.module}.{alias.name}" for alias in node.names]
                found.append(node.module)
    return found


def _project_graph():
    names = {_module_name(p): p for p in _modules()}
    graph = {}
    for name, path in names.items():
        targets = set()
        for imported in _imports(path):
            # The longest project module the import names (a name imported from a package is the package).
            parts = imported.split(".")
            for cut in range(len(parts), 0, -1):
                candidate = ".".join(parts[:cut])
                if candidate in names and candidate != name:
                    targets.add(candidate)
                    break
        graph[name] = targets
    return graph


def _find_cycle(graph):
    colour, stack = {}, []

    def visit(node):
        colour[node] = "grey"
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if colour.get(target) == "grey":
                return stack[stack.index(target) :] + [target]
            if target not in colour:
                cycle = visit(target)
                if cycle:
                    return cycle
        colour[node] = "black"
        stack.pop()
        return None

    for node in sorted(graph):
        if node not in colour:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_no_import_cycle_at_any_level():
    graph = _project_graph()
    # A package's __init__ re-exporting its own modules is not a cycle of the design.
    pruned = {
        name: {
            t
            for t in targets
            if not (t.startswith(name + ".") and (ROOT / name.replace(".", "/")).is_dir())
        }
        for name, targets in graph.items()
    }
    assert _find_cycle(pruned) is None, " -> ".join(_find_cycle(pruned))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_layers_import_downwards_only(path):
    name = _module_name(path)
    layer = name.split(".")[0]
    project = set(ALLOWED)
    for imported in _imports(path):
        top = imported.split(".")[0]
        if top in project and top != "app":
            assert top in ALLOWED[layer], f"{name} imports {imported}: {layer} may not import {top}"
        assert (name, imported) in INTERNALS_ALLOWED or not imported.startswith(
            ("streamlit.runtime", "streamlit.elements", "streamlit.web")
        ), f"{name} imports Streamlit's internals ({imported})"
        if layer == "trees" and top == "trees" and name.count(".") >= 1:
            own = name.split(".")[1]
            other = imported.split(".")[1] if imported.count(".") >= 1 else None
            if own in TREES_RANK and other in TREES_RANK:
                assert TREES_RANK[other] <= TREES_RANK[own], (
                    f"{name} imports {imported}: studies -> ensemble -> tree"
                )


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_modules_and_functions_are_small(path):
    source = path.read_text()
    assert source.count("\n") <= MAX_MODULE_LINES, f"{path.name} has over {MAX_MODULE_LINES} lines"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = node.end_lineno - node.lineno + 1
            assert length <= MAX_FUNCTION_LINES, (
                f"{node.name} ({path.name}:{node.lineno}) has {length} lines"
            )


@pytest.mark.parametrize(
    "path",
    [p for p in _modules() if p.relative_to(ROOT).parts[0] in ("app_pages", "ui")],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_pages_end_early_through_the_frame(path):
    """``st.stop()`` would also stop what the frame draws after the page; pages use ``errors.end_page()``."""
    if path.name == "shell.py":
        return
    calls = [
        node
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "stop"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "st"
    ]
    assert not calls, (
        f"{path.name} calls st.stop() (line {calls[0].lineno}); use ui.errors.end_page()"
    )


# Layers below the app: no Streamlit, so notebooks, the command line and workers can import them.
NO_STREAMLIT = ("trees", "datasets", "lab")


@pytest.mark.parametrize(
    "path",
    [p for p in _modules() if _module_name(p).split(".")[0] in NO_STREAMLIT],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_library_layers_do_not_import_streamlit(path):
    for imported in _imports(path):
        assert imported.split(".")[0] != "streamlit", f"{_module_name(path)} imports {imported}"


def _page_of(module):
    """The page package a module belongs to (``app_pages.grow.panels`` -> ``grow``), else None."""
    parts = module.split(".")
    return parts[1] if parts[0] == "app_pages" and len(parts) > 1 else None


def test_page_modules_import_no_other_page():
    for name, targets in _project_graph().items():
        page = _page_of(name)
        for target in targets:
            other = _page_of(target)
            assert other is None or page is None or other == page, f"{name} imports {target}"
            assert other is None or page is not None, f"{name} imports the page module {target}"


def test_no_ui_module_is_private_to_one_page():
    """``ui/`` holds what pages share: a module one page alone uses belongs in that page's package."""
    graph = _project_graph()
    for module in sorted(m for m in graph if m.startswith("ui.")):
        importers = {name for name, targets in graph.items() if module in targets}
        pages = {_page_of(name) for name in importers if _page_of(name)}
        shared = {name for name in importers if not _page_of(name) and name != "ui"}
        assert importers, f"{module} is imported by nothing"
        assert shared or len(pages) > 1, f"{module} is used by the page {pages} alone"


@pytest.mark.parametrize(
    "path",
    sorted(p for p in (ROOT / "app_pages").glob("*/*.py") if p.stem == p.parent.name),
    ids=lambda p: p.parent.name,
)
def test_page_scripts_are_short_and_define_no_functions(path):
    """A page script lays out widgets and calls functions that take their inputs as arguments:
    the functions live in the modules beside it, where they cannot read the script's globals."""
    functions = [
        node.name
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    ]
    assert not functions, f"{path.name} defines {functions}"
