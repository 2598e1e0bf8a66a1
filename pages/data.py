"""Data: pick, generate or upload the dataset every other page works on."""

import streamlit as st

from datasets import GENERATORS, GROUPS, DataError, infer_task
from ui import data_controls, shell, state
from ui.dataset_facts import feature_summary, lattice_flags
from viz.data_figures import scatter_figure, target_figure

shell.page_frame()

st.title("Data")
st.markdown(
    "Every page of the lab works on the dataset chosen here. Pick one of the bundled datasets "
    "(among them the 40 of the conditioning-bias study), generate one of the sources' examples "
    "with your own parameters, or upload a table. Missing values and categorical columns are "
    "prepared as the sources do it; the record below says what was done."
)


FLASH = state.DATA_FLASH


def show_result(message, success):
    """Show an error here, or rerun so the whole app (sidebar included) shows the new dataset."""
    if message:
        st.error(message)
    else:
        st.session_state[FLASH] = success
        st.rerun()


if FLASH in st.session_state:
    st.success(st.session_state.pop(FLASH))


bundled, generated, uploaded = st.tabs(["Bundled", "Generate", "Upload"])

with bundled:
    if state.DATA_GROUP not in st.session_state:  # open on the current dataset's group
        current_name = state.current().name
        st.session_state[state.DATA_GROUP] = next(
            (g for g, names in GROUPS.items() if current_name in names), list(GROUPS)[0]
        )
        if current_name in GROUPS[st.session_state[state.DATA_GROUP]]:
            st.session_state[state.DATA_NAME_PREFIX + st.session_state[state.DATA_GROUP]] = (
                current_name
            )
    group = st.selectbox("Group", list(GROUPS), key=state.DATA_GROUP)
    name = st.selectbox("Dataset", GROUPS[group], key=state.DATA_NAME_PREFIX + group)
    try:
        entry = state.cached_load(name)
        st.caption(
            f"{entry.task} · {entry.n_rows:,} rows · {entry.n_features} features · {entry.source}"
        )
    except DataError as err:
        st.error(f"{name} cannot be loaded: {err}")
    if st.button("Use this dataset", type="primary", key="use_bundled"):
        show_result(data_controls.use_catalog(name), f"Now working on {name}.")

with generated:
    generator_name = st.selectbox(
        "Generator",
        list(GENERATORS),
        key="generator",
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
            key=f"gen_{generator_name}_{param.name}",
        )
    if st.button("Generate", type="primary", key="use_generator"):
        show_result(
            data_controls.use_generator(generator_name, params), f"Generated {generator_name}."
        )

with uploaded:
    file = st.file_uploader(
        "A table with a header row: CSV, TSV, semicolon-separated text, or Excel",
        type=["csv", "tsv", "txt", "xlsx"],
        key="upload_file",
    )
    if file is not None:
        try:
            table = data_controls.cached_read_table(file.getvalue(), file.name)
        except DataError as err:
            st.error(f"{file.name}: {err}")
            st.caption("The dataset you were working on is unchanged.")
        else:
            st.caption(f"{file.name}: {len(table):,} rows, {table.shape[1]} columns.")
            target = st.selectbox(
                "Target column", list(table.columns), index=table.shape[1] - 1, key="upload_target"
            )
            inferred = infer_task(table[target])
            task = st.radio(
                "Task",
                ["classification", "regression"],
                horizontal=True,
                key=f"upload_task_{target}",
                index=0 if inferred == "classification" else 1,
                help=f"Inferred from the target: {inferred}.",
            )
            if st.button("Use this table", type="primary", key="use_upload"):
                show_result(
                    data_controls.use_table(table, target, task, file.name),
                    f"Now working on {file.name}.",
                )

settings = state.preprocessing_settings()
with st.expander("Preprocessing settings"):
    left, right = st.columns(2)
    share = left.slider(
        "Drop columns with more missing values than",
        0.0,
        1.0,
        float(settings["max_missing_share"]),
        0.05,
        key="prep_missing",
        help="Source 004 drops features with a significant share of missing values.",
    )
    onehot = right.number_input(
        "One-hot encode categories up to",
        1,
        50,
        int(settings["max_onehot"]),
        key="prep_onehot",
        help="Source 000: one-hot encoding for at most 5 categories, integer encoding above.",
    )
    keep = st.checkbox(
        "Keep categorical columns as categories (native membership splits)",
        value=settings["keep_categories"],
        key="prep_keep",
        help="Each categorical column becomes one column of codes that trees split by "
        "membership (x ∈ S) on the step-by-step and Evaluate pages; other pages treat the codes as numbers.",
    )
    if (share, onehot, keep) != (
        settings["max_missing_share"],
        settings["max_onehot"],
        settings["keep_categories"],
    ):
        message = data_controls.apply_settings(share, onehot, keep)
        if message:
            st.error(message)

data, raw = state.current(), state.current_raw()
st.header(data.name)
st.caption(
    f"{data.task} · {raw.n_rows:,} rows · {raw.n_features} features as loaded, "
    f"{data.n_features} after preprocessing" + (f" · {data.source}" if data.source else "")
)
if data.description:
    st.markdown(data.description)
for note in data.notes:
    st.info(note)

st.subheader("Preview")
st.dataframe(raw.X.assign(**{f"{raw.y.name or 'target'} (target)": raw.y}).head(200), height=250)

st.subheader("Features")
st.dataframe(
    feature_summary(raw),
    column_config={
        "missing share": st.column_config.ProgressColumn(
            "missing share", min_value=0.0, max_value=1.0, format="percent"
        ),
        "lattice": st.column_config.CheckboxColumn(
            "lattice", help="Some value has two others at equal distance (source 000, 4.1)."
        ),
    },
    hide_index=True,
)

left, right = st.columns(2)
with left:
    st.plotly_chart(target_figure(data), key="target_figure")
with right:
    features = list(data.X.columns)
    if len(features) >= 2:
        fx = st.selectbox("Horizontal axis", features, index=0, key="scatter_x")
        fy = st.selectbox("Vertical axis", features, index=1, key="scatter_y")
        lattice = lattice_flags(raw)
        jitter = st.checkbox(
            "Jitter stacked points",
            value=bool(lattice.get(fx) or lattice.get(fy)),
            key="scatter_jitter",
            help="Moves points slightly so rows with equal values do not hide each other.",
        )
        figure, shown = scatter_figure(data, fx, fy, jitter=jitter)
        st.plotly_chart(figure, key="scatter_figure")
        if shown < data.n_rows:
            st.caption(f"A random {shown:,} of the {data.n_rows:,} rows are drawn.")
    else:
        st.info("This dataset has a single feature: there is no pair to plot.")

st.subheader("Preprocessing record")
record = st.session_state.get(state.RECORD)
if record is None or record.empty:
    st.markdown("Nothing to do: every feature is numeric and no value is missing.")
else:
    st.dataframe(record, hide_index=True)
