"""scikit-learn's own ``sklearn/ensemble/tests/test_forest.py``, verbatim, against ``trees``.

The file is executed unchanged with scikit-learn's estimator names bound to the lab's
(``tests/sklearn_suites.py``). CI runs the tests listed here, every parametrisation of which
passes (a heavier one would be marked slow). ``python -m tests.sklearn_suites forest`` runs the
whole file and counts the failures by cause.
"""

from tests.sklearn_suites import collected_tests, global_random_seed  # noqa: F401 (a fixture)

# The tests of test_forest.py every parametrisation of which passes against ``trees``, but those of
# scikit-learn's RandomTreesEmbedding (not the lab's: ``test_random_hasher*``,
# ``test_random_trees_*``) and ``test_backend_respected``, which fits under a process backend
# (each worker loads the compiled kernels: minutes on a loaded machine).
CI_TESTS = (
    "test_1d_input",
    "test_balance_property_random_forest",
    "test_class_weight_balanced_and_bootstrap_multi_output",
    "test_class_weights_forest",
    "test_classes_shape",
    "test_classification_toy",
    "test_classifier_error_oob_score_multiclass_multioutput",
    "test_decision_path",
    "test_dtype_convert",
    "test_forest_classifier_oob",
    "test_forest_degenerate_feature_importances",
    "test_forest_feature_importances_sum",
    "test_forest_multioutput_integral_regression_target",
    "test_forest_oob_score_requires_bootstrap",
    "test_forest_oob_warning",
    "test_forest_regressor_oob",
    "test_forest_y_sparse",
    "test_gridsearch",
    "test_importances",
    "test_importances_asymptotic",
    "test_iris_criterion",
    "test_little_tree_with_small_max_samples",
    "test_max_leaf_nodes_max_depth",
    "test_max_samples_bootstrap",
    "test_max_samples_boundary_classifiers",
    "test_max_samples_boundary_regressors",
    "test_max_samples_geq_one",
    "test_memory_layout",
    "test_min_impurity_decrease",
    "test_min_samples_leaf",
    "test_min_samples_split",
    "test_min_weight_fraction_leaf",
    "test_missing_value_is_predictive",
    "test_missing_values_is_resilient",
    "test_multioutput",
    "test_multioutput_string",
    "test_oob_not_computed_twice",
    "test_parallel",
    "test_parallel_train",
    "test_pickle",
    "test_poisson_vs_mse",
    "test_poisson_y_positive_check",
    "test_probability",
    "test_read_only_buffer",
    "test_regression_criterion",
    "test_regressor_attributes",
    "test_round_samples_to_one_when_samples_too_low",
    "test_unfitted_feature_importances",
    "test_validate_y_class_weight",
    "test_warm_start",
    "test_warm_start_clear",
    "test_warm_start_equal_n_estimators",
    "test_warm_start_oob",
    "test_warm_start_smaller_n_estimators",
)

# Those of CI_TESTS that take more than a few seconds: none, today.
SLOW_TESTS = ()

globals().update(collected_tests("forest", CI_TESTS, SLOW_TESTS))
