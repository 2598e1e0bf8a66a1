"""Source 001's bias heatmaps as a long run: one task per (p1, N) cell."""

from dataclasses import dataclass

from trees.selection_bias import bias_cell, bias_from_wins, check_bias_grid

from .checks import check_seed, normalise
from .jobs import _digest, package_version

__all__ = ["SplitBiasJob"]


@dataclass(frozen=True)
class SplitBiasJob:
    """The bias experiment of ``trees.selection_bias.bias_experiment`` (kind "split-bias").

    One task per grid cell (``bias_cell``, seeded from ``seed`` and the cell),
    one part per cell; the summary holds the grid axes and, per criterion, the
    bias of every cell done (None for the others).
    """

    n1: int = 10
    n2: int = 2
    N: tuple = (100,)
    p1: tuple = (0.5,)
    trials: int = 100_000
    seed: int = 0
    criteria: tuple = ()
    kind = "split-bias"

    def __post_init__(self):
        """Check the grid and the seed; plain numbers and tuples (one run id per settings)."""
        check_bias_grid(self.n1, self.n2, self.N, self.p1, self.trials, list(self.criteria))
        normalise(self, n1=int(self.n1), n2=int(self.n2), trials=int(self.trials),
                  N=tuple(int(n) for n in self.N), p1=tuple(float(p) for p in self.p1),
                  seed=check_seed(self.seed), criteria=tuple(self.criteria))  # fmt: skip

    def _criteria(self):
        return check_bias_grid(self.n1, self.n2, self.N, self.p1, self.trials,
                               list(self.criteria))[2]  # fmt: skip

    def label(self):
        return (f"split bias: n1={self.n1}, n2={self.n2}, {len(self.p1)} x {len(self.N)} cells, "
                f"{self.trials} trials")  # fmt: skip

    def dataset(self):
        return "simulated (null hypothesis)"

    def fingerprint(self):
        return "simulated"

    def settings(self):
        return {"n1": self.n1, "n2": self.n2, "N": list(self.N), "p1": list(self.p1),
                "trials": self.trials, "criteria": self._criteria()}  # fmt: skip

    def seeds(self):
        return {"seed": self.seed}

    def version(self):
        return package_version()

    def run_id(self):
        return _digest(self.kind, self.settings(), self.seeds())

    def task_keys(self):
        return [f"cell-{a:03d}-{b:03d}" for a in range(len(self.p1)) for b in range(len(self.N))]

    def part(self, key):
        return key

    def run_task(self, key):
        a, b = (int(x) for x in key.split("-")[1:])
        return bias_cell(self.n1, self.n2, self.N[b], self.p1[a], self.trials, self.seed, (a, b),
                         self._criteria())  # fmt: skip

    def combine_part(self, part, results):
        wins = results[part]
        return {c: bias_from_wins(wins[c], self.trials) for c in wins}

    def summarize(self, parts):
        bias = {c: [[None] * len(self.N) for _ in self.p1] for c in self._criteria()}
        for key, values in parts.items():
            a, b = (int(x) for x in key.split("-")[1:])
            for c, value in values.items():
                bias[c][a][b] = value
        return {"N": list(self.N), "p1": list(self.p1), "bias": bias}
