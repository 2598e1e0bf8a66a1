"""The remedy, shippable (issue 31, part 4): a conditioned wrapper and the mirrored model.

* :class:`ConditionedModel` predicts with any imported model under a chosen
  operator, or the average of both (source 000, section 3.3), as a
  scikit-learn estimator that needs no fitting.
* :func:`mirrored_model` writes section 3.1's second way back in the
  library's own format: every split's children swapped, its threshold
  negated and its default direction for missing values flipped, so that

  .. math:: T(\\mathbf{x}, \\text{other}) = \\mathcal{M}[T](-\\mathbf{x}, \\text{native})

  (``x < t`` iff ``-x > -t``; negating a float is exact, and ``-NaN`` is
  NaN). The library's own runtime fed ``-X`` then predicts with the other
  operator, and averaging it with the original predicts with both.
  XGBoost (JSON document, loaded by ``xgboost.Booster``), LightGBM (model
  text, loaded by ``lightgbm.Booster``) and scikit-learn (a copy whose trees
  are rewritten through ``Tree.__setstate__``, the route pickling itself
  takes, since ``tree_.threshold`` cannot be assigned) are supported.
  CatBoost is not: negating an oblivious tree's borders also reverses the
  order of its leaves and of the feature's border list, which the JSON
  export ties to the binarisation; use :class:`ConditionedModel` there.
"""

import copy
import json

import numpy as np
from sklearn.base import BaseEstimator

from ._build import ModelFileError, need
from ._model import CONDITIONINGS
from ._optional import import_optional
from ._registry import from_model

__all__ = ["ConditionedModel", "mirrored_model"]


class ConditionedModel(BaseEstimator):
    """A fitted tree model predicting under a chosen conditioning (no fitting needed).

    Parameters
    ----------
    model : anything :func:`trees.interop.from_model` accepts
    conditioning : {"average", "native", "<=", "<", "half"}, default="average"
        ``"average"``: the mean of the two operators' probabilities or values
        (source 000, section 3.3).

    Notes
    -----
    A meta-estimator around a model that is already fitted, as
    ``sklearn.frozen.FrozenEstimator`` is: ``fit`` learns nothing, and
    ``sklearn.base.clone`` returns a new wrapper around the same fitted model
    (``__sklearn_clone__``), so cross-validation and pipelines keep the model
    (``cross_val_score(ConditionedModel(model), X, y)`` scores it under the
    conditioning on every fold). ``score`` is the accuracy (classifiers) or R²
    (regressors), as scikit-learn's mixins define it. Rows are read by the
    model's own rule (``ImportedModel.check_X``: columns by name, categories as
    codes). A model that is not fitted is refused when used, in words.
    """

    def __init__(self, model, conditioning="average"):
        self.model = model
        self.conditioning = conditioning

    def _imported(self):
        if self.conditioning not in CONDITIONINGS:
            raise ValueError(
                f"conditioning must be one of {CONDITIONINGS}, got {self.conditioning!r}."
            )
        cached = self.__dict__.get("_cache")
        if cached is None or cached[0] is not self.model:
            cached = (self.model, from_model(self.model))
            self.__dict__["_cache"] = cached
        return cached[1]

    def fit(self, X=None, y=None, **fit_params):
        """Nothing to fit: the wrapped model is already fitted (checked here). Returns self."""
        self._imported()
        return self

    def __sklearn_clone__(self):
        return type(self)(self.model, conditioning=self.conditioning)

    def __sklearn_is_fitted__(self):
        try:
            self._imported()
        except ValueError:
            return False
        return True

    def __getstate__(self):
        state = super().__getstate__()
        state.pop("_cache", None)  # rebuilt from the model when used
        return state

    def _estimator_type_of_model(self):
        """ "classifier", "regressor" or None, without importing a scikit-learn-like model."""
        if hasattr(self.model, "__sklearn_tags__") and not isinstance(self.model, type):
            from sklearn.utils import get_tags

            model = getattr(self.model, "estimator", self.model)  # FrozenEstimator
            kind = get_tags(model).estimator_type
            if kind in ("classifier", "regressor"):
                return kind
        try:
            return "classifier" if self._imported().is_classifier else "regressor"
        except ValueError:
            return None

    def __sklearn_tags__(self):
        from sklearn.utils import ClassifierTags, RegressorTags

        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        tags.input_tags.allow_nan = True
        kind = self._estimator_type_of_model()
        if kind == "classifier":
            tags.estimator_type, tags.classifier_tags = "classifier", ClassifierTags()
        elif kind == "regressor":
            tags.estimator_type, tags.regressor_tags = "regressor", RegressorTags()
        return tags

    @property
    def classes_(self):
        """The class labels (classifiers only)."""
        imported = self._imported()
        if not imported.is_classifier:
            raise AttributeError("A regressor has no classes_.")
        return imported.classes_

    @property
    def n_features_in_(self):
        """Number of columns the model takes."""
        return self._imported().inputs.n_columns

    @property
    def feature_names_in_(self):
        """The names of the columns the model was trained on, when it stores them."""
        inputs = self._imported().inputs
        if inputs.names is None or inputs.generated:
            raise AttributeError("The model stores no names of its columns.")
        return np.asarray(inputs.names, dtype=object)

    def predict(self, X):
        """Classes or values under ``conditioning``."""
        return self._imported().predict(X, self.conditioning)

    def predict_proba(self, X):
        """Class probabilities under ``conditioning``."""
        return self._imported().predict_proba(X, self.conditioning)

    def decision_function(self, X):
        """Raw scores under ``conditioning`` (the average of the two operators' raw scores)."""
        return self._imported().decision_function(X, self.conditioning)

    def score(self, X, y, sample_weight=None):
        """Accuracy (classifiers) or R² (regressors) of :meth:`predict` on ``(X, y)``."""
        from sklearn.metrics import accuracy_score, r2_score

        metric = accuracy_score if self._imported().is_classifier else r2_score
        return float(metric(y, self.predict(X), sample_weight=sample_weight))


