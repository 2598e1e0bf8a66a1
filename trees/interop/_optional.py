"""The optional libraries of ``trees.interop``: whether one is here, and what to say when not.

``import trees`` needs none of the libraries whose models the lab reads: the adapters read
their documents with the lab's own code. A library is needed for what only it can do:
training its models (the page's teaching models, the conditioning study's engines), its own
predict (the reference of a parity report), its converters and runtimes. The app's
``requirements.txt`` installs all of them but CatBoost, which with the matplotlib it pulls
in took 357 MB of the app's 1,594 MB install (README, "Set up"); ``pip install -r
requirements-dev.txt`` installs every one. A missing library is refused in one sentence
naming the one command that installs it into the Python that runs (:func:`install_command`),
never an ``ImportError``'s traceback.

:data:`OPTIONAL_LIBRARIES` holds each library's requirement, the floors of pyproject.toml's
extras (``tests/test_packaging.py`` compares them).
"""

import sys
from importlib import import_module, util

__all__ = [
    "OPTIONAL_LIBRARIES",
    "LibraryNotInstalled",
    "import_optional",
    "install_command",
    "is_installed",
]

# Module -> (its name in a sentence, the requirement that installs it: pyproject.toml's
# "models", "catboost" and "runtimes" extras). XGBoost's CPU-only wheel where it exists.
OPTIONAL_LIBRARIES = {
    "xgboost": ("XGBoost", "xgboost>=3.2" if sys.platform == "darwin" else "xgboost-cpu>=3.2"),
    "lightgbm": ("LightGBM", "lightgbm>=4.7"),
    "catboost": ("CatBoost", "catboost>=1.2.10"),
    "skops": ("skops", "skops>=0.16"),
    "onnx": ("ONNX", "onnx>=1.23"),
    "onnxruntime": ("onnxruntime", "onnxruntime>=1.32"),
    "skl2onnx": ("skl2onnx", "skl2onnx>=1.20"),
    "onnxmltools": ("onnxmltools", "onnxmltools>=1.16"),
    "treelite": ("treelite", "treelite>=4.8.1"),
    "m2cgen": ("m2cgen", "m2cgen>=0.10"),
}


def install_command(module):
    """The one command that installs ``module``'s library into the Python running now.

    ``<this python> -m pip`` rather than ``pip``: the ``pip`` first on a user's path may
    belong to another Python than the app's virtual environment or the notebook's kernel.
    """
    return f'{sys.executable} -m pip install "{OPTIONAL_LIBRARIES[module][1]}"'


class LibraryNotInstalled(ImportError):
    """An optional library that is not installed; the message says what needed it and the
    command that installs it (``command``).

    An ``ImportError``, so code that guards an optional import with ``except ImportError``
    keeps working.
    """

    def __init__(self, module, purpose):
        name = OPTIONAL_LIBRARIES[module][0]
        self.library, self.purpose, self.command = name, purpose, install_command(module)
        super().__init__(
            f"{name} is not installed here, and {purpose} needs it: install it with "
            f"`{self.command}`, then start the app (or Python) again.",
            name=module,
        )


def is_installed(module):
    """Whether ``module`` can be imported here (without importing it)."""
    return util.find_spec(module) is not None


def import_optional(module, purpose):
    """``module`` imported, or :class:`LibraryNotInstalled` saying that ``purpose`` needs it.

    Parameters
    ----------
    module : str
        A key of :data:`OPTIONAL_LIBRARIES`.
    purpose : str
        What needs it, as the end of "..., and <purpose> needs it": "training a CatBoost
        model".
    """
    if module not in OPTIONAL_LIBRARIES:  # the table is all this imports by name
        raise ValueError(f"{module!r} is not an optional library: {sorted(OPTIONAL_LIBRARIES)}.")
    try:
        return import_module(module)
    except ImportError:
        raise LibraryNotInstalled(module, purpose) from None
