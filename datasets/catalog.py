"""The catalogue of named datasets, grouped as the Data page shows them."""

from functools import lru_cache

import pandas as pd

from ._record import DataError, format_value
from .bundled import PAPER_CLASSIFICATION, PAPER_REGRESSION, SKLEARN_TOY, load_paper, load_toy
from .mushroom import REPORT_GROUP, load_secondary_mushroom
from .synthetic import GENERATORS, generate

__all__ = ["GROUPS", "catalog", "load"]

# Datasets bundled as files, by name -> loader.
BUNDLED_FILES = {"secondary-mushroom": load_secondary_mushroom}

GROUPS = {
    "Synthetic": list(GENERATORS),
    "scikit-learn toy datasets": list(SKLEARN_TOY),
    "Conditioning-bias study: classification": list(PAPER_CLASSIFICATION),
    "Conditioning-bias study: regression": list(PAPER_REGRESSION),
    REPORT_GROUP: list(BUNDLED_FILES),
}


def _group_of(name):
    for group, names in GROUPS.items():
        if name in names:
            return group
    raise DataError(f"There is no dataset called {format_value(name)} in the catalogue.")


@lru_cache(maxsize=64)
def _load_cached(name):
    group = _group_of(name)
    if group == "Synthetic":
        return generate(name)
    if group == "scikit-learn toy datasets":
        return load_toy(name)
    if name in BUNDLED_FILES:
        return BUNDLED_FILES[name]()
    return load_paper(name)


def load(name):
    """The named dataset (synthetic ones with their default parameters).

    Returns a fresh copy each time, so callers may modify it.
    """
    dataset = _load_cached(name)
    return type(dataset)(
        name=dataset.name,
        X=dataset.X.copy(),
        y=dataset.y.copy(),
        task=dataset.task,
        description=dataset.description,
        source=dataset.source,
        group=dataset.group,
        notes=list(dataset.notes),
        categories={column: list(names) for column, names in dataset.categories.items()},
    )


def catalog():
    """Every named dataset with its group, task and size.

    Returns
    -------
    pandas.DataFrame
        Columns ``name``, ``group``, ``task``, ``rows``, ``features``.
    """
    rows = []
    for group, names in GROUPS.items():
        for name in names:
            dataset = _load_cached(name)
            rows.append(
                {
                    "name": name,
                    "group": group,
                    "task": dataset.task,
                    "rows": dataset.n_rows,
                    "features": dataset.n_features,
                }
            )
    return pd.DataFrame(rows)
