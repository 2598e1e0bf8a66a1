"""The conditioning page's settings: which are in force, why, and how they follow the dataset.

Source 000 selected each model's setting per dataset (Table 1). On one of its
40 datasets the page uses that setting by default, and follows the dataset:
switching to bupa turns "use the paper's setting" on (:func:`follow_dataset`),
so an experiment never silently runs another model than the paper's. On any
other dataset the page says so and uses the user's settings.

The engine, the tie-break and the comparison precision are options of the
fit, and each is itself a source of the bias the page shows:

* the tie-break decides which of two equally good features a node splits on,
  so which thresholds a tree has at all (scikit-learn draws a random feature
  order per node);
* the precision decides whether a decimal value equals a midpoint threshold
  (in float32, as scikit-learn compares, 2.35 is not (2.3 + 2.4) / 2);
* the sums of a regression tree: centred on the mean, a node whose target is
  constant is a leaf; raw, as scikit-learn sums, rounding can leave such a
  node's variance above zero and it is split at a threshold rounding picks.
"""

from dataclasses import dataclass

import streamlit as st

from app_pages.conditioning import keys
from datasets.bundled import PAPER_SETTINGS
from datasets.source000 import paper_settings, settings_table, table1
from trees.conditioning import (
    LIBRARY_ENGINES,
    PACKAGE_ENGINES,
    PAPER_RANDOM_STATE,
    missing_library_engines,
)
from ui import share

__all__ = [
    "CONTROL_ENGINES",
    "DATASET_DEPENDENT",
    "ENGINES",
    "LIBRARY_ENGINE_TEXT",
    "LIBRARY_SETTINGS",
    "TEST_WORDS",
    "PAPER_TREES",
    "PRECISIONS",
    "RHO_K",
    "SIGNIFICANCE",
    "TABLE_ENGINES",
    "TIE_BREAKS",
    "VARIANCE_SUMS",
    "Settings",
    "engine_chip",
    "follow_dataset",
    "in_paper",
    "missing_engines_text",
    "paper_setting_text",
]

# Option -> the words a page shows for it.
ENGINES = {
    "trees": "this package's trees",
    "extra-trees": "extra trees: random thresholds, the control",
    "sklearn": "scikit-learn's trees (the paper's pipeline)",
}
# The engines whose thresholds are drawn, never on an observed value: the bias's control.
CONTROL_ENGINES = ("extra-trees",)
# The engines of other libraries (their ensembles, "forest" only): the Tables 2-3 view runs them.
LIBRARY_ENGINE_TEXT = {name: described for name, (_, _, described) in LIBRARY_ENGINES.items()}
TABLE_ENGINES = {**ENGINES, **LIBRARY_ENGINE_TEXT}
LIBRARY_SETTINGS = {
    "defaults": "the library's defaults",
    "chosen": "number of trees and depth chosen per dataset (the paper's rule)",
}
# The threshold tests by name, in words (a run's scored tests).
TEST_WORDS = {"<=": "≤", "<": "<", "average": "their average", "half": "half the trees each"}


def engine_chip(engine):
    """An engine's name in the picker: the package's own in words, a library's by its name
    (said "not installed" when its library is not: its saved runs are still shown)."""
    if engine in missing_library_engines():
        return f"{engine} (not installed)"
    if engine in LIBRARY_ENGINE_TEXT:
        return f"{engine} (its own ensemble)"
    return f"{engine}: {ENGINES[engine]}"


def missing_engines_text():
    """The library engines that cannot run here and the command installing their library, in
    one sentence, or "" when every one can (CatBoost is optional: requirements-catboost.txt)."""
    missing = missing_library_engines()
    if not missing:
        return ""
    commands = " ".join(f"`{c}`" for c in dict.fromkeys(missing.values()))
    engines = f"the engine{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
    return f"Not installed here: {engines}. Install with {commands}, then start the app again."


TIE_BREAKS = {
    "first": "the feature listed first",
    "random": "a random feature order per node (as scikit-learn)",
}
PRECISIONS = {
    "float64": "float64: decimals compared exactly",
    "float32": "float32: values rounded first (as scikit-learn)",
}
VARIANCE_SUMS = {
    "centred": "centred on the mean: a constant target ends a branch",
    "raw": "raw, as scikit-learn: rounding can split a constant target",
}
SIGNIFICANCE = {
    "paper": "the paper's rule: the smaller one-sided p-value is below 0.05",
    "two-sided": "the two-sided p-value is below 0.05 (stricter)",
}
RHO_K = {
    "training rows": "each fold's training rows (the paper's count)",
    "all rows": "every observed value of the dataset",
}
PAPER_TREES = 100  # source 000's forests: scikit-learn's default of 100 trees
# Widgets whose values only make sense for one dataset.
DATASET_DEPENDENT = (keys.FX, keys.FY, keys.CLASS, keys.ROW)


def in_paper(name):
    """Whether ``name`` is one of source 000's 40 datasets."""
    return name in PAPER_SETTINGS


