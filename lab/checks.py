"""The settings of a saved run, checked and brought to one normal form.

A run's id is derived from its settings (:meth:`lab.jobs._SavedJob.run_id`),
so the same settings must give the same values whoever builds the job: the
app (a multiselect, every option of its settings panel) and the command line
(names in the order typed, only the options given) alike. Each job's
constructor passes its fields through these functions, so a bad value is
refused before any run is created; its settings list datasets and models in
the paper's order (:func:`in_paper_order`), so equal settings give one run
id. A job still computes and shows its datasets in the order it was given.
"""

from datasets import DataError
from trees.tree import TreeParams

from .paper import ALL_PAPER_DATASETS

__all__ = [
    "MAX_SEED",
    "MODELS",
    "check_seed",
    "in_paper_order",
    "normalise",
    "paper_models",
    "paper_names",
    "without_default_options",
]

# The seeds numpy's RandomState (scikit-learn's folds) takes: 0 to 2**32 - 1.
MAX_SEED = 2**32 - 1
MODELS = ("tree", "forest")
# This package's tree options a Tables 2-3 run may set, and their defaults.
PROJECT_OPTIONS = {
    name: getattr(TreeParams(), name) for name in ("tie_break", "threshold_dtype", "variance_sums")
}


def normalise(job, **fields):
    """Set fields of a frozen job (a dataclass) to their normal form, from its ``__post_init__``.

    A frozen dataclass refuses assignment; its own constructor may still set
    its fields through ``object.__setattr__``, before anyone reads them.
    """
    for name, value in fields.items():
        object.__setattr__(job, name, value)


def _repeated(values):
    """The values given more than once, in the order first given."""
    values = list(values)
    return [v for i, v in enumerate(values) if values.count(v) > 1 and values.index(v) == i]


def paper_names(names):
    """Names of source 000's datasets, checked (in the order given; see :func:`in_paper_order`).

    Parameters
    ----------
    names : "all", None, str or iterable of str
        "all" (or None): the 40 datasets; a string: names separated by commas.

    Returns
    -------
    tuple of str

    Raises
    ------
    ValueError
        No name at all, or a name given more than once.
    DataError
        A name that is not one of the 40.
    """
    if names is None or names == "all":
        return ALL_PAPER_DATASETS
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    names = list(names)
    if not names:
        raise ValueError(
            "No dataset given: give 'all' or names of source 000's datasets separated by "
            "commas (e.g. o-ring,bupa)."
        )
    repeated = _repeated(names)
    if repeated:
        raise ValueError(
            f"{', '.join(repeated)} {'is' if len(repeated) == 1 else 'are'} given more than "
            "once: give each dataset once."
        )
    unknown = [n for n in names if n not in ALL_PAPER_DATASETS]
    if unknown:
        raise DataError(
            f"Not among the 40 datasets of source 000: {', '.join(unknown)}. "
            "Use their names as in the paper (e.g. o-ring, page-blocks-1-3-vs-4), or 'all'."
        )
    return tuple(names)


def in_paper_order(values, order=ALL_PAPER_DATASETS):
    """``values`` as a run's settings list them, however they were given: in ``order``, the
    order of the paper's tables (datasets; :data:`MODELS` for the models)."""
    return [value for value in order if value in values]


def paper_models(models):
    """``models`` checked ("tree" and/or "forest", each once), in the order given.

    Raises
    ------
    ValueError
        No model, another name, or a model given twice.
    """
    models = list(models)
    if not models or any(m not in MODELS for m in models) or _repeated(models):
        raise ValueError(f"models must be 'tree' and/or 'forest', each once, got {models}.")
    return tuple(models)


def check_seed(seed, what="seed"):
    """``seed`` as an int, when it is a seed numpy's generators take (0 to 2**32 - 1).

    Raises
    ------
    ValueError
        Not a whole number, or outside that range.
    """
    try:
        whole = not isinstance(seed, bool) and int(seed) == seed
    except (TypeError, ValueError):
        whole = False
    if not whole:
        raise ValueError(f"The {what} must be a whole number, got {seed!r}.")
    if not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(
            f"The {what} must lie between 0 and 2**32 - 1 = {MAX_SEED:,} (the seeds numpy "
            f"takes), got {seed}."
        )
    return int(seed)


def without_default_options(options):
    """``options`` (name, value pairs) sorted, without this package's tree options at their
    defaults: the app passes every option of its panel, the command line only those given,
    and both mean the same fit."""
    return tuple(
        sorted((name, value) for name, value in dict(options).items()
               if name not in PROJECT_OPTIONS or PROJECT_OPTIONS[name] != value)
    )  # fmt: skip
