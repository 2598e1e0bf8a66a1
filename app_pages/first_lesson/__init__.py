"""The "A first lesson" page: ``first_lesson.py`` is its script, and the
modules beside it are used by it alone.

* lesson.py: the lesson's table and its numbers (thresholds, Gini, gains, paths)
* steps.py: the first six steps (the table to the best split) and the shared pictures
* tree_steps.py: the last four steps (nodes and leaves to what next)
* predictions.py: the prediction each step asks for before its answer
* course.py: the steps in order, Back and Next, the prediction asked
"""
