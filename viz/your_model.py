"""Figures of the "Your own model" page: where an imported model's splits sit on observed values."""

import plotly.graph_objects as go

from .layout import LAYOUT

__all__ = ["feature_flips_figure"]

# The purple the tree drawings give a threshold on an observed value (viz.tree_svg).
ON_VALUE_COLOR = "#9467bd"


def feature_flips_figure(features, flips):
    """Per feature, the model's splits whose threshold is an observed value, and the rows that
    change their prediction at such splits (source 000's rho, per feature).

    Parameters
    ----------
    features : DataFrame
        ``ConditioningAudit.features``: ``feature``, ``splits``, ``splits_on_value``.
    flips : DataFrame
        ``ConditioningAudit.flips``: ``feature``, ``rows_changed`` per node rows sit on.
    """
    order = features.sort_values(["splits_on_value", "splits"], ascending=True)
    changed = flips.groupby("feature")["rows_changed"].sum() if len(flips) else {}
    names = [str(f) for f in order["feature"]]
    figure = go.Figure()
    figure.add_bar(
        y=names, x=order["splits"] - order["splits_on_value"], orientation="h",
        name="splits between observed values", marker_color="#B0BEC5",
        hovertemplate="%{y}: %{x} splits between values<extra></extra>",
    )  # fmt: skip
    figure.add_bar(
        y=names, x=order["splits_on_value"], orientation="h",
        name="splits on an observed value", marker_color=ON_VALUE_COLOR,
        customdata=[int(changed.get(f, 0)) for f in order["feature"]],
        hovertemplate="%{y}: %{x} splits on an observed value; rows whose prediction changes "
        "there: %{customdata}<extra></extra>",
    )  # fmt: skip
    figure.update_layout(
        LAYOUT, barmode="stack", height=max(220, 60 + 28 * len(names)),
        xaxis_title="splits of the model",
        legend={"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"},
    )  # fmt: skip
    return figure
