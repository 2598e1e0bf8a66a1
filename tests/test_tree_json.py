"""Saved trees: every rule of the strict validator, round trips, the data check, and fuzzing."""

import contextlib
import copy
import json
import math
import re
import signal

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    Tree,
    TreeGrower,
    from_sklearn,
    mirror,
)
from trees.tree import (
    _tree_json,
    check_tree_for_data,
    parse_tree_json,
    tree_data_problems,
    validate_tree_document,
)
from viz.tree_dot import tree_to_dot

RNG = np.random.default_rng(0)
X = RNG.normal(size=(120, 3))
X[:, 2] = RNG.integers(0, 4, size=120)
Y = ((X[:, 0] > 0) ^ (X[:, 2] >= 2)).astype(int)
COLOUR = ["blue", "green", "red", "white"]


def _grown(categorical=True):
    grower = TreeGrower(
        X,
        Y,
        feature_names=["a", "b", "colour"],
        class_names=["no", "yes"],
        categorical_features=[2] if categorical else None,
        category_names={2: COLOUR} if categorical else None,
        max_depth=3,
    )
    grower.grow_all()
    return grower.tree


def _leaf():
    return Tree(
        feature=[-1],
        threshold=[np.nan],
        left=[-1],
        right=[-1],
        value=[[0.25, 0.75]],
        n_samples=[4],
        weighted_n_samples=[4.0],
        impurity=[0.375],
        depth=[0],
        is_classifier=True,
        n_features=3,
    )


def _sources():
    grown = _grown()
    return {
        "grower with categories": grown,
        "mirrored": mirror(grown),
        "pruned": grown.pruned([1])[0],
        "numeric grower": _grown(categorical=False),
        "classifier": DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, Y).tree_,
        "regressor": DecisionTreeRegressor(max_depth=4).fit(X, X[:, 0] * 2).tree_,
        "forest member": RandomForestClassifier(n_estimators=2, random_state=0)
        .fit(X, Y)
        .estimators_[0]
        .tree_,
        "single leaf": _leaf(),
    }


SOURCES = _sources()


def _doc(name="grower with categories"):
    return json.loads(SOURCES[name].to_json())


# --------------------------------------------------------------- round trips
@pytest.mark.parametrize("name", sorted(SOURCES))
def test_every_tree_the_lab_makes_survives_a_round_trip(name):
    tree = SOURCES[name]
    loaded = Tree.from_json(tree.to_json())
    assert loaded == tree
    assert loaded.category_names == tree.category_names
    assert loaded.feature_names == tree.feature_names
    np.testing.assert_array_equal(loaded.predict(X, "<"), tree.predict(X, "<"))


def test_a_scikit_learn_tree_survives_a_round_trip():
    from sklearn.tree import DecisionTreeClassifier as SkTree

    tree = from_sklearn(SkTree(random_state=0).fit(X, Y))
    assert Tree.from_dict(tree.to_dict()) == tree


def test_validation_passes_unknown_fields_on_and_accepts_numpy_arrays():
    tree = SOURCES["classifier"]
    doc = tree.to_dict()
    doc["comment"] = "saved on Monday"
    assert validate_tree_document(doc)["comment"] == "saved on Monday"
    arrays = {name: np.asarray(getattr(tree, name)) for name in ("feature", "left", "right")}
    arrays["threshold"] = tree.threshold.copy()
    assert Tree.from_dict({**doc, **arrays}) == tree


