"""A forest's random draws, compiled: numpy's legacy ``RandomState`` numbers without its object.

A forest draws, for each tree, from a fresh ``np.random.RandomState(seed)``:
the seed of the tree's own generator (``randint(2**31 - 1)``) and its
bootstrap sample (``randint(0, n_samples, n_draws)``: scikit-learn's
scheme, so that the same ``random_state`` draws the same samples as its
forests). Creating that object costs more than growing a small tree
(0.3 ms, where a tree of the paper's sizes grows in 0.1-0.5 ms), so the
Mersenne Twister is run here in compiled code, step for step as numpy's C
code (``mt19937.c`` and ``distributions.c``), and gives the same numbers to
the bit (a test compares them over many seeds and sizes):

* seeding: ``mt19937_seed`` (Knuth's initialisation from a 32-bit seed);
* the generator: ``mt19937_gen`` (the twist of the 624 words) and
  ``mt19937_next`` (the tempering);
* ``randint`` below ``2**32``: numpy's legacy *masked rejection*: draw 32
  bits, keep the bits of the smallest mask ``2**k - 1`` covering the range,
  and draw again while the value is past the range; a range of one value
  draws nothing;
* ``choice(n, n_draws, p=p)`` (a weighted forest's samples): one uniform
  double per draw (``mt19937_next_double``: 27 and 26 bits of two words,
  ``(a 2**26 + b) / 2**53``), the row the first whose cumulative share
  ``cdf`` exceeds it (``cdf.searchsorted(u, side="right")``, numpy's
  ``cdf = p.cumsum(); cdf /= cdf[-1]``, made once by :func:`draw_cdf`).

The forests (``trees.ensemble._forest``) draw through it; it imports no
other kernel module.
"""

import numpy as np
from numba import njit

__all__ = [
    "MAX_SEED",
    "add_draw_counts",
    "add_weighted_draw_counts",
    "bootstrap_counts",
    "bootstrap_rows",
    "draw_cdf",
    "generator_seeds",
    "weighted_bootstrap_rows",
]

_STATE_WORDS, _SHIFT = 624, 397
_MATRIX_A, _UPPER, _LOWER, _WORD = 0x9908B0DF, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFF
# The seed of a tree's generator is drawn below this (scikit-learn's ``np.iinfo(np.int32).max``).
MAX_SEED = np.iinfo(np.int32).max


@njit(cache=True, nogil=True)
def _seed(key, seed):
    """numpy's ``mt19937_seed``; returns the position that makes the next draw twist first."""
    value = np.uint64(seed) & np.uint64(_WORD)
    for position in range(_STATE_WORDS):
        key[position] = value
        value = (
            np.uint64(1812433253) * (value ^ (value >> np.uint64(30))) + np.uint64(position + 1)
        ) & np.uint64(_WORD)
    return _STATE_WORDS


@njit(cache=True, nogil=True)
def _twist(key):
    """numpy's ``mt19937_gen``: the next 624 words in place (later words use the new ones)."""
    for i in range(_STATE_WORDS):
        y = (key[i] & np.uint64(_UPPER)) | (key[(i + 1) % _STATE_WORDS] & np.uint64(_LOWER))
        odd = np.uint64(_MATRIX_A) if y & np.uint64(1) else np.uint64(0)
        key[i] = key[(i + _SHIFT) % _STATE_WORDS] ^ (y >> np.uint64(1)) ^ odd


@njit(cache=True, nogil=True)
def _next_word(key, position):
    """numpy's ``mt19937_next``: (32 tempered bits, the new position)."""
    if position == _STATE_WORDS:
        _twist(key)
        position = 0
    y = key[position]
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    y ^= y >> np.uint64(18)
    return y & np.uint64(_WORD), position + 1


@njit(cache=True, nogil=True)
def _mask(largest):
    """The smallest ``2**k - 1`` at least ``largest`` (numpy's ``gen_mask``)."""
    mask = np.uint64(largest)
    for shift in (1, 2, 4, 8, 16, 32):
        mask |= mask >> np.uint64(shift)
    return mask


@njit(cache=True, nogil=True)
def _draw_below(key, position, bound, mask):
    """``randint(bound)`` by masked rejection: (value, new position)."""
    largest = np.uint64(bound - 1)
    if largest == 0:
        return 0, position
    while True:
        word, position = _next_word(key, position)
        value = word & mask
        if value <= largest:
            return np.int64(value), position


@njit(cache=True, nogil=True)
def _generator_seeds(seeds, out):
    key = np.empty(_STATE_WORDS, dtype=np.uint64)
    mask = _mask(MAX_SEED - 1)
    for tree in range(seeds.shape[0]):
        position = _seed(key, seeds[tree])
        out[tree], position = _draw_below(key, position, MAX_SEED, mask)


