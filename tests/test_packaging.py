"""The installable package and the requirement files tell the same story.

``pip install .`` installs ``trees`` with the dependencies of ``pyproject.toml``;
``requirements.txt`` installs the app. A floor raised in one file and not in the
other would install a version the suite never passed on.
"""

import ast
import re
import sys
from pathlib import Path

import pytest

if sys.version_info < (3, 11):
    pytest.skip("tomllib is in the standard library from Python 3.11", allow_module_level=True)
import tomllib

ROOT = Path(__file__).resolve().parent.parent


def _floors(lines):
    """``{package: floor}`` of lines such as ``numpy>=2.0`` (and ``xgboost-cpu>=3.2; marker``)."""
    floors = {}
    for line in lines:
        requirement = line.split("#")[0].split(";")[0]
        match = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9.]*)\s*", requirement)
        if match:
            floors[match.group(1).lower()] = match.group(2)
    return floors


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_package_is_trees_alone():
    find = _pyproject()["tool"]["setuptools"]["packages"]["find"]
    assert find["include"] == ["trees*"]


def test_pyproject_floors_equal_requirements_floors():
    project = _pyproject()["project"]
    package = _floors(project["dependencies"])
    app = _floors((ROOT / "requirements.txt").read_text().splitlines())
    extras = project["optional-dependencies"]
    assert package, "pyproject.toml declares no dependencies"
    assert {name: app.get(name) for name in package} == package
    # The app installs the "models" extra (its models' libraries, CatBoost apart).
    assert {name: app.get(name) for name in _floors(extras["models"])} == _floors(extras["models"])
    for extra in ("dask", "runtimes", "catboost"):
        listed = _floors((ROOT / f"requirements-{extra}.txt").read_text().splitlines())
        assert _floors(extras[extra]) == listed, extra


def _requirement_lines(name):
    """The requirement lines of a requirement file (comments and blank lines left out)."""
    lines = (ROOT / name).read_text().splitlines()
    return [line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()]


def test_the_app_installs_without_catboost_and_the_tests_with_every_library():
    """CatBoost is optional (README, "Set up"): requirements.txt leaves it out, and
    requirements-dev.txt installs it (and every other optional file), so the whole suite runs
    the real libraries."""
    assert "catboost" not in _floors(_requirement_lines("requirements.txt"))
    dev = _requirement_lines("requirements-dev.txt")
    for name in ("requirements.txt", "requirements-catboost.txt", "requirements-dask.txt",
                 "requirements-runtimes.txt"):  # fmt: skip
        assert f"-r {name}" in dev, name


def test_optional_libraries_name_the_extras_floors():
    """The command a missing library's message gives (``trees.interop.OPTIONAL_LIBRARIES``)
    installs the floor pyproject.toml's extras declare."""
    from trees.interop import OPTIONAL_LIBRARIES

    extras = _pyproject()["project"]["optional-dependencies"]
    declared = {}
    for extra in ("models", "catboost", "runtimes"):
        declared.update(_floors(extras[extra]))
    for module, (_, requirement) in OPTIONAL_LIBRARIES.items():
        name, floor = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+)", requirement).groups()
        assert declared.get(name) == floor, module


def test_every_import_of_trees_is_declared():
    """The third-party modules ``trees`` imports are all dependencies of the package
    (or of its "models", "catboost" and "runtimes" extras, which ``trees.interop`` imports
    lazily, some by name through ``importlib.import_module``, ``_require`` or
    ``import_optional``)."""
    project = _pyproject()["project"]
    declared = set(_floors(project["dependencies"]))
    for extra in ("models", "catboost", "runtimes"):
        declared |= set(_floors(project["optional-dependencies"][extra]))
    module_of = {"scikit-learn": "sklearn", "xgboost-cpu": "xgboost"}
    importable = {module_of.get(name, name) for name in declared}
    imported = set()
    for path in (ROOT / "trees").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                imported.add(node.module.split(".")[0])
            elif _imports_by_name(node):
                imported.add(node.args[0].value.split(".")[0])
    third_party = {
        name
        for name in imported
        if name not in sys.stdlib_module_names
        and name not in {"trees"}
        and not name.startswith("_")
    }
    assert third_party <= importable, third_party - importable


def _imports_by_name(node):
    """Whether ``node`` is a call of ``import_module`` (or the runtimes' ``_require``) with a
    module's name as a literal."""
    return (
        isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", None))
        in ("import_module", "_require", "import_optional")
        and bool(node.args)
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )
