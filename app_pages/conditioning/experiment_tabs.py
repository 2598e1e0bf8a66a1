"""The conditioning page's long runs: source 000's protocol on the dataset, and Tables 2 and 3.

Both tabs start a run in the background (``ui.runs``), list the saved runs,
and show the one opened; each is a function of the page's
:class:`~app_pages.conditioning.tabs.PageContext`.
"""

from functools import partial

import streamlit as st

from app_pages.conditioning import keys
from datasets.bundled import PAPER_CLASSIFICATION, PAPER_REGRESSION
from lab.paper import ALL_PAPER_DATASETS, engines_frame, html_page
from lab.saved import chosen_settings_frame, engine_runs
from trees.conditioning import (
    PAPER_RANDOM_STATE,
    engine_conditionings,
    installed_library_engines,
    missing_library_engines,
)
from ui import figures, runs, share
from ui.markdown import plain
from viz.conditioning import score_distribution_figure

from . import runs as cr
from . import settings as cs
from .controls import clip, set_value

__all__ = ["show_experiment_tab", "show_tables_tab"]


def _experiment_controls(limit, reason):
    """The experiment's own settings: model, repeats, folds (at most what the data allows).

    The model is one tree, a random forest (the page's engine), or a
    library's own ensemble (its defaults; installed libraries only).
    """
    e1, e2, e3 = st.columns(3)
    models = {"tree": "one tree", "forest": "a random forest",
              **{e: f"{e}'s ensemble" for e in installed_library_engines()}}  # fmt: skip
    model = share.selectbox(
        e1, "Model", list(models), key="cond_exp_model", format_func=models.get,
        help="A library's ensemble is fitted with the library's defaults and predicted under "
             "both tests through its imported trees (boosting: ≤, < and their average).",
    )  # fmt: skip
    repeats = share.number_input(e2, "Repeats", 1, 400, 10, key=keys.EXP_REPEATS,
                                 help="The paper repeats 5-fold cross-validation 400 times.")  # fmt: skip
    e2.button("The paper's 400 repeats", key="cond_exp_paper_repeats", on_click=set_value,
              args=(keys.EXP_REPEATS, 400))  # fmt: skip
    folds = 2
    if limit > 2:
        clip(keys.EXP_FOLDS, 2, max(2, limit))
        folds = share.number_input(e3, "Folds", 2, limit, min(5, limit), key=keys.EXP_FOLDS)
    elif limit == 2:
        e3.markdown("**Folds**: 2")
    if reason and limit:
        e3.caption(f"At most {limit} folds: {reason}.")
    if cs.missing_engines_text():  # the full width: the command is long
        st.caption(cs.missing_engines_text())
    return model, int(repeats), int(folds)


def _experiment_text(settings, model, repeats, folds):
    """What the experiment will run, in words."""
    if model in cs.LIBRARY_ENGINE_TEXT:
        tests = ", ".join(cs.TEST_WORDS.get(t, t) for t in engine_conditionings(model, "forest"))
        return (f"**Runs** {repeats} x {folds} folds of {cs.LIBRARY_ENGINE_TEXT[model]}, seed "
                f"{PAPER_RANDOM_STATE}, one thread; scored under {tests} through its imported "
                "trees.")  # fmt: skip
    trees_text = f"; {settings.n_trees} trees" if model == "forest" else ""
    return (f"**Runs** {repeats} x {folds} folds of {'one tree' if model == 'tree' else 'a forest'}: "
            f"{plain(settings.origin(model))}{trees_text}. Fitted by {settings.fit_text()}.")  # fmt: skip


def show_experiment_tab(page):
    """Source 000's repeated k-fold protocol on the page's dataset, run in the background."""
    data, settings = page.data, page.settings
    st.markdown(
        f"Source 000's protocol on **{plain(data.name)}**: repeated k-fold cross-validation with every test "
        "scored on the same folds (AUC or R²), and Wilcoxon signed-rank tests between them (§4.4). "
        "It runs in the background: it goes on if you close the tab, every fold is saved, and a "
        "saved run reopens at once."
    )
    limit, reason = cr.fold_limit(data.task, page.y)
    if limit == 0:
        st.warning(
            f"The experiment cannot run on {plain(data.name)}: {reason}. Pick a dataset with more rows."
        )
    model, repeats, folds = _experiment_controls(limit, reason)
    st.markdown(
        _experiment_text(settings, model, repeats, folds)
        + f" Significance: {cs.SIGNIFICANCE[settings.significance]}; ρ_k (the folds' share of splits "
        f"on a lattice value) counted against {cs.RHO_K[settings.rho_k_against]}."
    )
    if st.button("Run in the background", type="primary", key="cond_exp_run", disabled=limit == 0):
        job = cr.experiment_job(
            page.X, page.y, data, page.data_key, settings, model, repeats, folds
        )
        runs.start(job, panel_key=keys.RUNS)
    runs.runs_section("conditioning", page.data_key, keys.RUNS,
                      "Saved runs on this dataset: reopen, compare two, delete",
                      partial(show_experiment_result, settings.significance))  # fmt: skip
    st.caption(cr.DEFINITIONS)


