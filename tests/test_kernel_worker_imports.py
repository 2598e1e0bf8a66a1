"""The compile worker starts light (issue 56: the compiling's peak memory <= 400 MB).

A worker imports the kernels and the description of the parts, not the estimators: no
scikit-learn, no pandas, and of SciPy only the package itself, which numba imports to check
its version. A plan's step drives the growth below the estimators (``trees.tree._warmup``,
``trees.ensemble._warmup``) with the types a fit gives, so a fit in another process afterwards
loads the plan's kernels from numba's cache instead of compiling them.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import COMPILE_LISTENER

ROOT = Path(__file__).resolve().parent.parent

_IMPORTS = """
import json, sys
import numba
def family(name):
    return sorted(m for m in sys.modules if m == name or m.startswith(name + "."))
numba_scipy = family("scipy")  # numba's own check of SciPy's version
import lab.kernel_worker
from trees.kernels import PARTS
print(json.dumps({"numba_scipy": numba_scipy, "scipy": family("scipy"),
                  "others": family("sklearn") + family("pandas") + family("streamlit")}))
"""


def _run(code, env=None):
    output = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                            capture_output=True, text=True, timeout=1800).stdout  # fmt: skip
    return json.loads(output.strip().splitlines()[-1])


def test_the_worker_imports_no_estimator_library():
    imported = _run(_IMPORTS)
    assert imported["others"] == []
    assert imported["scipy"] == imported["numba_scipy"]


def test_the_package_imports_the_estimators_when_first_asked():
    """``trees``, ``trees.tree``, ``trees.ensemble``, ``trees.interop`` and ``lab`` give their
    names on first use (their modules' ``__getattr__``): the same objects as their homes', listed
    by ``dir``."""
    import lab
    import trees
    from lab import store
    from trees import ensemble, interop, tree
    from trees.ensemble import _forest
    from trees.interop import _audit
    from trees.tree import _classes

    assert (
        trees.DecisionTreeClassifier
        is tree.DecisionTreeClassifier
        is _classes.DecisionTreeClassifier
    )
    assert (
        trees.RandomForestClassifier
        is ensemble.RandomForestClassifier
        is _forest.RandomForestClassifier
    )
    assert lab.default_store is store.default_store
    assert trees.tuning.complexity_curve is trees.complexity_curve
    assert interop.audit_conditioning is _audit.audit_conditioning
    for package in (trees, tree, ensemble, interop, lab):
        assert set(package.__all__) <= set(dir(package))
        with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
            package.no_such_name  # noqa: B018


_PLANS = """
import json, sys
from trees.kernels import warm_up_plan
from trees.tree._warmup import plan_of
for kind, plan in [("grow", plan_of("gini")), ("grow", plan_of("squared_error")),
                   ("forest", plan_of("gini", draw=True)), ("forest", plan_of("squared_error")),
                   ("sparse", plan_of("gini"))]:
    warm_up_plan(kind, plan)
print(json.dumps(sorted(m for m in ("sklearn", "pandas") if m in sys.modules)))
"""

_PARTS = """
import json
from lab.kernels import KernelPreparation
preparation = KernelPreparation()
requests = preparation.request_parts(%r)
done = preparation.wait(requests)
preparation.close()
print(json.dumps(done))
"""

_FITS = (
    COMPILE_LISTENER
    + """
from trees import (DecisionTreeClassifier, DecisionTreeRegressor, RandomForestClassifier,
                   RandomForestRegressor)
rng = np.random.default_rng(0)
X = rng.normal(size=(200, 5))
y, value = (X[:, 0] > 0).astype(int), X[:, 1]
DecisionTreeClassifier().fit(X, y).predict_proba(X)
DecisionTreeRegressor().fit(X, value).predict(X)
RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y).predict_proba(X)
RandomForestRegressor(n_estimators=5, random_state=0).fit(X, value).predict(X)
from scipy import sparse
DecisionTreeClassifier().fit(sparse.csc_matrix(np.where(X > 0.5, X, 0.0)), y)
print(json.dumps(sorted(compiled)))
"""
)


@pytest.mark.slow
def test_the_workers_compile_what_the_fits_then_load(tmp_path):
    """On an empty kernel cache: the plans' steps alone, in a process without the estimators;
    then, in a fresh process, the fits those plans serve (a tree and a forest of each task, a
    classifier on a sparse matrix)
    compile no entry kernel: the drivers gave the types a fit gives, so numba found the same
    signatures under the same cache keys. Then the parts those fits need, prepared by the
    app's workers: the fits and their predictions compile nothing at all."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    assert _run(_PLANS, env) == []
    compiled = _run(_FITS, env)
    assert [name for name in compiled if "_plan_" in name] == [], compiled  # the entries
    parts = ["tree", "walks", "draws", "forest", "regression", "regression forest"]
    assert _run(_PARTS % parts, env)
    assert _run(_FITS, env) == []


_INTEROP_STEP = """
import json, sys
from trees.kernels import PARTS
for step in PARTS["interop"]:
    step()
print(json.dumps(sorted(m for m in ("sklearn", "pandas") if m in sys.modules)))
"""

_AUDIT = (
    COMPILE_LISTENER
    + """
from sklearn.ensemble import RandomForestClassifier
from trees.interop import audit_conditioning, from_model, threshold_probes
X = np.repeat(np.arange(8, dtype=np.float64), 2).reshape(-1, 2)
y = (X[:, 0] > 3).astype(int)
forest = RandomForestClassifier(n_estimators=3, max_depth=3, random_state=0).fit(X, y)
probes = threshold_probes(forest, X)
audit = audit_conditioning(forest, probes[probes.attrs["feature_columns"]].to_numpy())
audit.flips
from_model(forest).predict_proba(X)
print(json.dumps(sorted(compiled)))
"""
)


def test_the_interop_step_imports_no_estimator_library():
    """The other libraries' walks are warmed on plain arrays (``trees.interop._warmup``): the
    step, and the package's modules below its public names, import no scikit-learn or pandas."""
    assert _run(_INTEROP_STEP) == []


@pytest.mark.slow
def test_the_interop_step_compiles_what_an_audit_then_loads(tmp_path):
    """On an empty kernel cache: the interop step in a process without the estimators, then a
    scikit-learn forest's audit, probes and prediction in a fresh one, which compile nothing:
    the step gave the kernels the types an imported model gives them."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    assert _run(_INTEROP_STEP, env) == []
    assert _run(_AUDIT, env) == []
