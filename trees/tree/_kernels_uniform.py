"""A tree's uniform draws in compiled code, from its Generator's bit generator.

A growth draws from the ``numpy.random.Generator`` it is given (feature keys,
permutations, random thresholds). In compiled code numba's
``Generator.random()`` is a function of the Generator object, and every call
increments and decrements that object's reference count atomically: in a
fully grown extra tree (20 draws a node) those counts took about a quarter
of the fit. The kernels therefore take the Generator's bit generator
(``rng.bit_generator``: a plain structure of its state and function
pointers, which numba does not count) once at their entry and draw here from
it. Each draw is the bit generator's ``next_double``, the number
``rng.random()`` would give next, so a seed grows the same tree either way
and the Generator's state moves on exactly as it did.
"""

import numpy as np
from numba import njit
from numba.np.random.generator_core import next_double

__all__ = ["uniform", "uniforms"]


@njit(cache=True, nogil=True, inline="always")
def uniform(bit_generator):
    """The next double in ``[0, 1)``: ``rng.random()`` for ``bit_generator = rng.bit_generator``."""
    return next_double(bit_generator)


@njit(cache=True, nogil=True)
def uniforms(bit_generator, n):
    """The next ``n`` doubles in ``[0, 1)``: ``rng.random(n)``."""
    out = np.empty(n)
    for i in range(n):
        out[i] = next_double(bit_generator)
    return out
