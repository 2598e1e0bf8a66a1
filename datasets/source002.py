"""Source 002's published numbers, transcribed as data: Table 1 (section 4).

Nalenz & Augustin report the average AUC over 10-fold cross-validation
(the same folds for every method) of a random forest (R's randomForest with
its standard settings: 500 trees grown to purity, p/3 covariates tried at
each node), four variants of the cultivated random forest (CRF-full,
CRF-split and CRF-option with a maximum depth of 14, CRF-shallow with 6) and
CART (R's rpart with its standard settings: at least 20 observations to
split, depth at most 30, a split kept only if it lowers the impurity by 0.01
of the root's), on 22 binary datasets (Supplement C).

Three of them are in the lab's catalogue: :data:`CATALOG_NAMES` maps the
catalogue's name to the row's (same data: Supplement C's Table 2 gives
306 rows for Haberman, 768 for Diabetes, 569 with 30 covariates for
Wisconsin Breast Cancer).
"""

__all__ = ["CATALOG_NAMES", "TABLE_1", "TABLE_1_MODELS"]

# The columns of Table 1 as the lab names the models.
TABLE_1_MODELS = ("random forest", "CRF-full", "CRF-split", "CRF-option", "CRF-shallow", "CART")
_ROWS = (
    ("Colon", 0.850, 0.887, 0.874, 0.808, 0.887, 0.859),
    ("DLBC", 0.951, 0.955, 0.901, 0.78, 0.955, 0.721),
    ("Leukaemia", 1, 1, 1, 1, 1, 0.838),
    ("Prostate", 0.955, 0.968, 0.938, 0.847, 0.968, 0.851),
    ("Australian Credit", 0.932, 0.936, 0.921, 0.928, 0.937, 0.903),
    ("Banknote", 1.000, 0.998, 0.998, 0.999, 0.995, 0.966),
    ("Blood Transfusion", 0.685, 0.750, 0.731, 0.691, 0.745, 0.729),
    ("Climate Model", 0.930, 0.940, 0.920, 0.909, 0.936, 0.771),
    ("Diabetes", 0.828, 0.831, 0.814, 0.800, 0.830, 0.797),
    ("EEG-Eye-State", 0.985, 0.935, 0.940, 0.934, 0.794, 0.724),
    ("Haberman", 0.682, 0.724, 0.696, 0.681, 0.723, 0.626),
    ("Indian Liver", 0.752, 0.749, 0.724, 0.709, 0.749, 0.667),
    ("Ionosphere", 0.982, 0.957, 0.940, 0.960, 0.949, 0.905),
    ("Magic", 0.937, 0.920, 0.901, 0.904, 0.887, 0.808),
    ("Parkinsons", 0.980, 0.950, 0.949, 0.932, 0.953, 0.890),
    ("QSAR Biodeg", 0.933, 0.923, 0.900, 0.878, 0.906, 0.838),
    ("Spambase", 0.986, 0.980, 0.971, 0.973, 0.962, 0.894),
    ("SPECTF", 0.850, 0.837, 0.764, 0.724, 0.841, 0.721),
    ("Steel Plates", 0.992, 1.000, 1.000, 1.000, 0.987, 1.000),
    ("Vertebral", 0.995, 0.958, 0.956, 0.966, 0.947, 0.927),
    ("Wisconsin Breast", 0.992, 0.992, 0.987, 0.991, 0.992, 0.948),
    ("Wilt", 0.987, 0.987, 0.989, 0.984, 0.958, 0.960),
)
# Table 1 as {dataset: {model: mean AUC}}.
TABLE_1 = {row[0]: dict(zip(TABLE_1_MODELS, row[1:], strict=True)) for row in _ROWS}
# The lab's catalogue name -> Table 1's row.
CATALOG_NAMES = {"haberman": "Haberman", "pima": "Diabetes", "breast cancer": "Wisconsin Breast"}
