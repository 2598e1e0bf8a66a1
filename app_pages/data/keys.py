"""The Data page's session keys: each of its widget and state keys starts with ``data_``, or,
for its preprocessing widgets, ``prep_``.

``TAB`` is also reached by the frame, by its name on the page (``ui.navigation.PageSpec.key``):
presenter mode opens the tab a guide's step talks about.
"""

FLASH = "data_flash"  # the sentence a change of dataset leaves for the rerun that shows it
TAB = "data_tab"  # the open tab
SOURCE_TAB = "data_source_tab"  # the open tab of "Choose data": bundled, generated, uploaded
GROUP = "data_group"
NAME_PREFIX = "data_name_"  # + group: the dataset selectbox of each group
PREP_MESSAGE = "data_prep_message"  # why the last preprocessing change was refused
UPLOADER_ROUND = "data_uploader_round"  # files this session put to use: names the uploader's key
UPLOADER_PREFIX = "data_upload_file_"  # + that round: the file uploader's key
# The preprocessing widgets (their values follow the settings in force: app_pages.data.preprocessing).
PREP_MISSING = "prep_missing"
PREP_ONEHOT = "prep_onehot"
PREP_KEEP = "prep_keep"
PREP_NUMERIC_FILL = "prep_numeric_fill"
PREP_CATEGORICAL_FILL = "prep_categorical_fill"
PREP_DROP_IDS = "prep_drop_ids"
PREP_CLASSES = "prep_classes"
# Widget key -> the preprocessing setting it shows.
PREP_WIDGETS = {
    PREP_MISSING: "max_missing_share",
    PREP_ONEHOT: "max_onehot",
    PREP_KEEP: "keep_categories",
    PREP_NUMERIC_FILL: "numeric_fill",
    PREP_CATEGORICAL_FILL: "categorical_fill",
    PREP_DROP_IDS: "drop_id_columns",
    PREP_CLASSES: "max_classes",
}
