"""scikit-learn's own test suites of its trees and forests, run verbatim against ``trees``.

scikit-learn ships its tests with the library (``sklearn/tree/tests/test_tree.py`` and
``sklearn/ensemble/tests/test_forest.py``). :func:`load_suite` executes the installed file,
unchanged, as a module of its own while scikit-learn's estimator names (``BINDINGS``) are bound to
the lab's: the file's ``from sklearn.tree import DecisionTreeClassifier`` then imports
``trees.DecisionTreeClassifier``, and so do its module-level tables and parametrisations. The
names are bound only while the file executes: scikit-learn itself is left as it was.

``tests/test_sklearn_tree_suite.py`` and ``tests/test_sklearn_forest_suite.py`` collect a chosen
subset of the loaded tests for CI (:func:`collected_tests`). The whole
files, with the failures counted by cause (``CAUSES``), are run by::

    .venv/bin/python -m tests.sklearn_suites            # both suites
    .venv/bin/python -m tests.sklearn_suites tree       # one of SUITES
    .venv/bin/python -m tests.sklearn_suites forest -v  # and list every failure with its cause

(about 10 minutes for both on two cores, once the kernels are compiled).
"""

import argparse
import collections
import contextlib
import importlib
import importlib.util
import os
import re
import sys
from pathlib import Path

import pytest

import trees

# The installed test files, by the short name the runner takes.
SUITES = {
    "tree": "sklearn.tree.tests.test_tree",
    "forest": "sklearn.ensemble.tests.test_forest",
}

# scikit-learn's estimator names bound to the lab's, by the module the test files import them from.
# Names the lab does not offer (``RandomTreesEmbedding``, the Cython ``Tree`` and its helpers)
# stay scikit-learn's.
BINDINGS = {
    "sklearn.tree": {
        "DecisionTreeClassifier": trees.DecisionTreeClassifier,
        "DecisionTreeRegressor": trees.DecisionTreeRegressor,
        "ExtraTreeClassifier": trees.ExtraTreeClassifier,
        "ExtraTreeRegressor": trees.ExtraTreeRegressor,
    },
    "sklearn.ensemble": {
        "RandomForestClassifier": trees.RandomForestClassifier,
        "RandomForestRegressor": trees.RandomForestRegressor,
        "ExtraTreesClassifier": trees.ExtraTreesClassifier,
        "ExtraTreesRegressor": trees.ExtraTreesRegressor,
    },
}

# The environment variable that makes the two test modules collect every test of the files
# instead of the CI subset (set by :func:`main`).
WHOLE_FILES = "TREES_SKLEARN_SUITES_WHOLE"

# The test module that collects each suite.
TEST_MODULES = {
    suite: Path(__file__).with_name(f"test_sklearn_{suite}_suite.py") for suite in SUITES
}

# Why a test fails, by what its id or its error says: the first cause whose pattern is found in
# "<test id> <error message>" (:func:`cause_of`).
CAUSES = {
    "sparse X or y": r"csr|csc|coo|[Ss]parse",
    "multi-output y": r"multioutput|multi_output|y should be a 1d array|column-vector y",
    "scikit-learn's private code (its Cython tree and criteria, private methods)": (
        r"sklearn\.tree\._tree\.Tree|has incorrect type|object has no attribute '_"
        r"|<sklearn\.tree\._criterion|_check_(n_classes|value_ndarray|node_ndarray)"
    ),
    "a tree_ attribute": r"'Tree' object has no attribute",
    "the forests' container protocol": (
        r"has no len\(\)|not subscriptable|not iterable|no attribute 'estimators?(_samples)?_?'"
    ),
    # The lab's differences by design, before the generic message cause (the report says why):
    # friedman_mse stays a criterion of its own (scikit-learn 1.9 deprecates it; the lab grows
    # the same trees), and a warm start on other data is refused, not warned about.
    "friedman_mse kept, not deprecated": r"friedman_mse_deprecation",
    "a warm start on other data refused": (
        r"warm_start=True adds trees|forest_suite.py::test_class_weight_errors"
    ),
    "an error type, message or warning": r"Regex pattern did not match|DID NOT (RAISE|WARN)",
    # scikit-learn's TREE_UNDEFINED (-2) where a lab leaf's threshold is NaN, by design
    # (``trees/tree/_sklearn_names.py`` says why); test_empty_leaf_infinite_threshold asserts
    # every threshold finite, a leaf's too.
    "a leaf's threshold (NaN, not -2)": (
        r"ACTUAL: -2\n DESIRED: nan|test_empty_leaf_infinite_threshold"
    ),
}
OTHER_CAUSE = "other: results or behaviour differ"


@contextlib.contextmanager
def bound_names(bindings):
    """Within the block, each ``bindings[module][name]`` is the attribute ``name`` of the
    (imported) module ``module``; afterwards the attributes are as they were."""
    saved = []
    # Every module is imported before any name is bound: one module's import may read
    # another's names (``sklearn.ensemble`` reads ``sklearn.tree.DecisionTreeClassifier``'s
    # parameter constraints when it defines its forests), and must read scikit-learn's own.
    modules = {module_name: importlib.import_module(module_name) for module_name in bindings}
    try:
        for module_name, names in bindings.items():
            module = modules[module_name]
            for name, value in names.items():
                saved.append((module, name, getattr(module, name)))
                setattr(module, name, value)
        yield
    finally:
        for module, name, value in reversed(saved):
            setattr(module, name, value)