def show_experiment_result(significance, opened):
    """A saved experiment (``opened``: its run and result, or None) under the significance rule."""
    if opened is None:
        st.caption("Run the experiment, or reopen a saved run below.")
        return
    run, result = opened
    if result is None:
        st.info(
            f"{plain(run['label'])}: {run['status']}, {run['n_done']} of {run['n_tasks']} folds saved. "
            + ("Its results appear when every fold is in." if run["status"] == "running" else
               "It stopped before its results could be combined: press Run with the same settings to resume it.")
        )  # fmt: skip
        return
    summary = result.summary(rule=significance)
    st.markdown(f"**{plain(run['label'])}** ({run['status']})")
    figures.table(cr.result_frame(summary, run["dataset"], result.model),
                  title="This run in the notation of Tables 2 and 3", hide_index=True)  # fmt: skip
    if run["dataset"] in ALL_PAPER_DATASETS and not cr.matches_paper(run):
        st.caption(
            "This run's settings are not the paper's (Table 1, 400 x 5 folds, 100 trees): compare with care."
        )
    st.markdown(cr.reading(summary, result.proposed, result.metric))
    st.caption(
        f"Marks under {cs.SIGNIFICANCE[significance]} (chosen in the settings; the saved scores "
        "give either rule at once)."
    )
    left, right = st.columns([3, 2])
    figures.chart(
        score_distribution_figure(result.scores, result.metric), key="cond_exp_box", container=left
    )
    right.markdown(
        "**How this run was computed**\n\n"
        + "\n".join(f"- {k}: {v}" for k, v in cr.settings_used(run).items())
    )


def _tables_controls(dataset_name, engine):
    """Which of the paper's datasets and models to run, and how many repeats."""
    options = list(ALL_PAPER_DATASETS)
    buttons = st.container(horizontal=True)
    for label, key, names_ in (
        ("All 40", "cond_tables_all", options),
        ("The 20 classification", "cond_tables_clf", list(PAPER_CLASSIFICATION)),
        ("The 20 regression", "cond_tables_reg", list(PAPER_REGRESSION)),
    ):
        buttons.button(label, key=key, on_click=set_value, args=(keys.TABLES_NAMES, names_))
    default = [dataset_name] if dataset_name in options else ["haberman", "bupa", "o-ring"]
    chosen = st.multiselect("Datasets", options, key=keys.TABLES_NAMES,
                            default=None if keys.TABLES_NAMES in st.session_state else default)  # fmt: skip
    t1, t2 = st.columns(2)
    models = t1.multiselect(
        "Models", ["tree", "forest"], default=["tree", "forest"], key="cond_tables_models"
    )
    repeats = share.number_input(t2, "Repeats of 5-fold cross-validation", 1, 400, 10,
                                 key=keys.TABLES_REPEATS)  # fmt: skip
    t2.button("The paper's 400 repeats", key="cond_tables_paper", on_click=set_value,
              args=(keys.TABLES_REPEATS, 400))  # fmt: skip
    engines = st.multiselect(
        "Engines (a column group each in the side-by-side table)", list(cs.TABLE_ENGINES),
        default=[engine], key="cond_tables_engines", format_func=cs.engine_chip,
        help="Other libraries fit their own ensemble (the 'forest' rows; boosting is scored "
             "under ≤, < and their average, without 'half').",
    )  # fmt: skip
    library_settings = "defaults"
    if any(e in cs.LIBRARY_ENGINE_TEXT for e in engines):
        library_settings = share.radio(
            st, "The libraries' settings", list(cs.LIBRARY_SETTINGS),
            key=keys.TABLES_LIBRARY_SETTINGS, horizontal=True,
            format_func=cs.LIBRARY_SETTINGS.get,
            help="Chosen: for each dataset, the number of trees and the depth from the "
                 "engine's small grid with the best mean AUC or R² under the library's own test "
                 "over 20 x 5-fold cross-validation (source 000, section 4.3), run first.",
        )  # fmt: skip
    return chosen, models, int(repeats), engines, library_settings


