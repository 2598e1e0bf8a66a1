"""Unmanaged views of arrays, for the compiled loops.

numba counts references to every array it passes to a function or binds to
a variable, with an atomic increment and decrement. In the split search a
helper called once per candidate (the criterion's proxy, with the left and
parent statistics) then spends more time counting references than
computing: measured, 28 ns per candidate against 8 ns without.

:func:`unmanaged` returns a view of an array that numba does not count
(``numba.carray`` over the array's data pointer: a view without a "meminfo",
so the reference counting of the view is a no-op). The entry points of the
kernels (``_kernels_growth``) take such views of their inputs and scratch
arrays once and pass them down. A view is valid only while the array it was
taken from is alive: the entry points keep the original arrays referenced for
as long as they use the views, and never return a view.

Views still pay for a call to numba's reference counting, which returns at
once for them: at every array a function takes and every one it binds, about
a seventh of a fully grown extra tree's time. The functions called once per
node or per candidate are therefore compiled without reference counting
(:data:`UNCOUNTED`, numba's ``_nrt=False`` option). Such a function may not
allocate (numba refuses to compile it then: "NRT required but not enabled"),
nor return or keep an array: a returned array would reach its caller
uncounted. numba compiles the functions it calls with the same option,
unless they set their own: a callee that allocates says :data:`COUNTED`. A
function without arrays to count gives the same results compiled either
way, so the order in which numba first compiles a shared helper does not
matter.

numba also makes, beside every function it compiles, a wrapper callable from C
(``no_cfunc_wrapper``, an option its ``njit`` takes but does not document), which
only a compiled function passed as a value to another uses (numba's first-class
functions); the kernels never pass one (``_kernels_plan.only_when`` holds the
function it calls instead). Each wrapper is lowered, optimised and made machine
code with its function, in each of the about 90 functions a first Gini fit
compiles: :data:`KERNEL` leaves it out of the kernels of ``_kernels_growth``,
``_kernels_search``, the criteria and their helpers, and the fit took 18.9 s of CPU
on an empty cache instead of 20.8 (issue 56: medians of three fresh processes each,
interleaved, on a machine loaded 8 to 10 on 2 cores). A numba without the option
refuses it, by name, when a kernel first compiles ("Unrecognized options"), and
``tests/test_kernel_plans.py`` checks that the wrapper is gone.
"""

import numpy as np
from numba import carray, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = [
    "COUNTED",
    "KERNEL",
    "NO_C_WRAPPER",
    "UNCOUNTED",
    "copy_into",
    "kernel_array",
    "no_infinity",
    "unmanaged",
]

# Compile options (module docstring): without reference counting, and with it whoever calls.
UNCOUNTED = {"_nrt": False}
COUNTED = {"_nrt": True}
# Without the C-callable wrapper numba makes beside every compiled function (module docstring).
NO_C_WRAPPER = {"no_cfunc_wrapper": True}
# The options of the kernels: cached on disk, without the GIL, numpy's error model (a division by
# zero gives inf or nan, as numpy's), no C wrapper.
KERNEL = {"cache": True, "nogil": True, "error_model": "numpy", **NO_C_WRAPPER}


@intrinsic
def _address_as_void_pointer(typingctx, address):
    """The integer ``address`` as a ``void *`` (numba's documented carray recipe)."""
    signature = types.voidptr(address)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return signature, codegen


def kernel_array(array, dtype=None):
    """``array`` as the kernels take it: C-ordered and writeable (a copy only when needed).

    numba types a read-only array apart from a writeable one and compiles a
    second specialisation of every kernel it reaches, seconds of compiling on
    first use that :func:`warm_up` cannot foresee. pandas' copy-on-write
    hands out read-only views (``DataFrame.to_numpy()``), so every array
    entering a kernel passes through here. An array that already is one is returned at once:
    ``np.require`` costs microseconds of Python (measured, loaded: 3.9 us a call against 0.1), which
    a small tree's prediction paid at every call.
    """
    if type(array) is np.ndarray and (dtype is None or array.dtype == dtype):
        flags = array.flags
        if flags.c_contiguous and flags.writeable:
            return array
    return np.require(array, dtype=dtype, requirements=("C", "W"))


@njit(cache=True, nogil=True, inline="always")
def unmanaged(array):
    """A view of the C-ordered ``array`` without reference counting (module docstring)."""
    return carray(_address_as_void_pointer(array.ctypes.data), array.shape, array.dtype)


@njit(cache=True, nogil=True, inline="always")
def copy_into(destination, source):
    """``destination[:] = source`` for 1-D arrays of one length, as a loop: numba's slice
    assignment may allocate a temporary copy (when the two could overlap), which a kernel
    compiled without reference counting cannot do."""
    for i in range(destination.shape[0]):
        destination[i] = source[i]


@njit(cache=True, nogil=True)
def no_infinity(X):
    """Whether no value of the C-ordered 2-D ``X`` is infinite (NaN, a missing value, is
    allowed; stops at the first infinite one)."""
    flat = X.reshape(-1)
    for i in range(flat.shape[0]):  # noqa: SIM110 (an explicit loop: numba compiles it, not all())
        if np.isinf(flat[i]):
            return False
    return True
