"""The experiments and measures behind the public study modules, one private module per question.

Import them from their public modules, grouped by purpose:

* :mod:`trees.conditioning`: source 000, the threshold test and the lattice;
* :mod:`trees.selection_bias`: source 001, split-variable selection bias;
* :mod:`trees.instability`: refits, their distances, near-ties and remedies;
* :mod:`trees.tuning`: sources 003 and 004, complexity and its evaluation;
* :mod:`trees.reliability`: source 002, a cultivated forest's reliability;
* :mod:`trees.inspection`: importances, node paths and splits in words;
* :mod:`trees.tasks`: what depends on the task, written once.
"""
