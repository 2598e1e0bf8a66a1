"""The cultivated-forest page's settings: the data, the variant and its module settings, the axes.

``crf_settings`` and ``surface_axes`` are widgets drawn where the caller opened the settings box;
``page_rows`` picks the rows the page fits on, without Streamlit widgets.
"""

from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from datasets import generate
from datasets.source002 import CATALOG_NAMES, TABLE_1
from trees.ensemble import VARIANTS
from ui import glossary, share
from ui.cached import sample
from ui.markdown import plain

__all__ = [
    "MAX_ROWS",
    "VARIANT_WORDS",
    "CultivatedSettings",
    "PageRows",
    "crf_settings",
    "page_rows",
    "surface_axes",
]

VARIANT_WORDS = {
    "full": "CRF-full (both modules)",
    "split": "CRF-split (robust splits only)",
    "option": "CRF-option (option modules only)",
    "shallow": "CRF-shallow (both, depth 6)",
}
MAX_ROWS = 2_000  # source 002's datasets are small; larger data is sampled (said on the page)


@dataclass(frozen=True)
class CultivatedSettings:
    """The settings box's values: simulated data or not, the variant, its depth, η₀ and k."""

    use_example: bool
    variant: str
    depth: int
    eta0: float
    k_scale: float

    @property
    def key(self):
        """The variant and its settings, as the caches key them."""
        return (self.variant, self.depth, self.eta0, self.k_scale)


@dataclass(frozen=True)
class PageRows:
    """The rows the page fits on, their feature names, what to call them and how the caches key them.

    ``paper_name`` is the dataset's name in source 002's Table 1 (None for the simulated data
    or a dataset the paper does not have), ``paper_row`` its row of the table.
    """

    X: np.ndarray
    y: np.ndarray
    names: list
    source: str
    key: Any
    example: bool
    subsampled: bool = False
    paper_name: str | None = None
    paper_row: Any = None


def crf_settings(data_name, binary):
    """The settings box's widgets; the simulated data is the only choice for data with more classes."""
    s1, s2 = st.columns(2)
    s3, s4, s5 = st.columns(3)
    use_example = share.toggle(
        s1,
        "Simulated data of Supplement B",
        value=True,
        key="crf_example",
        disabled=not binary,
        help="Two Gaussian classes centred at (-1, -1) and (1, 1), SD 0.75, 300 rows: the paper's Figure 3.",
    )
    variant = share.selectbox(
        s2, "Variant", list(VARIANTS), key="crf_variant", format_func=VARIANT_WORDS.get
    )
    depth = share.number_input(
        s3, "Maximum depth", 1, 30, VARIANTS[variant]["max_depth"], key=f"crf_depth_{variant}"
    )
    eta0 = share.number_input(
        s4,
        "η₀ (option tolerance)",
        0.0,
        2.0,
        0.3,
        0.05,
        key="crf_eta",
        help=glossary.explain("η₀ (eta0)"),
    )
    k_scale = share.number_input(
        s5,
        "k (neighbourhood), × √w",
        0.1,
        5.0,
        1.0,
        0.1,
        key="crf_k",
        help="k, the neighbourhood's size: the robust split module takes k rows of weight on each "
        "side of the best threshold. Set as a multiple of √w, the square root of the node's weight "
        "(the sum of its rows' weights); 1 is the paper's k = √w.",
    )
    if not binary:
        st.caption(
            f"{plain(data_name)} is not a two-class dataset, and cultivated forests are defined for two classes "
            "(source 002): the page uses the simulated data."
        )
    return CultivatedSettings(use_example, variant, int(depth), float(eta0), float(k_scale))


def page_rows(data, data_key, use_example):
    """The simulated data of Supplement B, or (when asked for) at most ``MAX_ROWS`` of ``data``'s rows."""
    if use_example:
        example = generate("CRF simulation", n_samples=300)
        X, y = example.arrays()
        return PageRows(
            X, y, list(example.X.columns), "the simulated data", "CRF simulation, 300 rows", True
        )
    X, y, subsampled = sample(data_key, MAX_ROWS, 0, *data.arrays())
    paper_name = CATALOG_NAMES.get(data.name)
    return PageRows(
        X,
        y,
        [str(c) for c in data.X.columns],
        data.name,
        (data_key, MAX_ROWS),
        False,
        subsampled,
        paper_name,
        TABLE_1.get(paper_name or ""),
    )


def surface_axes(names):
    """The surfaces' two features, as column indices."""
    a1, a2, _ = st.columns([2, 2, 3])
    fx = share.selectbox(
        a1,
        "Horizontal axis",
        list(range(len(names))),
        0,
        key="crf_fx",
        format_func=names.__getitem__,
    )
    fy = share.selectbox(
        a2,
        "Vertical axis",
        list(range(len(names))),
        1,
        key="crf_fy",
        format_func=names.__getitem__,
    )
    return int(fx), int(fy)
