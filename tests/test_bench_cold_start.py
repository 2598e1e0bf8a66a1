"""The cold-start benchmark's list of what a first use compiles (``--what-compiles``)."""

from bench.bench_cold_start import compiles_of

_WORKLOAD = """
from numba import njit

@njit
def twice(x):
    return 2 * x

@njit
def both(x, y):
    return twice(x) + twice(y)

both(1, 2.5)
both(1.5, 2.5)
"""


def test_compiles_of_lists_each_function_with_its_compiles_and_signatures(tmp_path):
    found, cpu = compiles_of(_WORKLOAD, tmp_path / "cache")
    by_name = {name: (compiles, signatures, spent) for name, compiles, signatures, spent in found}
    # ``both`` for (int, float) and (float, float); ``twice`` for int and float, each once.
    assert by_name["both"][:2] == (2, 2)
    assert by_name["twice"][:2] == (2, 2)
    assert all(spent >= 0 for _, _, spent in by_name.values())
    assert cpu >= sum(spent for _, _, spent in by_name.values())
    assert [row[3] for row in found] == sorted((row[3] for row in found), reverse=True)
