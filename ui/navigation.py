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
    before it on a machine that never compiled them (``ui.engine``); only those: a part its
    first view does not run (a tab not open, the forest of a regression dataset) would keep
    the page waiting for kernels it does not show, and is prepared when it is first used,
    or in the background before that. ``later_kernels``: the parts of a part of its first
    view that the page draws once they are ready, answering without them meanwhile (the
    random forest, a plan compiled after the tree's: ``ui.engine.show_waiting``); the worker
    takes them right after ``kernels``.

    ``prefixes``: every widget and session key the page defines (in its room,
    ``app_pages/<name>/keys.py`` or at the widget) starts with one of them;
    ``tests/test_architecture.py`` holds each room to its own. The frame reaches
    the few keys of a page it needs by their names on the page (:meth:`key`):
    presenter mode opens the tab a guide's step talks about (``"tab"``, on a
    page with ``tabs``) and sets the settings the step names.
    """

    path: str
    title: str
    icon: str
    url_path: str
    section: str
    prefixes: tuple
    default: bool = False
    max_classes: int | None = MAX_STUDY_CLASSES
    kernels: tuple = ("tree",)
    later_kernels: tuple = ()
    tabs: bool = True

    def key(self, name):
        """The page's session key ``name`` (its first prefix, then the name: ``"grow_tab"``)."""
        return self.prefixes[0] + name


PAGES = [
    PageSpec(
        "app_pages/home/home.py",
        "Home",
        ":material/home:",
        "home",
        "Start",
        ("home_",),
        default=True,
        max_classes=None,
        tabs=False,
    ),
    PageSpec(
        "app_pages/first_lesson/first_lesson.py",
        "A first lesson",
        ":material/school:",
        "first_lesson",
        "Start",
        ("lesson_",),
        max_classes=None,  # its own ten-row table: the loaded data plays no part
        tabs=False,
        kernels=("tree", "grower"),
    ),
    PageSpec(
        "app_pages/data/data.py",
        "Data",
        ":material/table_chart:",
        "data",
        "Start",
        ("data_", "prep_"),
        max_classes=None,
        kernels=(),
    ),
    PageSpec(
        "app_pages/grow/grow.py",
        "Grow a tree step by step",
        ":material/account_tree:",
        "grow",
        "Explore",
        ("grow_",),
        kernels=("tree", "grower", "walks"),
    ),
    PageSpec(
        "app_pages/staircase/staircase.py",
        "Staircase and depth",
        ":material/stairs:",
        "staircase",
        "Explore",
        ("stair_",),
        kernels=("tree", "walks", "regression"),
    ),
    PageSpec(
        "app_pages/instability/instability.py",
        "Tree instability",
        ":material/shuffle:",
        "instability",
        "Explore",
        ("inst_",),
        kernels=("tree", "walks"),
    ),
    PageSpec(
        "app_pages/evaluate/evaluate.py",
        "Evaluate and tune",
        ":material/tune:",
        "evaluate",
        "Explore",
        ("eval_",),
        kernels=("tree", "walks"),
        later_kernels=("draws", "forest"),  # the test split's ROC curve of the forest
    ),
    PageSpec(
        "app_pages/cultivated/cultivated.py",
        "Cultivated random forests",
        ":material/forest:",
        "cultivated",
        "Remedies",
        ("crf_",),
        max_classes=None,  # two-class data only; on other data it shows its simulated data
        kernels=("tree", "walks", "cultivated"),
        later_kernels=("draws", "forest"),  # the benchmark forest's surface
    ),
    PageSpec(
        "app_pages/conditioning/conditioning.py",
        "The conditioning bias",
        ":material/compare_arrows:",
        "conditioning",
        "Biases",
        ("cond_",),
        kernels=("tree", "walks", "draws"),
    ),
    PageSpec(
        "app_pages/your_model/your_model.py",
        "Your own model",
        ":material/upload_file:",
        "your_model",
        "Biases",
        ("model_",),
        kernels=("interop",),
    ),
    PageSpec(
        "app_pages/split_bias/split_bias.py",
        "Split-variable selection bias",
        ":material/balance:",
        "split_bias",
        "Biases",
        ("bias_", "null_", "noise_", "root_"),  # its studies' widgets are named for them
        max_classes=None,  # simulated data; its one study on the user's data fits stumps
        kernels=(),
    ),
]


def spec_for(url_path):
    """The :class:`PageSpec` of the page at ``url_path`` (Streamlit gives the default page "")."""
    return next(p for p in PAGES if p.url_path == url_path or (p.default and not url_path))
