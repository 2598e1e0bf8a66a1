"""The plans of the Grow page's criteria are prepared ahead (issue 57, item 1).

Each criterion the settings' select box offers is a grower plan of its own (``trees.kernels``).
Such a plan was in no warm-up part: a machine compiled it when a user first chose it, and the
page waited for it (2.4 s on an idle machine that had compiled the tree's plan of that criterion,
28 s at a load average of 4 without). Now the background prepares them right after the parts of
the pages' first views.
"""

import numpy as np
import pytest

from app_pages.grow.grower_state import GrowSettings, tree_params
from app_pages.grow.panels import CRITERIA
from trees import TreeGrower
from trees.kernels import PARTS
from ui import engine
from ui.navigation import PAGES


def _offered_plan(task, criterion):
    """The grower plan of the page's settings with ``criterion``, on numeric data of ``task``."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] > 0).astype(int) if task == "classification" else np.abs(X[:, 1]) + 0.5
    settings = GrowSettings(criterion, "best_first", None, 2, 1, None, 0.3, 0)
    grower = TreeGrower(X, y, tree_params(settings))
    return grower._growth.kernel_plan()


def _first_view_parts():
    return list(dict.fromkeys(n for spec in PAGES for n in (*spec.kernels, *spec.later_kernels)))


@pytest.mark.parametrize("task", list(CRITERIA))
def test_every_criterion_grow_offers_is_prepared_right_after_the_first_views(task):
    order = engine.background_order()
    first = _first_view_parts()
    # The first views' parts, then the grower's regression and its other criteria.
    early = order[: len(first) + 2]
    assert set(first) <= set(early)
    for criterion in CRITERIA[task]:
        step = ("grower", _offered_plan(task, criterion))
        holders = [name for name, steps in PARTS.items() if step in steps]
        assert holders, f"no warm-up part prepares the grower's {criterion} plan"
        assert any(name in early for name in holders), (criterion, holders)