def _plain(value):
    """A JSON document with numpy arrays (from UBJSON) turned into lists."""
    return json.loads(json.dumps(value, default=lambda v: np.asarray(v).tolist()))


def _mirror_xgboost(imported):
    xgboost = import_optional("xgboost", "the mirrored XGBoost model")
    document = _plain(imported.document)
    booster = document["learner"]["gradient_booster"]
    model = (booster["gbtree"] if booster.get("name") == "dart" else booster)["model"]
    _keep_trees(document, model, imported.n_trees)
    for tree in model["trees"]:
        left, right = tree["left_children"], tree["right_children"]
        need(
            not any(tree.get("split_type", [])), "Trees with categorical splits cannot be mirrored."
        )
        for node, child in enumerate(left):
            if child < 0:
                continue
            left[node], right[node] = right[node], child
            tree["split_conditions"][node] = -tree["split_conditions"][node]
            tree["default_left"][node] = int(not tree["default_left"][node])
    mirrored = xgboost.Booster()
    mirrored.load_model(bytearray(json.dumps(document).encode()))
    return mirrored


def _keep_trees(document, model, n_trees):
    """Keep the first ``n_trees`` trees of an XGBoost document: those the imported model
    predicts with (early stopping), so that the mirror's ``Booster.predict`` uses the same."""
    if len(model["trees"]) == n_trees:
        return
    model["trees"], model["tree_info"] = model["trees"][:n_trees], model["tree_info"][:n_trees]
    if isinstance(model.get("iteration_indptr"), list):
        model["iteration_indptr"] = [i for i in model["iteration_indptr"] if i <= n_trees]
    model.setdefault("gbtree_model_param", {})["num_trees"] = str(n_trees)
    booster = document["learner"]["gradient_booster"]
    if booster.get("name") == "dart":
        booster["weight_drop"] = booster["weight_drop"][:n_trees]
    (document["learner"].get("attributes") or {}).pop("best_iteration", None)