# ---------------------------------------------------------- every rule, named
def _set(path, value):
    def mutate(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _delete(key):
    return lambda doc: doc.pop(key)


def _first_split(doc):
    return next(i for i, f in enumerate(doc["feature"]) if f >= 0)


def _first_category_node(doc):
    return next(i for i, c in enumerate(doc["categories"]) if c is not None)


def _first_leaf(doc):
    return doc["feature"].index(-1)


def _mutate_node(field, value, node=_first_split):
    def mutate(doc):
        doc[field][node(doc)] = value

    return mutate


def _add_stray_leaf(doc):
    for name in ("feature", "left", "right", "depth", "n_samples"):
        doc[name].append(-1 if name in ("feature", "left", "right") else 1)
    doc["threshold"].append(None)
    doc["weighted_n_samples"].append(1.0)
    doc["impurity"].append(0.0)
    doc["value"].append(doc["value"][0])
    doc["categories"].append(None)
    doc["category_sign"].append(1)


def _two_parents_for_a_leaf(doc):
    """Two new splits whose right children are leaves the tree already has."""
    n = len(doc["feature"])
    _add_stray_leaf(doc)
    _add_stray_leaf(doc)
    doc["feature"][n : n + 2] = [0, 0]
    doc["threshold"][n : n + 2] = [0.5, 0.5]
    leaves = [i for i in range(n) if doc["feature"][i] == -1][:2]
    doc["left"][n : n + 2] = [n + 1, n]
    doc["right"][n : n + 2] = leaves  # shared with the tree: refused earlier; see the next case


def _pure_detached_cycle(doc):
    n = len(doc["feature"])
    for _ in range(4):
        _add_stray_leaf(doc)
    doc["feature"][n : n + 2] = [0, 0]
    doc["threshold"][n : n + 2] = [0.5, 0.5]
    doc["left"][n : n + 2] = [n + 1, n]  # n -> n+1 -> n: a cycle the root never reaches
    doc["right"][n : n + 2] = [n + 2, n + 3]


def _point_back_up(doc):
    """A grandchild's link back up to its grandparent (below the root): a cycle."""
    feature, left, right = doc["feature"], doc["left"], doc["right"]
    for node in range(1, len(feature)):
        grandchild = next(
            (c for c in (left[node], right[node]) if c >= 0 and feature[c] >= 0), None
        )
        if feature[node] >= 0 and grandchild is not None:
            left[grandchild] = node
            return
    raise AssertionError("the example tree needs three levels of splits")


def _link_to_the_root(doc):
    node = next(i for i in range(1, len(doc["feature"])) if doc["feature"][i] >= 0)
    doc["right"][node] = 0


RULES = [
    ("not an object", lambda doc: None, "must be a JSON object", "list"),
    ("wrong format", _set(["format"], "other"), "'format' is the text", None),
    ("wrong version", _set(["version"], 2), "reads version 1", None),
    ("missing field", _delete("left"), "missing the fields 'left'", None),
    ("is_classifier as 1", _set(["is_classifier"], 1), "true or false, not 1", None),
    ("n_features as text", _set(["n_features"], "3"), "'n_features' must be a whole number", None),
    ("n_features zero", _set(["n_features"], 0), "it must be 1 to", None),
    ("short array", lambda doc: doc["impurity"].pop(), "'impurity' has", None),
    ("feature as text", _mutate_node("feature", "0"), "must be a whole number, not the text", None),
    ("feature as boolean", _mutate_node("feature", True), "must be a whole number, not true", None),
    ("feature fractional", _mutate_node("feature", 0.5), "must be a whole number, not 0.5", None),
    ("feature too large", _mutate_node("feature", 3), "but the tree has 3 feature(s)", None),
    ("feature below -1", _mutate_node("feature", -2), "or -1 at a leaf", None),
    ("threshold as text", _mutate_node("threshold", "0.5"), "must be a number, not the text", None),
    (
        "threshold infinite at a leaf",
        _mutate_node("threshold", math.inf, _first_leaf),
        "a leaf has neither",
        None,
    ),
    ("threshold missing at a split", _mutate_node("threshold", None), "is a split", "numeric"),
    ("threshold NaN at a split", _mutate_node("threshold", math.nan), "is a split", "numeric"),
    (
        "threshold at a leaf",
        _mutate_node("threshold", 1.0, _first_leaf),
        "a leaf has neither",
        None,
    ),
    (
        "leaf with a child",
        _mutate_node("left", 1, _first_leaf),
        "must have left = right = -1",
        None,
    ),
    (
        "child out of range",
        _mutate_node("left", 999),
        "Children of internal nodes are node ids 1 to",
        None,
    ),
    (
        "child negative",
        _mutate_node("right", -1),
        "Children of internal nodes are node ids 1 to",
        None,
    ),
    ("left equals right", lambda d: _set(["right", 0], d["left"][0])(d), "children differ", None),
    ("back to the root", _link_to_the_root, "(node 0 is the root)", None),
    ("pointing back up", _point_back_up, "is a child of nodes", None),
    ("shared child", _two_parents_for_a_leaf, "is a child of nodes", None),
    ("unreached cycle", _pure_detached_cycle, "cannot be reached from the root", None),
    ("stray node", _add_stray_leaf, "is the child of no node", None),
    ("wrong depth", _mutate_node("depth", 7, _first_leaf), "step(s) below the root", None),
    ("value as text", _set(["value", 0, 0], "1"), "value[0][0] must be a number", None),
    ("value uneven", lambda d: d["value"][1].append(0.0), "value[1] has 3 entries", None),
    ("value not a list", _set(["value", 0], 0.5), "value[0] must be a list", None),
    ("value NaN", _set(["value", 0, 0], math.nan), "only finite numbers", None),
    ("value negative", _set(["value", 0], [-0.5, 1.5]), "cannot be negative", None),
    ("shares not adding up", _set(["value", 0], [0.5, 0.6]), "add up to 1.1, not 1", None),
    (
        "regression with two values",
        _set(["value", 0], [1.0, 2.0]),
        "value[1] has 1 entries but value[0] has 2",
        "regressor",
    ),
    ("negative count", _set(["n_samples", 0], -1), "n_samples[0] is negative", None),
    ("feature names short", _set(["feature_names"], ["a"]), "has 1 names but the tree has 3", None),
    ("feature name as number", _set(["feature_names", 0], 1), "must be a name (text)", None),
    ("feature names repeated", _set(["feature_names"], ["a", "a", "b"]), 'names "a" twice', None),
    ("class names short", _set(["class_names"], ["no"]), "has 1 names but the tree has 2", None),
    (
        "class names on regression",
        _set(["class_names"], ["x"]),
        "the tree has 0 classes",
        "regressor",
    ),
    ("category set empty", _mutate_node("categories", [], _first_category_node), "non-empty", None),
    (
        "category set as text",
        _mutate_node("categories", "1", _first_category_node),
        "null or a",
        None,
    ),
    (
        "category code negative",
        _mutate_node("categories", [-1], _first_category_node),
        "0 to",
        None,
    ),
    (
        "category code boolean",
        _mutate_node("categories", [True], _first_category_node),
        "true",
        None,
    ),
    (
        "category code twice",
        _mutate_node("categories", [1, 1], _first_category_node),
        "twice",
        None,
    ),
    ("category code huge", _mutate_node("categories", [10**9], _first_category_node), "0 to", None),
    (
        "category code beyond the names",
        _mutate_node("categories", [5], _first_category_node),
        "feature 2 has 4 categories",
        None,
    ),
    (
        "every category left",
        _mutate_node("categories", [0, 1, 2, 3], _first_category_node),
        "at least one to the right",
        None,
    ),
    ("category set at a leaf", _mutate_node("categories", [1], _first_leaf), "a leaf has", None),
    (
        "category set and threshold",
        _mutate_node("threshold", 0.5, _first_category_node),
        "a category set and a threshold",
        None,
    ),
    ("category sign 2", _set(["category_sign", 0], 2), "it must be 1 or -1", None),
    ("category names key", _set(["category_names"], {"x": ["a"]}), "keys are feature ids", None),
    ("category names feature", _set(["category_names"], {"7": ["a"]}), "names feature 7", None),
    ("category names number", _set(["category_names"], {"2": [1, 2]}), "distinct names", None),
]


@pytest.mark.parametrize(
    "mutate, message, source",
    [(m, msg, s) for _, m, msg, s in RULES],
    ids=[rule[0] for rule in RULES],
)
def test_each_rule_refuses_with_a_message_naming_the_field(mutate, message, source):
    name = {"numeric": "numeric grower", "regressor": "regressor", "list": None}.get(
        source, "grower with categories"
    )
    doc = [] if name is None else _doc(name)
    if name is not None:
        mutate(doc)
    with pytest.raises(ValueError, match=re.escape(message)):
        Tree.from_dict(doc)


def test_a_tree_over_the_node_limit_is_refused(monkeypatch):
    monkeypatch.setattr(_tree_json, "MAX_NODES", 5)
    with pytest.raises(ValueError, match="a saved tree has 1 to 5 nodes"):
        Tree.from_dict(_doc())
    doc = _doc()
    doc["feature"] = []
    with pytest.raises(ValueError, match="at least its root"):
        Tree.from_dict(doc)


def test_a_huge_category_code_would_need_too_large_a_lookup(monkeypatch):
    monkeypatch.setattr(_tree_json, "MAX_CATEGORY_CELLS", 100)
    doc = _doc()
    node = _first_category_node(doc)
    doc["categories"][node] = [60]
    doc["category_names"] = None
    with pytest.raises(ValueError, match="needs a lookup"):
        Tree.from_dict(doc)


@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 100_000 + "]" * 100_000, "nests lists or objects too deeply"),
        ("{'feature': [}", "not valid JSON"),
        (b"\xff\xfe\x00", "not UTF-8"),
        ("9" * 10_000, "not a saved tree"),
    ],
)
def test_parse_tree_json_refuses_what_the_parser_would_crash_on(text, message):
    with pytest.raises(ValueError, match=message):
        parse_tree_json(text)


