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
    dask = _floors(project["optional-dependencies"]["dask"])
    runtimes = _floors(project["optional-dependencies"]["runtimes"])
    assert package, "pyproject.toml declares no dependencies"
    assert {name: app.get(name) for name in package} == package
    assert dask == _floors((ROOT / "requirements-dask.txt").read_text().splitlines())
    assert runtimes == _floors((ROOT / "requirements-runtimes.txt").read_text().splitlines())


def test_every_import_of_trees_is_declared():
    """The third-party modules ``trees`` imports are all dependencies of the package
    (or of its "models" and "runtimes" extras, which ``trees.interop`` imports lazily, some
    by name through ``importlib.import_module``)."""
    project = _pyproject()["project"]
    declared = set(_floors(project["dependencies"]))
    for extra in ("models", "runtimes"):
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
        in ("import_module", "_require")
        and bool(node.args)
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )
