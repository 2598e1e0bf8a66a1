"""scikit-learn's own ``sklearn/tree/tests/test_tree.py``, verbatim, against ``trees``.

The file is executed unchanged with scikit-learn's estimator names bound to the lab's
(``tests/sklearn_suites.py``). CI runs the tests listed here, every parametrisation of which
passes (a heavier one would be marked slow). ``python -m tests.sklearn_suites tree`` runs the
whole file and counts the failures by cause.
"""

from tests.sklearn_suites import collected_tests, global_random_seed  # noqa: F401 (a fixture)

# The tests of test_tree.py every parametrisation of which passes against ``trees``, but those
# that exercise only scikit-learn's own code (its Cython tree checks, criteria, splitters and
# allocator: ``test_check_*``, ``test_criterion_copy``, ``test_splitter_serializable``,
# ``test_realloc``, ``test_absolute_errors_precomputation_function``).
CI_TESTS = (
    "test_1d_input",
    "test_absolute_error_accurately_predicts_weighted_median",
    "test_almost_constant_feature",
    "test_apply_path_readonly_all_trees",
    "test_arrayrepr",
    "test_arrays_persist",
    "test_balance_property",
    "test_behaviour_constant_feature_after_splits",
    "test_class_weight_errors",
    "test_class_weights",
    "test_classes_shape",
    "test_classification_toy",
    "test_classification_tree_missing_values_toy",
    "test_criterion_entropy_same_as_log_loss",
    "test_decision_path",
    "test_decision_path_hardcoded",
    "test_deterministic_pickle",
    "test_diabetes_overfit",
    "test_diabetes_underfit",
    "test_different_bitness_joblib_pickle",
    "test_different_bitness_pickle",
    "test_different_endianness_joblib_pickle",
    "test_different_endianness_pickle",
    "test_error",
    "test_explicit_sparse_zeros",
    "test_importances_gini_equal_squared_error",
    "test_importances_raises",
    "test_iris",
    "test_mae",
    "test_max_features",
    "test_max_leaf_nodes",
    "test_max_leaf_nodes_max_depth",
    "test_memory_layout",
    "test_min_impurity_decrease",
    "test_min_sample_split_1_error",
    "test_min_samples_leaf",
    "test_min_samples_split",
    "test_min_weight_fraction_leaf_on_dense_input",
    "test_min_weight_fraction_leaf_on_sparse_input",
    "test_min_weight_fraction_leaf_with_min_samples_leaf_on_dense_input",
    "test_min_weight_fraction_leaf_with_min_samples_leaf_on_sparse_input",
    "test_min_weight_leaf_split_level",
    "test_missing_value_errors",
    "test_missing_value_is_predictive",
    "test_missing_values_and_constant_toy",
    "test_missing_values_best_splitter_missing_both_classes_has_nan",
    "test_missing_values_best_splitter_on_equal_nodes_no_missing",
    "test_missing_values_best_splitter_three_classes",
    "test_missing_values_best_splitter_to_left",
    "test_missing_values_best_splitter_to_right",
    "test_missing_values_is_resilience",
    "test_missing_values_poisson",
    "test_missing_values_random_splitter_on_equal_nodes_no_missing",
    "test_no_sparse_y_support",
    "test_numerical_stability",
    "test_only_constant_features",
    "test_pickle",
    "test_poisson_vs_mse",
    "test_poisson_zero_nodes",
    "test_probability",
    "test_public_apply_all_trees",
    "test_public_apply_sparse_trees",
    "test_pure_set",
    "test_regression_extra_tree_missing_values_toy",
    "test_regression_toy",
    "test_regression_tree_missing_values_toy",
    "test_sample_weight",
    "test_sample_weight_invalid",
    "test_sample_weight_non_uniform",
    "test_sparse_criteria",
    "test_sparse_input_reg_trees",
    "test_sparse_parameters",
    "test_splitting_with_missing_values",
    "test_tree_deserialization_from_read_only_buffer",
    "test_unbalanced_iris",
    "test_weighted_classification_toy",
    "test_with_only_one_non_constant_features",
    "test_xor",
)

# Those of CI_TESTS that take more than a few seconds: none, today.
SLOW_TESTS = ()

globals().update(collected_tests("tree", CI_TESTS, SLOW_TESTS))