def test_parse_tree_json_reads_a_saved_tree():
    tree = SOURCES["classifier"]
    assert Tree.from_dict(parse_tree_json(tree.to_json().encode())) == tree


# ---------------------------------------------------------- the data check
NAMES = ["a", "b", "colour"]


def test_a_tree_fits_the_data_it_was_grown_on():
    tree = SOURCES["grower with categories"]
    assert (
        tree_data_problems(
            tree, NAMES, "classification", ["no", "yes"], [False, False, True], {2: COLOUR}
        )
        == []
    )
    check_tree_for_data(tree, NAMES, "classification", ["no", "yes"], [2], {2: COLOUR})


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"task": "regression"},
            "grown for classification, but the current dataset is a regression",
        ),
        ({"feature_names": ["a", "b"]}, "grown on 3 feature(s); the current dataset has 2"),
        ({"feature_names": ["a", "x", "colour"]}, 'feature 1 is "b" in the tree but "x" here'),
        ({"class_names": [0, 1, 2]}, "predicts 2 class(es); the current dataset has 3"),
        ({"class_names": ["0", "1"]}, 'classes are "no", "yes"; the current dataset\'s are "0"'),
        ({"categorical": None}, 'splits "colour" by categories (node'),
        ({"categorical": [True, False, True]}, 'splits "a" by a threshold'),
        ({"category_names": {2: ["blue"]}}, 'but "colour" has 1 category here'),
        ({"category_names": {2: ["a", "b", "c", "d"]}}, 'categories of "colour" differ'),
    ],
)
def test_a_tree_that_does_not_fit_the_data_is_refused_in_words(kwargs, message):
    arguments = {
        "feature_names": NAMES,
        "task": "classification",
        "class_names": ["no", "yes"],
        "categorical": [False, False, True],
        "category_names": {2: COLOUR},
        **kwargs,
    }
    tree = SOURCES["grower with categories"]
    with pytest.raises(ValueError, match=re.escape(message)):
        check_tree_for_data(tree, **arguments)


