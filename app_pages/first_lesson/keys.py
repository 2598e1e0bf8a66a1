"""The first lesson's session keys: each of its widget and state keys starts with ``lesson_``."""

STEP = "lesson_step"  # the step of the first lesson shown (0 is the first), in links
PREDICTIONS = "lesson_predictions"  # {step: the choice the student predicted}
PREDICT_PREFIX = "lesson_predict_"  # + step: the radio of the student's prediction