def show_tables_tab(page):
    """Source 000's protocol on its own datasets and settings, beside Tables 2 and 3."""
    settings = page.settings
    st.markdown(
        "Source 000's protocol on its own datasets with its own settings (Table 1; forests of 100 "
        "trees), each row beside the paper's (Tables 2 and 3). At the paper's 400 x 5 folds all 40 "
        "datasets take hours: the run goes on in the background and saves each fold."
    )
    chosen, models, repeats, engines, library_settings = _tables_controls(
        page.data.name, settings.engine
    )
    st.caption(
        cr.tables_plan_text(chosen, models, repeats, engines, library_settings, settings)
        + f" Significance: {cs.SIGNIFICANCE[settings.significance]}; ρ_k (the folds' share of splits "
        f"on a lattice value) counted against {cs.RHO_K[settings.rho_k_against]}; change them in "
        "the settings above."
    )
    if st.button(
        "Run in the background",
        type="primary",
        key="cond_tables_run",
        disabled=not (chosen and models and engines),
    ):
        _start_tables(chosen, models, repeats, settings, engines, library_settings)
    runs.runs_section("tables", None, keys.TABLES_RUNS,
                      "Saved runs of Tables 2 and 3: reopen, compare two, delete",
                      show_tables_result)  # fmt: skip
    show_engines_side_by_side(chosen, engines)
    st.caption(cr.DEFINITIONS)


def _start_tables(chosen, models, repeats, settings, engines, library_settings):
    """One background run per engine; the panel opens the first.

    A library engine with settings chosen per dataset first runs the
    selection, then the tables with its choice, in the same worker.
    """
    for index, engine in enumerate(engines):
        if engine in missing_library_engines():  # listed for its saved runs, cannot run here
            st.warning(cs.missing_engines_text())
            continue
        job = cr.tables_job(chosen, models, repeats, settings, engine)
        if not job.models:
            st.warning(f"{engine} fits its library's ensemble only: tick the model 'forest'.")
            continue
        if engine in cs.LIBRARY_ENGINE_TEXT and library_settings == "chosen":
            runs.start(cr.selection_job(chosen, engine), kind="tables",
                       then=cr.tables_after_selection(chosen, repeats, settings, engine))  # fmt: skip
            continue
        runs.start(job, panel_key=keys.TABLES_RUNS if index == 0 else None)


def show_engines_side_by_side(chosen, engines):
    """The saved runs of the chosen engines on the chosen datasets, a column group per engine."""
    store = runs.results_store()
    if store is None or not engines or not chosen:
        return
    found = engine_runs(store, engines, chosen)
    st.markdown("**Engines side by side**, beside the paper's scikit-learn cells")
    if not found:
        st.caption("No saved run of these engines covers these datasets yet.")
        return
    frame = engines_frame({engine: run["summary"] for engine, run in found.items()})
    frame = frame[frame["dataset"].isin(chosen)]
    st.dataframe(frame, hide_index=True, key="cond_engines_table")
    st.caption(
        "Runs shown: "
        + "; ".join(f"{e}: {plain(r['label'])} ({r['status']})" for e, r in found.items())
        + ". A library's 'forest' is its own ensemble (boosting: proposed remedy 'average')."
    )
    settings_chosen = chosen_settings_frame(found)
    if len(settings_chosen):
        settings_chosen = settings_chosen[settings_chosen["dataset"].isin(chosen)]
        st.markdown("**Settings chosen per dataset** by the paper's rule (the libraries' names)")
        st.dataframe(settings_chosen, hide_index=True, key="cond_engines_chosen")
    st.download_button("Download the engines table (CSV)", frame.to_csv(index=False),
                       file_name="conditioning_engines.csv", mime="text/csv",
                       key="cond_engines_csv")  # fmt: skip
    st.download_button("Download the engines table (HTML)", html_page(frame, "Tables 2-3 per engine"),
                       file_name="conditioning_engines.html", mime="text/html",
                       key="cond_engines_html")  # fmt: skip


def show_tables_result(opened):
    """A saved Tables 2 and 3 run (``opened``: its run and frame, or None) beside the paper's."""
    if opened is None:
        st.caption("Run the protocol, or reopen a saved run below.")
        return
    run, frame = opened
    st.markdown(
        f"**{plain(run['label'])}** ({run['status']}, {run['n_done']:,} of {run['n_tasks']:,} fits saved)"
    )
    if frame.empty:
        st.info(
            "No dataset has finished yet: its rows appear here as each dataset and model is done."
        )
        return
    figures.table(cr.comparison_display(frame), title="Tables 2 and 3 beside the paper's",
                  hide_index=True, key="cond_tables_table")  # fmt: skip
    st.caption(
        cr.agreement_text(frame) + " Green: our cell agrees with the paper's; orange: it does not."
    )
    st.markdown(
        "**How this run was computed**: "
        + "; ".join(f"{k}: {v}" for k, v in cr.settings_used(run).items())
    )
    st.download_button("Download the table (CSV)", frame.to_csv(index=False), file_name="conditioning_tables_2_3.csv",
                       mime="text/csv", key="cond_tables_csv")  # fmt: skip