def load_suite(suite, bindings=None):
    """scikit-learn's installed test file ``SUITES[suite]``, executed with ``bindings``
    (default ``BINDINGS``) as a module of its own, ``sklearn_suite_<suite>``.

    The module is registered in ``sys.modules`` (its tests pickle objects of classes it
    defines) and loaded once per process and bindings.

    Raises
    ------
    KeyError
        When ``suite`` is not one of ``SUITES``.
    """
    if suite not in SUITES:
        raise KeyError(f"Unknown suite {suite!r}: choose one of {sorted(SUITES)}.")
    bindings = BINDINGS if bindings is None else bindings
    name = f"sklearn_suite_{suite}"
    module = sys.modules.get(name)
    if module is not None and module.__suite_bindings__ is bindings:
        return module
    origin = importlib.util.find_spec(SUITES[suite]).origin
    spec = importlib.util.spec_from_file_location(name, origin)
    module = importlib.util.module_from_spec(spec)
    module.__suite_bindings__ = bindings
    sys.modules[name] = module
    with bound_names(bindings):
        spec.loader.exec_module(module)
    return module


def suite_tests(module):
    """The test functions of a loaded suite by name, as pytest collects them."""
    return {
        name: value
        for name, value in vars(module).items()
        if name.startswith("test_") and callable(value)
    }


def collected_tests(suite, ci_tests, slow_tests):
    """The tests of ``suite`` a test module collects: every one when the whole files are asked
    for (``WHOLE_FILES`` set), else those named in ``ci_tests``, with ``slow_tests`` marked slow.

    Raises
    ------
    KeyError
        When a name is not a test of the suite (the installed scikit-learn renamed it).
    """
    tests = suite_tests(load_suite(suite))
    if os.environ.get(WHOLE_FILES):
        return tests
    chosen = {name: tests[name] for name in ci_tests}
    for name in slow_tests:
        chosen[name] = pytest.mark.slow(chosen[name])
    return chosen


@pytest.fixture
def global_random_seed():
    """scikit-learn's fixture of the same name (its ``conftest.py``), at its default seed (the
    test modules import it)."""
    return 42


class Tally:
    """A pytest plugin that keeps each test's outcome and, for a failure, its error message
    (``outcomes``), and the seconds each took (``durations``)."""

    def __init__(self):
        self.outcomes = {}
        self.durations = collections.Counter()

    def pytest_runtest_logreport(self, report):
        self.durations[report.nodeid] += report.duration
        if report.when == "call" or report.outcome != "passed":
            crash = getattr(report.longrepr, "reprcrash", None)
            message = crash.message if crash is not None else str(report.longrepr or "")
            self.outcomes[report.nodeid] = (report.outcome, message)


def cause_of(test_id, message):
    """The cause (a key of ``CAUSES``, or ``OTHER_CAUSE``) of a failed test."""
    text = f"{test_id} {message}"
    return next(
        (cause for cause, pattern in CAUSES.items() if re.search(pattern, text)), OTHER_CAUSE
    )


def suite_report(suite, outcomes, verbose=False):
    """The lines that report a suite's run: passes of the whole, failures by cause (with
    ``verbose``, each failed test under its cause)."""
    mine = {
        test_id: outcome
        for test_id, outcome in outcomes.items()
        if test_id.split("::")[0].endswith(TEST_MODULES[suite].name)
    }
    counts = collections.Counter(outcome for outcome, _ in mine.values())
    lines = [f"{SUITES[suite]}: {counts['passed']} of {len(mine)} pass ({dict(counts)})"]
    failures = collections.defaultdict(list)
    for test_id, (outcome, message) in mine.items():
        if outcome == "failed":
            failures[cause_of(test_id, message)].append((test_id, message))
    for cause in [*CAUSES, OTHER_CAUSE]:
        if failures[cause]:
            lines.append(f"  {len(failures[cause]):4d}  {cause}")
            if verbose:
                lines += [
                    f"          {test_id.split('::')[-1]}: {message.splitlines()[0][:150]}"
                    for test_id, message in failures[cause]
                ]
    return lines


def main(argv=None):
    """Run the whole files of the suites named in ``argv`` (default: every one) and print, per
    suite, how many tests pass and the failures by cause."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.sklearn_suites", description=main.__doc__
    )
    parser.add_argument("suites", nargs="*", metavar="suite", help=f"of {sorted(SUITES)}")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every failure")
    args = parser.parse_args(argv)
    suites = args.suites or sorted(SUITES)
    unknown = sorted(set(suites) - set(SUITES))
    if unknown:
        parser.error(f"unknown suites {unknown}: choose among {sorted(SUITES)}")
    os.environ[WHOLE_FILES] = "1"
    tally = Tally()
    options = ["-q", "--tb=no", "-rN", "-p", "no:cacheprovider", "-o", "addopts="]
    pytest.main([*options, *(str(TEST_MODULES[suite]) for suite in suites)], plugins=[tally])
    for suite in suites:
        print("\n".join(suite_report(suite, tally.outcomes, args.verbose)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
