"""The conditioning bias on source 000's loan table (Appendix A), with the `trees` package.

Run from anywhere once the package is installed (``pip install .``), or from the checkout:

    python examples/loan_applicant.py
"""

import numpy as np

from trees import DecisionTreeClassifier, lattice_features, lattice_split_share, mirror

# Self-employed, income (k), dependents -> default (1) or pay back (0).
X = np.array([[0, 80, 1], [0, 60, 3], [0, 80, 1], [1, 50, 2], [1, 50, 4], [1, 70, 4]], float)
y = np.array([1, 1, 0, 0, 1, 0])

tree = DecisionTreeClassifier(conditioning="<=").fit(X, y).tree_
applicant = np.array([[1, 50, 3.0]])  # 3 dependents: exactly on a threshold

for op in ("<=", "<", "average"):
    p_default = tree.predict(applicant, op)[0, 1]
    print(f"x {op:>7} t: P(default) = {p_default:.1f}")

# Growing on the mirrored data (-X) and testing with <= is the same as testing with <.
same = (mirror(tree).predict(-applicant, "<=") == tree.predict(applicant, "<")).all()
print("mirror(tree) under <= on -x equals tree under <:", bool(same))

print("lattice features:", lattice_features(X).tolist())
share, on_lattice, splits = lattice_split_share(tree, X)
print(f"rho (splits on a lattice feature): {share:.2f} = {on_lattice} of {splits}")
