"""Synthetic generators: each source document's examples, with parameters and a seed.

Every generator returns a :class:`Dataset`. ``GENERATORS`` maps a name to the
function and to the description of its parameters, which the Data page turns
into widgets.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._record import Dataset

__all__ = ["GENERATORS", "Param", "generate"]


@dataclass(frozen=True)
class Param:
    """A generator parameter: what the Data page needs to draw a widget."""

    name: str
    label: str
    default: float
    low: float
    high: float
    step: float
    help: str = ""

    @property
    def is_int(self):
        return all(float(v).is_integer() for v in (self.default, self.low, self.high, self.step))


N_ROWS = Param("n_samples", "Rows", 300, 20, 20_000, 10)
SEED = Param("seed", "Random seed", 0, 0, 10_000, 1)


def _frame(X, names):
    return pd.DataFrame(np.asarray(X, dtype=float), columns=names)


def gaussian_classes(n_samples=300, shift=1.5, sd=1.0, seed=0):
    """Two Gaussian classes in 2-D (source 003): SD ``sd``, class 1 shifted by ``shift`` in x1 and x2."""
    rng = np.random.default_rng(int(seed))
    y = rng.integers(0, 2, int(n_samples))
    X = rng.normal(0.0, sd, size=(int(n_samples), 2)) + shift * y[:, None]
    return Dataset(
        name="Two Gaussian classes",
        X=_frame(X, ["x1", "x2"]),
        y=pd.Series(y, name="class"),
        task="classification",
        description=f"Two classes drawn from 2-D Gaussians with SD {sd}; class 1 is shifted by {shift} "
        "in both coordinates. The best boundary is a diagonal line, which a tree can only approximate "
        "with a staircase.",
        source="Climbing trees 1: what are decision trees? (source 003)",
    )


def oblique_boundary(n_samples=400, angle=45.0, noise=0.1, seed=0):
    """Points in the unit square labelled by a line through its centre at ``angle`` degrees."""
    rng = np.random.default_rng(int(seed))
    X = rng.random((int(n_samples), 2))
    normal = np.array([-np.sin(np.radians(angle)), np.cos(np.radians(angle))])
    margin = (X - 0.5) @ normal + rng.normal(0.0, noise, int(n_samples)) * 0.5
    return Dataset(
        name="Oblique boundary",
        X=_frame(X, ["x1", "x2"]),
        y=pd.Series((margin > 0).astype(int), name="class"),
        task="classification",
        description=f"A straight class boundary at {angle:g} degrees with label noise {noise:g}: "
        "axis-parallel splits need many steps to follow it (the staircase effect).",
        source="Climbing trees 1 (source 003), staircase effect",
    )


def xor(n_samples=400, noise=0.1, seed=0):
    """The XOR pattern: class 1 in the first and third quadrants of [-1, 1]^2."""
    rng = np.random.default_rng(int(seed))
    X = rng.uniform(-1.0, 1.0, size=(int(n_samples), 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    flip = rng.random(int(n_samples)) < noise
    y[flip] = 1 - y[flip]
    return Dataset(
        name="XOR",
        X=_frame(X, ["x1", "x2"]),
        y=pd.Series(y, name="class"),
        task="classification",
        description="Class 1 where x1 and x2 have the same sign. No single split helps at the root, "
        "so greedy trees pick a nearly arbitrary first split.",
        source="Tree Bias Lab synthetic example",
    )


def smooth_regression(n_samples=200, noise=0.3, x_max=6.0, seed=0):
    """y = sin(x) + x / 3 + Gaussian noise, x uniform on [0, x_max]."""
    rng = np.random.default_rng(int(seed))
    x = np.sort(rng.uniform(0.0, x_max, int(n_samples)))
    y = smooth_function(x) + rng.normal(0.0, noise, int(n_samples))
    return Dataset(
        name="Smooth 1-D regression",
        X=_frame(x[:, None], ["x"]),
        y=pd.Series(y, name="y"),
        task="regression",
        description=f"y = sin(x) + x/3 plus noise (SD {noise:g}) on [0, {x_max:g}]. A tree fits it with "
        "a piecewise-constant staircase and predicts a constant beyond the data.",
        source="Climbing trees 1 (source 003), regression trees",
    )


def smooth_surface(n_samples=400, noise=0.2, seed=0):
    """y = sin(x1) + cos(x2) + Gaussian noise, (x1, x2) uniform on [0, 6]^2."""
    rng = np.random.default_rng(int(seed))
    X = rng.uniform(0.0, 6.0, size=(int(n_samples), 2))
    y = surface_function(X[:, 0], X[:, 1]) + rng.normal(0.0, noise, int(n_samples))
    return Dataset(
        name="Smooth 2-D regression",
        X=_frame(X, ["x1", "x2"]),
        y=pd.Series(y, name="y"),
        task="regression",
        description=f"y = sin(x1) + cos(x2) plus noise (SD {noise:g}): a smooth surface that a tree "
        "can only cover with flat rectangular blocks.",
        source="Climbing trees 1 (source 003), staircase effect in regression",
    )


def surface_function(x1, x2):
    """The true surface of :func:`smooth_surface`."""
    return np.sin(x1) + np.cos(x2)


def smooth_function(x):
    """The true function of :func:`smooth_regression`."""
    return np.sin(x) + x / 3.0


def lattice_grid(n_samples=200, step=1.0, levels=20, noise=1.0, seed=0):
    """Two integer-valued (lattice) features with a chosen step; class from their sum plus noise."""
    rng = np.random.default_rng(int(seed))
    codes = rng.integers(0, int(levels), size=(int(n_samples), 2))
    X = codes * float(step)
    y = (codes.sum(axis=1) + rng.normal(0.0, noise, int(n_samples)) > (int(levels) - 1)).astype(int)
    return Dataset(
        name="Lattice features",
        X=_frame(X, ["a", "b"]),
        y=pd.Series(y, name="class"),
        task="classification",
        description=f"Two features on a lattice of {int(levels)} values with step {step:g}. Deep trees "
        "put thresholds exactly on observed values, where <= and < disagree (source 000).",
        source="Timár & Kovács, conditioning bias (source 000)",
    )


def crf_simulation(n_samples=300, seed=0):
    """Source 002, Supplement B: y ~ B(0.5); x | y=1 ~ N((-1,-1), 0.75^2 I), x | y=0 ~ N((1,1), 0.75^2 I)."""
    rng = np.random.default_rng(int(seed))
    y = rng.integers(0, 2, int(n_samples))
    centre = np.where(y[:, None] == 1, -1.0, 1.0)
    X = centre + rng.normal(0.0, 0.75, size=(int(n_samples), 2))
    return Dataset(
        name="CRF simulation",
        X=_frame(X, ["x1", "x2"]),
        y=pd.Series(y, name="class"),
        task="classification",
        description="The simulated data of the cultivated-random-forest paper: two Gaussian classes "
        "(SD 0.75) centred at (-1, -1) and (1, 1), whose true boundary is smooth.",
        source="Nalenz & Augustin, Cultivated Random Forests, Supplement B (source 002)",
    )


def loan_table():
    """The six-row loan table of source 000, Appendix A."""
    X = pd.DataFrame(
        {
            "self-employed": [0, 0, 0, 1, 1, 1],
            "income (k)": [80, 60, 80, 50, 50, 70],
            "dependents": [1, 3, 1, 2, 4, 4],
        },
        dtype=float,
    )
    return Dataset(
        name="Loan table",
        X=X,
        y=pd.Series([1, 1, 0, 0, 1, 0], name="default"),
        task="classification",
        description="Six loan applicants: self-employment, income and dependents; the target is 1 "
        "when the applicant defaults. A split on dependents between 2 and 4 puts its threshold at 3, "
        "an observed value: an applicant with 3 dependents is routed by the choice of <= or <.",
        source="Timár & Kovács, Appendix A (source 000)",
    )


def categorical_with_missing(n_samples=300, missing_share=0.15, seed=0):
    """Mixed numeric and categorical columns with missing values (source 004, section 2)."""
    rng = np.random.default_rng(int(seed))
    n = int(n_samples)
    colour = rng.choice(["red", "green", "blue"], n)
    city = rng.choice([f"city {c}" for c in "ABCDEFGH"], n)
    size = rng.normal(10.0, 3.0, n).round(1)
    rings = rng.integers(0, 12, n).astype(float)
    mostly_missing = rng.normal(0.0, 1.0, n)
    score = (
        (colour == "red") * 1.5
        + (size > 11)
        + np.isin(city, ["city A", "city B"])
        + rng.normal(0, 0.7, n)
    )
    X = pd.DataFrame(
        {"colour": colour, "city": city, "size": size, "rings": rings, "sensor": mostly_missing}
    )
    for column in ("colour", "city", "size"):
        X.loc[rng.random(n) < missing_share, column] = np.nan
    X.loc[rng.random(n) < 0.6, "sensor"] = np.nan
    return Dataset(
        name="Categorical with missing values",
        X=X,
        y=pd.Series(np.where(score > 1.5, "yes", "no"), name="edible"),
        task="classification",
        description="Categorical colour (3 values) and city (8 values), numeric size and rings, and a "
        "sensor column that is 60% missing: preprocessing drops the sensor, imputes the rest, one-hot "
        "encodes colour and integer-encodes city.",
        source="After the mushroom preprocessing of source 004, section 2",
    )


@dataclass(frozen=True)
class Generator:
    """A synthetic generator and the parameters the user may set."""

    function: object
    params: tuple
    summary: str


GENERATORS = {
    "Two Gaussian classes": Generator(
        gaussian_classes,
        (
            N_ROWS,
            Param("shift", "Shift of class 1", 1.5, 0.0, 5.0, 0.1),
            Param("sd", "SD", 1.0, 0.1, 3.0, 0.1),
            SEED,
        ),
        "source 003's toy data",
    ),
    "Oblique boundary": Generator(
        oblique_boundary,
        (
            N_ROWS,
            Param("angle", "Angle (degrees)", 45.0, 0.0, 90.0, 5.0),
            Param("noise", "Noise", 0.1, 0.0, 1.0, 0.05),
            SEED,
        ),
        "a diagonal class boundary",
    ),
    "XOR": Generator(
        xor, (N_ROWS, Param("noise", "Label noise", 0.1, 0.0, 0.5, 0.05), SEED), "the XOR pattern"
    ),
    "Smooth 1-D regression": Generator(
        smooth_regression,
        (
            N_ROWS,
            Param("noise", "Noise SD", 0.3, 0.0, 2.0, 0.05),
            Param("x_max", "x range", 6.0, 1.0, 20.0, 0.5),
            SEED,
        ),
        "a smooth function plus noise",
    ),
    "Smooth 2-D regression": Generator(
        smooth_surface,
        (N_ROWS, Param("noise", "Noise SD", 0.2, 0.0, 2.0, 0.05), SEED),
        "a smooth surface plus noise",
    ),
    "Lattice features": Generator(
        lattice_grid,
        (
            Param("n_samples", "Rows", 200, 20, 20_000, 10),
            Param("step", "Lattice step", 1.0, 0.1, 10.0, 0.1),
            Param("levels", "Values per feature", 20, 3, 60, 1),
            Param("noise", "Noise", 1.0, 0.0, 5.0, 0.1),
            SEED,
        ),
        "integer features with a chosen step",
    ),
    "CRF simulation": Generator(crf_simulation, (N_ROWS, SEED), "source 002, Supplement B"),
    "Loan table": Generator(loan_table, (), "source 000, Appendix A (6 rows)"),
    "Categorical with missing values": Generator(
        categorical_with_missing,
        (N_ROWS, Param("missing_share", "Missing share", 0.15, 0.0, 0.9, 0.05), SEED),
        "for the preprocessing path",
    ),
}


def generate(name, **params):
    """Run generator ``name`` with ``params`` (defaults for the ones left out)."""
    generator = GENERATORS[name]
    values = {p.name: p.default for p in generator.params}
    values.update(params)
    dataset = generator.function(**values)
    dataset.group = "Synthetic"
    return dataset