def _mirror_lightgbm_block(block):
    """One ``Tree=`` block of a LightGBM model text, mirrored."""
    lines = dict(line.split("=", 1) for line in block.splitlines() if "=" in line)
    decision = [int(v) for v in lines.get("decision_type", "").split()]
    need(not any(d & 1 for d in decision), "Trees with categorical splits cannot be mirrored.")
    new = {
        "threshold": " ".join(repr(-float(v)) for v in lines.get("threshold", "").split()),
        "left_child": lines.get("right_child", ""),
        "right_child": lines.get("left_child", ""),
        "decision_type": " ".join(str(d ^ 2) for d in decision),
    }
    out = []
    for line in block.splitlines():
        key = line.split("=", 1)[0]
        out.append(f"{key}={new[key]}" if "=" in line and key in new else line)
    return "\n".join(out)


def _mirror_lightgbm(imported):
    lightgbm = import_optional("lightgbm", "the mirrored LightGBM model")
    text = imported.document
    head, rest = text.split("\nTree=", 1)
    body, tail = rest.split("end of trees", 1)
    head = "\n".join(line for line in head.splitlines() if not line.startswith("tree_sizes="))
    blocks = ["Tree=" + b for b in body.split("\nTree=")]
    mirrored = "\n".join(_mirror_lightgbm_block(b) for b in blocks)
    return lightgbm.Booster(model_str=f"{head}\n\n{mirrored}end of trees{tail}")


def _mirror_sklearn_tree(sk_tree):
    state = sk_tree.__getstate__()
    nodes = state["nodes"].copy()
    internal = nodes["left_child"] >= 0
    left = nodes["left_child"].copy()
    nodes["left_child"] = np.where(internal, nodes["right_child"], left)
    nodes["right_child"] = np.where(internal, left, nodes["right_child"])
    nodes["threshold"] = np.where(internal, -nodes["threshold"], nodes["threshold"])
    flipped = 1 - nodes["missing_go_to_left"]
    nodes["missing_go_to_left"] = np.where(internal, flipped, nodes["missing_go_to_left"])
    sk_tree.__setstate__({**state, "nodes": nodes})


def _mirror_hist_predictor(predictor):
    nodes = predictor.nodes
    need(not np.any(nodes["is_categorical"]), "Trees with categorical splits cannot be mirrored.")
    internal = nodes["is_leaf"] == 0
    left = nodes["left"].copy()
    nodes["left"] = np.where(internal, nodes["right"], left)
    nodes["right"] = np.where(internal, left, nodes["right"])
    nodes["num_threshold"] = np.where(internal, -nodes["num_threshold"], nodes["num_threshold"])
    nodes["missing_go_to_left"] = np.where(internal, 1 - nodes["missing_go_to_left"],
                                           nodes["missing_go_to_left"])  # fmt: skip


def _mirror_sklearn(imported):
    model = copy.deepcopy(imported.document)
    if hasattr(model, "_predictors"):
        for iteration in model._predictors:
            for predictor in iteration:
                _mirror_hist_predictor(predictor)
        return model
    estimators = getattr(model, "estimators_", [model])
    for estimator in np.ravel(np.asarray(estimators, dtype=object)):
        _mirror_sklearn_tree(estimator.tree_)
    return model


def mirrored_model(model):
    """The mirrored model, in its library's own type, to be fed ``-X`` (module docstring).

    ``mirrored.predict(-X)`` (XGBoost: on ``DMatrix(-X)``) equals the
    original model's predictions under the operator it does not use:
    ``from_model(model).predict(X, conditioning=imported.other_op)``.

    Parameters
    ----------
    model : an XGBoost, LightGBM or scikit-learn model, or its ImportedModel

    Returns
    -------
    xgboost.Booster, lightgbm.Booster or a scikit-learn estimator

    Raises
    ------
    ModelFileError
        For CatBoost models and trees with categorical splits.
    """
    imported = from_model(model)
    if imported.library == "xgboost":
        return _mirror_xgboost(imported)
    if imported.library == "lightgbm":
        return _mirror_lightgbm(imported)
    if imported.library == "sklearn" and imported.document is not None:
        return _mirror_sklearn(imported)
    raise ModelFileError(
        f"A mirrored {imported.library} model cannot be written; "
        "use ConditionedModel(model, conditioning=...) instead."
    )
