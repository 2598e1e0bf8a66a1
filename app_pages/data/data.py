"""Data: the dataset every page works on, its target and features, and what preprocessing did."""

import streamlit as st

from app_pages.data import keys, upload_panel
from app_pages.data.facts import page_facts
from app_pages.data.feedback import show_flash, show_result
from app_pages.data.pair import pair_part
from app_pages.data.preprocessing import apply_preprocessing_widgets, sync_preprocessing_widgets
from datasets import (
    CATEGORICAL_FILLS,
    GENERATORS,
    GROUPS,
    NUMERIC_FILLS,
    REPORT_PREPROCESSING,
    DataError,
)
from ui import data_controls, figures, glossary, presenter, report, share, snippets, state
from ui.markdown import plain
from ui.navigation import MAX_STUDY_CLASSES
from ui.words import counted
from viz.data_figures import target_figure

# The Data page's choices of the most classes a target keeps (0: every class).
CLASS_LIMITS = (0, 2, 5, 10, MAX_STUDY_CLASSES, 50)

st.title("Data")

show_flash()
notice = data_controls.upload_notice()
if notice is not None:
    (st.success if notice[0] == "restored" else st.warning)(notice[1])
message = st.session_state.pop(keys.PREP_MESSAGE, None)
if message:
    st.error(message)

data, raw = state.current(), state.current_raw()
record = st.session_state.get(state.RECORD)
settings = state.preprocessing_settings()
raw_shape = (raw.name, tuple(map(str, raw.X.columns)), raw.n_rows)
sentence, features, ids = page_facts(
    state.dataset_key(), raw_shape, tuple(sorted(settings.items())), raw, data, record
)
st.header(plain(data.name), divider="gray")
presenter.headline("data", sentence)
presenter.guide("data")
is_report_data = data.group == "Tree-predictor report (source 004)"
uses_report_rules = all(settings[k] == v for k, v in REPORT_PREPROCESSING.items())
if is_report_data and not uses_report_rules:
    # The button under the note, not beside it: a side column cut its words at 1024 px.
    st.info(
        "Source 004 prepares this data its own way (section 2.2 and its code): columns with 20% or "
        "more gaps dropped, the other gaps filled with a new category u, the nominal features kept as categories."
    )
    if st.button("Use source 004's preprocessing", key="data_report_prep_top"):
        show_result(
            data_controls.use_report_preprocessing(), "Source 004's preprocessing is in force."
        )

figures.table(
    features,
    title="Features",
    hide_index=True,
    height=min(38 + 35 * len(features), 390),
    column_config={
        # Sized to their texts: "small" cut "300 numbers" at 1024 px, and a fixed "medium"
        # feature column then cut the preprocessing words.
        "feature": st.column_config.TextColumn("feature"),
        "values": st.column_config.TextColumn("values"),
        "missing share": st.column_config.ProgressColumn(
            "missing", min_value=0.0, max_value=1.0, format="percent", width="small"
        ),
        "lattice": st.column_config.CheckboxColumn(
            "lattice", help=glossary.explain("lattice feature"), width="small"
        ),
        "preprocessing": st.column_config.TextColumn(
            "preprocessing", help="What preprocessing did; the Preprocessing tab has the record."
        ),
    },
)
upload_panel.left_out_panel(settings)
chart_column, about_column = st.columns([1, 2])
figures.chart(target_figure(data), key="data_target_figure", container=chart_column)
about = " · ".join(text for text in (data.source, data.description) if text)
if about:
    about_column.caption(about)
for note in data.notes:
    about_column.info(note)
report.add_note(sentence)
report.add_settings({"dataset": data.name, **snippets.preprocessing_words(settings)})
report.add_snippet(snippets.data_snippet(st.session_state.get(state.DATA_ORIGIN), settings))

# Only the open tab's code runs (a closed tab's table or scatter cost every click 0.1-0.2 s);
# the choice of data always runs: an upload in progress lives in its widgets.
choose_tab, prep_tab, rows_tab, pair_tab = share.tabs(
    st, ["Choose data", "Preprocessing", "Rows", "Two features"], key=keys.TAB
)

with choose_tab, presenter.settings("Choose another dataset"):
    bundled, generated, uploaded = st.tabs(
        ["Bundled", "Generate", "Upload your own"], key=keys.SOURCE_TAB
    )
    with bundled:
        if keys.GROUP not in st.session_state:  # open on the current dataset's group
            st.session_state[keys.GROUP] = next(
                (g for g, names in GROUPS.items() if data.name in names), list(GROUPS)[0]
            )
            if data.name in GROUPS[st.session_state[keys.GROUP]]:
                st.session_state[keys.NAME_PREFIX + st.session_state[keys.GROUP]] = data.name
        g1, g2 = st.columns(2)
        group = g1.selectbox("Group", list(GROUPS), key=keys.GROUP)
        name = g2.selectbox("Dataset", GROUPS[group], key=keys.NAME_PREFIX + group)
        try:
            entry = state.cached_load(name)
            st.caption(
                f"{entry.task} · {counted(entry.n_rows, 'row')} · "
                f"{counted(entry.n_features, 'feature')} · {entry.source}"
            )
        except DataError as err:
            st.error(f"{plain(name)} cannot be loaded: {plain(err)}")
        if st.button("Use this dataset", type="primary", key="data_use_bundled"):
            show_result(data_controls.use_catalog(name), f"Now working on {plain(name)}.")

    with generated:
        generator_name = st.selectbox(
            "Generator",
            list(GENERATORS),
            key="data_generator",
            format_func=lambda n: f"{n}: {GENERATORS[n].summary}",
        )
        params = {}
        spec = GENERATORS[generator_name]
        columns = st.columns(max(1, len(spec.params)))
        for column, param in zip(columns, spec.params, strict=False):
            cast = int if param.is_int else float
            params[param.name] = column.number_input(
                param.label,
                min_value=cast(param.low),
                max_value=cast(param.high),
                value=cast(param.default),
                step=cast(param.step),
                key=f"data_gen_{generator_name}_{param.name}",
            )
        if st.button("Generate", type="primary", key="data_use_generator"):
            show_result(
                data_controls.use_generator(generator_name, params), f"Generated {generator_name}."
            )

    with uploaded:
        upload_panel.upload_tab(settings)

