"""The fuzzer of the model readers (issue 60), with a fixed seed and a bounded budget.

30 mutations of a valid file of each format (``bench.model_fuzz``: byte flips,
truncation, size fields, child indices, nesting), each read and audited in a
worker stopped at 10 s and 500 MB: every one must end in an audit with finite
predictions or a refusal in words. ``python -m bench.bench_model_fuzz`` runs
1,000 a format.
"""

import collections
import re

import pytest

from bench.model_fuzz import MUTATIONS, fuzz
from tests import hostile_models as hm


@pytest.mark.slow
def test_every_mutated_model_file_is_audited_or_refused_in_words():
    files = hm.valid_models()[0]
    outcomes, findings = collections.Counter(), []
    for name, mutation, status, detail in fuzz(files, seed=0, cases=30, seconds=10, megabytes=500):
        outcomes[status] += 1
        if status == "refused":
            # a sentence with what is wrong, not an exception's repr
            assert detail.rstrip().endswith((".", "?")), detail
            assert not re.match(r"^\w+(Error|Exception)\b", detail), detail
        elif status != "audited":
            findings.append((name, mutation, status, detail))
    assert not findings, findings
    assert outcomes["audited"] > 0 and outcomes["refused"] > 0
    assert sum(outcomes.values()) == 30 * len(files) and len(MUTATIONS) == 5
