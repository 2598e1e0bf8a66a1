"""The Data page's "Two features" tab: a scatter of two columns, a part its widgets rerun alone
(``ui.fragments``): choosing an axis redraws the scatter, not the page's table and sidebar."""

import streamlit as st

from ui import figures, fragments, share
from ui.markdown import plain
from viz.data_figures import scatter_figure

__all__ = ["pair_part"]


@fragments.fragment
def pair_part(data, lattice):
    """Two of ``data``'s columns against each other; ``lattice``: {column: whether its values
    are a lattice}, which turns the jitter on by default."""
    columns = list(data.X.columns)
    if len(columns) < 2:
        st.info(
            f"{plain(data.name)} has a single feature after preprocessing: there is no pair to plot."
        )
        return
    a1, a2, a3 = st.columns([2, 2, 1], vertical_alignment="bottom")
    fx = share.selectbox(a1, "Horizontal axis", columns, 0, key="data_scatter_x")
    fy = share.selectbox(a2, "Vertical axis", columns, 1, key="data_scatter_y")
    jitter = share.checkbox(
        a3,
        "Jitter",
        value=bool(lattice.get(fx) or lattice.get(fy)),
        key="data_scatter_jitter",
        help="Moves points slightly so rows with equal values (a lattice) do not hide each other.",
    )
    figure, shown = scatter_figure(data, fx, fy, jitter=jitter)
    figures.chart(figure, key="data_scatter_figure")
    if shown < data.n_rows:
        st.caption(f"A random {shown:,} of the {data.n_rows:,} rows are drawn.")
