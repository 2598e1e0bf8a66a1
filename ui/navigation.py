"""The pages of the app, in menu order. The browser tests read this list too."""

from dataclasses import dataclass

__all__ = ["PAGES", "PageSpec"]


@dataclass(frozen=True)
class PageSpec:
    """One page: its script, title, icon and URL path.

    Each page is a package of its own under ``app_pages/`` (``app_pages/<name>/<name>.py``,
    the script, beside the modules only that page uses); ``url_path`` is the
    page's address (``/grow``), which links and bookmarks keep.
    """

    path: str
    title: str
    icon: str
    url_path: str
    section: str
    default: bool = False


PAGES = [
    PageSpec("app_pages/home/home.py", "Home", ":material/home:", "home", "Start", default=True),
    PageSpec("app_pages/data/data.py", "Data", ":material/table_chart:", "data", "Start"),
    PageSpec(
        "app_pages/grow/grow.py",
        "Grow a tree step by step",
        ":material/account_tree:",
        "grow",
        "Explore",
    ),
    PageSpec(
        "app_pages/staircase/staircase.py",
        "Staircase and depth",
        ":material/stairs:",
        "staircase",
        "Explore",
    ),
    PageSpec(
        "app_pages/instability/instability.py",
        "Tree instability",
        ":material/shuffle:",
        "instability",
        "Explore",
    ),
    PageSpec(
        "app_pages/evaluate/evaluate.py",
        "Evaluate and tune",
        ":material/tune:",
        "evaluate",
        "Explore",
    ),
    PageSpec(
        "app_pages/cultivated/cultivated.py",
        "Cultivated random forests",
        ":material/forest:",
        "cultivated",
        "Remedies",
    ),
    PageSpec(
        "app_pages/conditioning/conditioning.py",
        "The conditioning bias",
        ":material/compare_arrows:",
        "conditioning",
        "Biases",
    ),
    PageSpec(
        "app_pages/your_model/your_model.py",
        "Your own model",
        ":material/upload_file:",
        "your_model",
        "Biases",
    ),
    PageSpec(
        "app_pages/split_bias/split_bias.py",
        "Split-variable selection bias",
        ":material/balance:",
        "split_bias",
        "Biases",
    ),
]