@njit(cache=True, nogil=True)
def _rows(seed, n_samples, out):
    key = np.empty(_STATE_WORDS, dtype=np.uint64)
    position = _seed(key, seed)
    mask = _mask(n_samples - 1)
    for draw in range(out.shape[0]):
        out[draw], position = _draw_below(key, position, n_samples, mask)


@njit(cache=True, nogil=True)
def add_draw_counts(seed, n_samples, n_draws, out):
    """Add to ``out`` how many times :func:`bootstrap_rows`'s draws pick each row (compiled
    callers: the forest's batches, ``_kernels_forest``)."""
    key = np.empty(_STATE_WORDS, dtype=np.uint64)
    position = _seed(key, seed)
    mask = _mask(n_samples - 1)
    for _ in range(n_draws):
        row, position = _draw_below(key, position, n_samples, mask)
        out[row] += 1.0


@njit(cache=True, nogil=True)
def _next_double(key, position):
    """numpy's ``mt19937_next_double``: a uniform double in [0, 1) from two words (exact: 53
    bits), and the new position."""
    high, position = _next_word(key, position)
    low, position = _next_word(key, position)
    value = (
        float(high >> np.uint64(5)) * 67108864.0 + float(low >> np.uint64(6))
    ) / 9007199254740992.0
    return value, position


@njit(cache=True, nogil=True)
def _weighted_rows(seed, cdf, out):
    key = np.empty(_STATE_WORDS, dtype=np.uint64)
    position = _seed(key, seed)
    for draw in range(out.shape[0]):
        value, position = _next_double(key, position)
        out[draw] = np.searchsorted(cdf, value, side="right")


@njit(cache=True, nogil=True)
def add_weighted_draw_counts(seed, cdf, n_draws, out):
    """Add to ``out`` how many times :func:`weighted_bootstrap_rows`'s draws pick each row
    (compiled callers: the forest's batches, ``_kernels_forest``)."""
    key = np.empty(_STATE_WORDS, dtype=np.uint64)
    position = _seed(key, seed)
    for _ in range(n_draws):
        value, position = _next_double(key, position)
        out[np.searchsorted(cdf, value, side="right")] += 1.0


def draw_cdf(weights):
    """The cumulative shares a weighted draw searches, as numpy's ``choice`` makes them from
    scikit-learn's probabilities: ``p = w / sum(w)``, ``cdf = p.cumsum()``, ``cdf /= cdf[-1]``."""
    weights = np.asarray(weights, dtype=np.float64)
    cdf = (weights / np.sum(weights)).cumsum()
    cdf /= cdf[-1]
    return cdf


def _check_seed(seed):
    seed = int(seed)
    if not 0 <= seed <= 0xFFFFFFFF:
        raise ValueError(f"A seed must be between 0 and 2**32 - 1, got {seed}.")
    return seed


def generator_seeds(seeds):
    """Each tree's generator seed: ``RandomState(seed).randint(2**31 - 1)`` for every seed.

    Parameters
    ----------
    seeds : array-like of int in [0, 2**32)

    Returns
    -------
    ndarray of int64
    """
    seeds = np.asarray(seeds, dtype=np.int64)
    if seeds.size and (seeds.min() < 0 or seeds.max() > 0xFFFFFFFF):
        raise ValueError("Seeds must be between 0 and 2**32 - 1.")
    out = np.empty(seeds.shape[0], dtype=np.int64)
    _generator_seeds(seeds, out)
    return out


def bootstrap_rows(seed, n_samples, n_draws):
    """``RandomState(seed).randint(0, n_samples, n_draws, dtype=np.int32)``, compiled."""
    out = np.empty(int(n_draws), dtype=np.int32)
    _rows(_check_seed(seed), int(n_samples), out)
    return out


def bootstrap_counts(seed, n_samples, n_draws):
    """How many times each row is drawn by :func:`bootstrap_rows` (float64, the tree's weights),
    without the rows themselves."""
    out = np.zeros(int(n_samples), dtype=np.float64)
    add_draw_counts(_check_seed(seed), int(n_samples), int(n_draws), out)
    return out


def weighted_bootstrap_rows(seed, cdf, n_draws):
    """``RandomState(seed).choice(n, n_draws, replace=True, p=p)`` for the ``cdf``
    :func:`draw_cdf` makes of ``p``'s weights, compiled (int32 rows)."""
    out = np.empty(int(n_draws), dtype=np.int32)
    _weighted_rows(_check_seed(seed), cdf, out)
    return out