# ----------------------------------------------------------------- fuzzing
PER_DOCUMENT_SECONDS = 30


@contextlib.contextmanager
def _time_limit(seconds):
    """Fail (instead of hanging the suite) when one document takes longer than ``seconds``."""

    def expire(signum, frame):
        raise TimeoutError(f"a fuzzed document took over {seconds} s: the code loops")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _use(tree):
    """Everything the app does with a loaded tree; none of it may raise or hang."""
    rng = np.random.default_rng(1)
    n_rows = 12
    data = rng.normal(size=(n_rows, tree.n_features))
    categorical = sorted({int(tree.feature[i]) for i, c in enumerate(tree.categories) if c})
    for j in categorical:
        data[:, j] = rng.integers(0, 6, size=n_rows)
    data[0, :] = np.nan if not categorical else data[0, :]
    for op in ("<=", "<", "average"):
        tree.predict(data, op)
    tree.decision_path(data, "<=")
    tree.decision_path(data, "<")
    tree_to_dot(tree)
    tree_to_dot(tree, op="<")
    clean = np.nan_to_num(data)
    target = np.arange(n_rows) % 2 if tree.is_classifier else clean[:, 0]
    try:
        TreeGrower.from_tree(
            clean,
            target,
            tree,
            criterion="gini" if tree.is_classifier else "squared_error",
            categorical_features=categorical or None,
        )
    except ValueError as err:  # a split this data cannot replay: refused in words
        assert str(err)


