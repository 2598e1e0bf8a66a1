"""Every benchmark module imports: a benchmark that broke when a helper it borrowed was
renamed (``bench_concurrency`` once imported a yardstick that had moved) is found here, not
on the day someone runs it."""

import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
MODULES = sorted(path.stem for path in BENCH.glob("*.py") if path.stem != "__init__")


@pytest.mark.parametrize("name", MODULES)
def test_benchmark_module_imports(name):
    module = importlib.import_module(f"bench.{name}")
    assert Path(module.__file__) == BENCH / f"{name}.py"
