"""AppTest tests of the conditioning-bias page."""

from tests.apptest_helpers import by_key, open_page, plotly_figures


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def test_page_shows_the_bias_on_the_default_lattice_data():
    at = open_page("pages/conditioning.py", timeout=120)
    metrics = _metrics(at)
    assert float(metrics["ρ: splits on an observed lattice value"].split()[0]) > 0
    assert int(metrics["… whose prediction changes"]) > 0
    titles = [a["text"] for f in plotly_figures(at) for a in f["layout"].get("annotations", [])]
    assert {"<=", "<", "average", "half"} <= set(titles)
    dots = at.get("graphviz_chart")
    assert len(dots) == 3 and "peripheries=2" in dots[0].proto.spec and "−a" in dots[1].proto.spec
    assert "dependents" in dots[2].proto.spec  # the worked example opens on the paper's loan tree
    assert any("as the identity says" in s.value for s in at.success)


def test_the_loan_example_and_its_applicant():
    at = open_page("pages/conditioning.py", timeout=120)
    by_key(at.button, "cond_loan").click().run()
    assert not at.exception
    assert "Loan table" in " ".join(m.value for m in at.sidebar.markdown)
    table = at.dataframe[0].value
    assert table.loc[0, "value"] != table.loc[1, "value"]  # <= and < disagree for the applicant
    assert table.loc[1, "value"] == table.loc[2, "value"]  # mirroring identity
    assert any("3 dependents" in m.value for m in at.markdown)


def test_changing_the_tree_settings():
    at = open_page("pages/conditioning.py", timeout=120)
    by_key(at.number_input, "cond_max_depth").set_value(1).run()
    assert not at.exception
    assert _metrics(at)["ρ: splits on an observed lattice value"].endswith("of 1)")  # a stump


def test_running_the_experiment_shows_the_table():
    at = open_page("pages/conditioning.py", timeout=120)
    by_key(at.number_input, "cond_exp_repeats").set_value(2).run()
    by_key(at.button, "cond_exp_run").click().run()
    assert not at.exception
    summary = at.dataframe[-1].value.set_index("statistic")["value"]
    assert summary["folds"] == "10"
    assert any(
        f["layout"].get("title", {}).get("text") == "AUC on each fold" for f in plotly_figures(at)
    )
    assert any("Over 10 folds" in m.value for m in at.markdown)


def test_forest_experiment_on_regression_data():
    at = open_page("pages/conditioning.py", timeout=120)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("o-ring").run()
    assert not at.exception
    by_key(at.radio, "cond_exp_model").set_value("forest").run()
    by_key(at.number_input, "cond_exp_repeats").set_value(1).run()
    by_key(at.number_input, "cond_exp_trees").set_value(5).run()
    by_key(at.button, "cond_exp_run").click().run()
    assert not at.exception
    summary = at.dataframe[-1].value.set_index("statistic")["value"]
    assert "mean half" in summary.index


def test_all_datasets_run(monkeypatch):
    monkeypatch.setattr("datasets.bundled.PAPER_CLASSIFICATION", {"haberman": "load_haberman"})
    monkeypatch.setattr("datasets.bundled.PAPER_REGRESSION", {"o-ring": "load_o_ring"})
    at = open_page("pages/conditioning.py", timeout=180)
    by_key(at.number_input, "cond_exp_repeats").set_value(1).run()
    by_key(at.button, "cond_exp_all").click().run()
    assert not at.exception
    table = at.dataframe[-1].value
    assert list(table["dataset"]) == ["haberman", "o-ring"]
    assert len(at.get("download_button")) == 1


def test_worked_example_on_a_held_out_row():
    at = open_page("pages/conditioning.py", timeout=120)
    by_key(at.radio, "cond_example").set_value("data").run()
    assert not at.exception
    table = at.dataframe[0].value
    assert table.loc[1, "value"] == table.loc[2, "value"]  # T(x, <) = M[T](-x, <=)
    assert any("as the identity says" in s.value for s in at.success)