def _load_and_use(doc):
    with _time_limit(PER_DOCUMENT_SECONDS):
        try:
            tree = Tree.from_dict(doc)
        except ValueError as err:
            assert str(err)
            return False
        _use(tree)
        return True


json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 12),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, -0.0, 1e308, -1.5]),
    st.text(max_size=4),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=12,
)
LIST_FIELDS = [
    "feature",
    "threshold",
    "left",
    "right",
    "value",
    "n_samples",
    "weighted_n_samples",
    "impurity",
    "depth",
    "categories",
    "category_sign",
]
SCALAR_FIELDS = [
    "is_classifier",
    "n_features",
    "feature_names",
    "class_names",
    "category_names",
    "format",
    "version",
]


@st.composite
def mutation(draw, doc):
    kind = draw(st.sampled_from(["element", "element", "element", "field", "delete", "resize"]))
    if kind == "field":
        doc[draw(st.sampled_from(LIST_FIELDS + SCALAR_FIELDS))] = draw(json_value)
    elif kind == "delete":
        doc.pop(draw(st.sampled_from(LIST_FIELDS + SCALAR_FIELDS)), None)
    else:
        field = draw(st.sampled_from(LIST_FIELDS))
        values = doc.get(field)
        if not isinstance(values, list) or not values:
            return
        if kind == "resize":
            if draw(st.booleans()):
                values.pop(draw(st.integers(0, len(values) - 1)))
            else:
                values.append(values[draw(st.integers(0, len(values) - 1))])
            return
        i = draw(st.integers(0, len(values) - 1))
        n = len(doc["feature"]) if isinstance(doc.get("feature"), list) else 3
        values[i] = draw(st.one_of(st.integers(-2, n + 1), json_value))


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.sampled_from(sorted(SOURCES)), st.data())
def test_fuzzed_saved_trees_are_refused_or_usable(name, data):
    doc = copy.deepcopy(_doc(name))
    for _ in range(data.draw(st.integers(1, 3))):
        data.draw(mutation(doc))
    _load_and_use(doc)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 7).flatmap(
        lambda n: st.fixed_dictionaries(
            {
                "feature": st.lists(st.integers(-1, 2), min_size=n, max_size=n),
                "threshold": st.lists(st.one_of(st.none(), st.floats()), min_size=n, max_size=n),
                "left": st.lists(st.integers(-1, n), min_size=n, max_size=n),
                "right": st.lists(st.integers(-1, n), min_size=n, max_size=n),
                "value": st.lists(
                    st.sampled_from([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]]), min_size=n, max_size=n
                ),
                "n_samples": st.lists(st.integers(0, 9), min_size=n, max_size=n),
                "weighted_n_samples": st.lists(st.floats(0, 9), min_size=n, max_size=n),
                "impurity": st.lists(st.floats(0, 1), min_size=n, max_size=n),
                "depth": st.lists(st.integers(0, 3), min_size=n, max_size=n),
                "is_classifier": st.just(True),
                "n_features": st.integers(1, 3),
                "categories": st.one_of(
                    st.none(),
                    st.lists(
                        st.one_of(st.none(), st.lists(st.integers(0, 4), max_size=3)),
                        min_size=n,
                        max_size=n,
                    ),
                ),
            }
        )
    )
)
def test_random_tree_shaped_documents_are_refused_or_usable(doc):
    # Random links produce cycles, shared children and links back up (the hangs of issue 20).
    _load_and_use(doc)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_value)
def test_random_json_is_refused_or_usable(doc):
    _load_and_use(doc)
