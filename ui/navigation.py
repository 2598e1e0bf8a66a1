"""The pages of the app, in menu order. The browser tests read this list too."""

from dataclasses import dataclass

__all__ = ["PAGES", "PageSpec"]


@dataclass(frozen=True)
class PageSpec:
    """One page: its script, title, icon and URL path.

    The URL path must be the script's file name without ``.py``: on a fresh
    server Streamlit first resolves a URL against the files of ``pages/``
    (see ``ui.shell``), and reports an unknown page otherwise.
    """

    path: str
    title: str
    icon: str
    url_path: str
    section: str
    default: bool = False


PAGES = [
    PageSpec("pages/home.py", "Home", ":material/home:", "home", "Start", default=True),
    PageSpec("pages/data.py", "Data", ":material/table_chart:", "data", "Start"),
    PageSpec(
        "pages/grow.py", "Grow a tree step by step", ":material/account_tree:", "grow", "Explore"
    ),
    PageSpec(
        "pages/staircase.py", "Staircase and depth", ":material/stairs:", "staircase", "Explore"
    ),
    PageSpec(
        "pages/instability.py", "Tree instability", ":material/shuffle:", "instability", "Explore"
    ),
    PageSpec("pages/evaluate.py", "Evaluate and tune", ":material/tune:", "evaluate", "Explore"),
    PageSpec(
        "pages/cultivated.py",
        "Cultivated random forests",
        ":material/forest:",
        "cultivated",
        "Remedies",
    ),
    PageSpec(
        "pages/conditioning.py",
        "The conditioning bias",
        ":material/compare_arrows:",
        "conditioning",
        "Biases",
    ),
    PageSpec(
        "pages/split_bias.py",
        "Split-variable selection bias",
        ":material/balance:",
        "split_bias",
        "Biases",
    ),
]
