"""The pages of the app, in menu order. The browser tests read this list too."""

from dataclasses import dataclass

# The most classes the study pages take (``ui.target_fit``); the bundled data have at most 10.
MAX_STUDY_CLASSES = 20

__all__ = ["PAGES", "PageSpec", "spec_for"]


@dataclass(frozen=True)
class PageSpec:
    """One page: its script, title, icon and URL path, and the most classes it studies.

    Each page is a package of its own under ``app_pages/`` (``app_pages/<name>/<name>.py``,
    the script, beside the modules only that page uses); ``url_path`` is the
    page's address (``/grow``), which links and bookmarks keep. ``max_classes``:
    the most classes of a classification target the page takes (None: any);
    the frame says so instead of running it on more (``ui.target_fit``). ``kernels``: the
    parts of the compiled kernels its first view runs (``trees.kernels.PARTS``), prepared
    before it on a machine that never compiled them (``ui.engine``).
    """

    path: str
    title: str
    icon: str
    url_path: str
    section: str
    default: bool = False
    max_classes: int | None = MAX_STUDY_CLASSES
    kernels: tuple = ("tree",)


PAGES = [
    PageSpec(
        "app_pages/home/home.py",
        "Home",
        ":material/home:",
        "home",
        "Start",
        default=True,
        max_classes=None,
    ),  # fmt: skip
    PageSpec(
        "app_pages/first_lesson/first_lesson.py",
        "A first lesson",
        ":material/school:",
        "first_lesson",
        "Start",
        max_classes=None,  # its own ten-row table: the loaded data plays no part
        kernels=("tree", "grower"),
    ),
    PageSpec(
        "app_pages/data/data.py",
        "Data",
        ":material/table_chart:",
        "data",
        "Start",
        max_classes=None,
        kernels=(),
    ),  # fmt: skip
    PageSpec(
        "app_pages/grow/grow.py",
        "Grow a tree step by step",
        ":material/account_tree:",
        "grow",
        "Explore",
        kernels=("tree", "grower", "walks"),
    ),
    PageSpec(
        "app_pages/staircase/staircase.py",
        "Staircase and depth",
        ":material/stairs:",
        "staircase",
        "Explore",
        kernels=("tree", "walks", "regression"),
    ),
    PageSpec(
        "app_pages/instability/instability.py",
        "Tree instability",
        ":material/shuffle:",
        "instability",
        "Explore",
        kernels=("tree", "walks"),
    ),
    PageSpec(
        "app_pages/evaluate/evaluate.py",
        "Evaluate and tune",
        ":material/tune:",
        "evaluate",
        "Explore",
        kernels=("tree", "walks", "forest"),
    ),
    PageSpec(
        "app_pages/cultivated/cultivated.py",
        "Cultivated random forests",
        ":material/forest:",
        "cultivated",
        "Remedies",
        max_classes=None,  # two-class data only; on other data it shows its simulated data
        kernels=("tree", "walks", "forest"),
    ),
    PageSpec(
        "app_pages/conditioning/conditioning.py",
        "The conditioning bias",
        ":material/compare_arrows:",
        "conditioning",
        "Biases",
        kernels=("tree", "walks", "forest"),
    ),
    PageSpec(
        "app_pages/your_model/your_model.py",
        "Your own model",
        ":material/upload_file:",
        "your_model",
        "Biases",
        kernels=("interop",),
    ),
    PageSpec(
        "app_pages/split_bias/split_bias.py",
        "Split-variable selection bias",
        ":material/balance:",
        "split_bias",
        "Biases",
        max_classes=None,  # simulated data; its one study on the user's data fits stumps
        kernels=(),
    ),
]


def spec_for(url_path):
    """The :class:`PageSpec` of the page at ``url_path`` (Streamlit gives the default page "")."""
    return next(p for p in PAGES if p.url_path == url_path or (p.default and not url_path))