def follow_dataset(data_key, name):
    """Make the settings that depend on the dataset follow it; True when it changed.

    The first time the page runs in a session nothing is reset (a shared link's
    values apply); afterwards, a new dataset turns "use the paper's setting" on
    exactly when the dataset (``name``) is one of the paper's, and the axes, the
    class and the example row start from their defaults.
    """
    seen = st.session_state.get(keys.DATA_SEEN)
    st.session_state[keys.DATA_SEEN] = data_key
    if seen is None or seen == data_key:
        return False
    share.forget(*DATASET_DEPENDENT)
    # Set, not forgotten: a widget whose key is dropped keeps the old state in the browser,
    # which then showed "off" while the paper's setting was in force (issue 34, item 5).
    share.set_shared(keys.PAPER, in_paper(name))
    return True


def _printed(name, model):
    rows = table1()
    row = rows[(rows["dataset"] == name) & (rows["model"] == model)]
    if row.empty:
        return None
    symbol = {"alpha": "α", "beta": "β"}[row.iloc[0]["parameter"]]
    printed = row.iloc[0]["printed"].replace("inf", "∞")
    return f"{symbol} = {printed}"


def paper_setting_text(name, model):
    """The paper's setting for a dataset and model, in words, with where it comes from."""
    settings = paper_settings(name, model)
    if "min_samples_leaf" in settings:
        what = f"at least {settings['min_samples_leaf']:.1%} of the rows in every leaf"
    elif settings.get("max_depth") is None:
        what = "no depth limit"
    else:
        what = f"maximum depth {settings['max_depth']}"
    table = settings_table()
    origin = table[(table["dataset"] == name) & (table["model"] == model)].iloc[0]["origin"]
    if origin == "Table 1":
        return f"{what} (Table 1 prints {_printed(name, model)})"
    return f"{what} (Table 1 has no row for {name}: the paper's selection, rerun here)"


def _own_text(max_depth, min_samples_leaf):
    depth = "no depth limit" if max_depth is None else f"maximum depth {max_depth}"
    return (
        f"{depth}, at least {min_samples_leaf} row{'s' if min_samples_leaf != 1 else ''} per leaf"
    )


@dataclass(frozen=True)
class Settings:
    """The settings in force on the page (read from its widgets)."""

    dataset: str
    use_paper: bool
    max_depth: object
    min_samples_leaf: int
    n_trees: int
    engine: str = "trees"
    tie_break: str = "first"
    threshold_dtype: str = "float64"
    variance_sums: str = "centred"
    significance: str = "paper"
    rho_k_against: str = "training rows"

    @property
    def paper_available(self):
        return in_paper(self.dataset)

    @property
    def paper_in_force(self):
        return self.use_paper and self.paper_available

    def engine_options(self):
        """The fit's tie-break, precision and regression sums (this package only: scikit-learn
        has its own; a classification study leaves the sums out, ``trees.tasks.make_model``)."""
        if self.engine not in PACKAGE_ENGINES:
            return {}
        return {
            "tie_break": self.tie_break,
            "threshold_dtype": self.threshold_dtype,
            "variance_sums": self.variance_sums,
        }

    def stopping(self, model):
        """The stopping rule of ``model`` ("tree" or "forest"): the paper's or the user's."""
        if self.paper_in_force:
            return {
                k: v for k, v in paper_settings(self.dataset, model).items() if k != "n_estimators"
            }
        return {"max_depth": self.max_depth, "min_samples_leaf": int(self.min_samples_leaf)}

    def model_params(self, model, n_trees=None):
        """Estimator parameters of ``model``: stopping rule, forest size, engine options."""
        params = self.stopping(model)
        if model == "forest":
            params["n_estimators"] = int(n_trees or self.n_trees)
        return {**params, **self.engine_options()}

    def origin(self, model):
        """Which stopping rule ``model`` uses, and why, in words."""
        if self.paper_in_force:
            return (
                f"the paper's setting for {self.dataset}: {paper_setting_text(self.dataset, model)}"
            )
        own = _own_text(self.max_depth, self.min_samples_leaf)
        if self.paper_available:
            return f"your settings ({own}); the paper's for {self.dataset} are switched off"
        return f"your settings ({own}): {self.dataset} is not one of the paper's 40 datasets"

    def fit_text(self):
        """How the trees are fitted, in words."""
        if self.engine == "sklearn":
            return (
                f"{ENGINES['sklearn']}, random_state={PAPER_RANDOM_STATE}; ties between features go "
                "to a random feature order per node, values compared in float32, regression "
                "targets summed raw"
            )
        return (
            f"{ENGINES[self.engine]}, random_state={PAPER_RANDOM_STATE}; ties go to "
            f"{TIE_BREAKS[self.tie_break]}; {PRECISIONS[self.threshold_dtype]}; regression "
            f"targets {VARIANCE_SUMS[self.variance_sums]}"
        )

    def in_force(self):
        """Every setting in force, in plain words (the settings box and the page's summary)."""
        return {
            "dataset": self.dataset,
            "tree": self.origin("tree"),
            "forest": f"{self.origin('forest')}; {self.n_trees} trees",
            "fitted by": self.fit_text(),
            "significance": SIGNIFICANCE[self.significance],
            "ρ_k (the folds' share of splits on a lattice value) counted against": RHO_K[
                self.rho_k_against
            ],
        }