if prep_tab.open:
    with prep_tab:
        st.markdown(
            "Trees need complete, numeric columns. Each step below is a choice, named in the record "
            "at the bottom; the sources' choices are the defaults (source 000, §4.1; source 004, §2.2)."
        )
        with presenter.settings("Preprocessing settings"):
            sync_preprocessing_widgets()
            apply = apply_preprocessing_widgets
            p1, p2 = st.columns(2)
            p1.slider(
                "Drop columns with at least this share missing",
                0.0,
                1.0,
                step=0.05,
                key=keys.PREP_MISSING,
                on_change=apply,
                help=glossary.explain("missing-value threshold"),
            )
            p2.checkbox(
                "Exclude ID-like columns",
                key=keys.PREP_DROP_IDS,
                on_change=apply,
                help=glossary.explain("ID-like column"),
            )
            p1.selectbox(
                "Fill the gaps of numeric columns with",
                list(NUMERIC_FILLS),
                format_func=lambda rule: NUMERIC_FILLS[rule][1],
                key=keys.PREP_NUMERIC_FILL,
                on_change=apply,
                help="The median is a typical value that outliers do not move; the most frequent value "
                "can be odd for a continuous column (an income of 19.7 where most are near 43).",
            )
            p2.selectbox(
                "Fill the gaps of categorical columns with",
                list(CATEGORICAL_FILLS),
                format_func=lambda rule: CATEGORICAL_FILLS[rule][1],
                key=keys.PREP_CATEGORICAL_FILL,
                on_change=apply,
                help="A new category keeps 'unknown' apart from the real values, as source 004 does "
                "with 'u'; the most frequent value merges the unknown rows into it.",
            )
            p1.checkbox(
                "Keep categories (membership splits)",
                key=keys.PREP_KEEP,
                on_change=apply,
                help="Each categorical column becomes one column of codes that trees split by "
                "membership (x ∈ S), as source 004 does; pages without membership splits read the "
                "codes as numbers.",
            )
            p2.number_input(
                "One-hot encode categories up to",
                1,
                50,
                key=keys.PREP_ONEHOT,
                on_change=apply,
                disabled=bool(settings["keep_categories"]),
                help="Source 000: one-hot columns for at most 5 categories, integer codes above "
                "(unused while categories are kept).",
            )
            class_choices = sorted({*CLASS_LIMITS, int(settings["max_classes"])})
            p1.selectbox(
                "Classes of the target",
                class_choices,
                format_func=lambda k: (
                    "keep every class" if k == 0 else f"at most {k}: the rarest grouped"
                ),
                key=keys.PREP_CLASSES,
                on_change=apply,
                disabled=data.task != "classification",
                help="A target of many classes (a free-text column, say) leaves the studies nothing "
                "to learn from its rare classes and runs them for minutes; the study pages take at "
                f"most {MAX_STUDY_CLASSES}. The most frequent classes are kept and the others become "
                "one class, 'other classes'.",
            )
            if ids:
                verb = "are excluded" if settings["drop_id_columns"] else "are used as features"
                st.caption(
                    f"ID-like columns in {plain(data.name)}: {plain(', '.join(map(str, ids)))} ({verb})."
                )
            if not uses_report_rules and st.button(
                "Use source 004's preprocessing", key="data_report_prep"
            ):
                show_result(
                    data_controls.use_report_preprocessing(),
                    "Source 004's preprocessing is in force.",
                )
        if record is None or record.empty:
            st.markdown(
                "**Record:** nothing to do: every feature is numeric and no value is missing."
            )
        else:
            figures.table(
                record,
                title="Preprocessing record",
                hide_index=True,
                column_config={"detail": st.column_config.TextColumn("detail", width="large")},
            )

if rows_tab.open:
    with rows_tab:
        target_name = f"{raw.y.name or 'target'} (target)"
        figures.table(raw.X.assign(**{target_name: raw.y}).head(200), title="The first 200 rows",
                      in_report=False, height=320, key="data_rows")  # fmt: skip
        st.caption(
            (f"All {raw.n_rows:,}" if raw.n_rows <= 200 else f"The first 200 of {raw.n_rows:,}")
            + " rows as loaded, before preprocessing; empty cells are missing values."
        )

if pair_tab.open:
    with pair_tab:
        pair_part(data, dict(zip(features["feature"], features["lattice"], strict=True)))
