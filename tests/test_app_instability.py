"""AppTest tests of the instability page: the five measures of issue 16, the tie-break, the scoreboard."""

import pytest

from app_pages.instability import keys as instability_keys
from tests.apptest_helpers import by_key, open_page, plotly_figures, shown, tree_views
from ui import state
from ui.errors import UNEXPECTED


def _titles(at):
    return [f["layout"].get("title", {}).get("text", "") for f in plotly_figures(at)]


def _metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def _tab(at, label):
    """Open a tab of the page (only the open tab runs) and rerun."""
    at.session_state[instability_keys.TAB] = label
    return at.run()


def _clean(at):
    assert not at.exception, [e.value for e in at.exception]
    assert not [e.value for e in at.error if UNEXPECTED in e.value]


@pytest.fixture
def page():
    return open_page("app_pages/instability/instability.py", timeout=180)


def test_the_page_opens_on_the_badged_tree_and_every_measure(page):
    _clean(page)
    assert page.title[0].value == "Tree instability"
    key = tree_views(page)[0]["svg"]
    assert "row" in key and "#d62728" in key  # fragile nodes carry a red badge
    fragile, total = _metric(page, "Fragile splits").split(" of ")
    assert 0 < int(fragile) <= int(total)
    assert _metric(page, "Two refits agree on").endswith("%")
    assert "Box colour" in " ".join(m.value for m in page.markdown)
    assert "How firmly each node holds its split" in _titles(page)  # 1. split confidence
    for tab, titles in (
        ("Near-tie trees", ["Alternative paths of the"]),  # 2. near-tie trees
        ("Refits compared", ["Map of the refits", "Agreement between every two refits"]),  # 3.
        ("Cutpoints", ["Feature chosen at each node over the refits", "Where each node cuts"]),
    ):
        _tab(page, tab)
        _clean(page)
        shown = " | ".join(_titles(page))
        assert all(title in shown for title in titles), (tab, shown)
    assert len(tree_views(page)) == 1  # the key tree; the refits' trees are in their tab
    _tab(page, "Refits compared")
    assert len(tree_views(page)) == 3  # the key tree and two refits node by node
    assert any(b.key == "inst_board_run" for b in page.button)  # 5. the scoreboard, on request


def test_depth_and_the_way_the_data_changes(page):
    by_key(page.number_input, "inst_depth").set_value(2).run()
    _clean(page)
    assert tree_views(page)[0]["svg"].count('class="tv-node"') <= 7
    by_key(page.selectbox, "inst_kind").select("remove").run()
    by_key(page.number_input, "inst_remove").set_value(10).run()
    _clean(page)
    assert any("10 rows removed at random" in c.value for c in page.caption)
    by_key(page.selectbox, "inst_kind").select("jitter").run()
    by_key(page.slider, "inst_fits").set_value(20).run()
    _clean(page)
    assert any("20 refits on features jittered" in c.value for c in page.caption)


def test_near_tie_trees_follow_epsilon(page):
    _tab(page, "Near-tie trees")
    by_key(page.slider, "inst_eps").set_value(0.0).run()
    assert _metric(page, "Near-tie trees") == "1"
    assert any("No split comes within" in i.value for i in page.info)
    by_key(page.slider, "inst_eps").set_value(0.2).run()
    _clean(page)
    assert int(_metric(page, "Near-tie trees").rstrip("+")) > 1
    assert _metric(page, "Ambiguity").endswith("%")
    assert any("near-tie trees within 20.0%" in m.value for m in page.markdown)


def test_two_refits_node_by_node(page):
    _tab(page, "Refits compared")
    first = by_key(page.selectbox, "inst_diff_a_30").value
    by_key(page.selectbox, "inst_diff_b_30").select(first).run()
    assert any("the same, node for node" in s.value for s in page.success)
    by_key(page.selectbox, "inst_distance").select("structural").run()
    _clean(page)
    assert "Map of the refits" in " ".join(_titles(page))


def test_opening_refits_compared_again_builds_none_of_its_figures(page, monkeypatch):
    """Issue 57: each click on the tab built its three figures again (the spread map predicting
    3,600 grid rows with every refit); they are kept per data, settings and features now."""
    from app_pages.instability import cache

    built = []
    for name in ("refit_map_figure", "matrix_heatmap", "spread_map_figure"):
        original = getattr(cache, name)
        monkeypatch.setattr(
            cache, name, lambda *a, _f=original, _n=name, **k: built.append(_n) or _f(*a, **k)
        )
    _tab(page, "Refits compared")
    titles = _titles(page)
    _tab(page, "Fragile splits")
    built.clear()
    _tab(page, "Refits compared")
    _clean(page)
    assert built == [] and _titles(page) == titles


def test_the_tie_break_alone_on_data_with_ties():
    at = _tab(open_page("app_pages/instability/instability.py", timeout=180), "Tie-break")
    assert _metric(at, "Seeds that change it") == "0 of 20"
    assert any("No seed changes the tree" in i.value for i in at.info)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    _clean(at)
    changed = int(_metric(at, "Seeds that change it").split(" of ")[0])
    assert changed > 0 and int(_metric(at, "Distinct trees")) > 1
    assert any("exact ties between features at node" in m.value for m in at.markdown)
    labels = [t.label for t in at.tabs]
    assert "lowest feature index" in labels


def test_removing_one_row_marks_the_changed_nodes(page):
    _tab(page, "One row removed")
    caption = next(c.value for c in page.caption if c.value.startswith("Row "))
    assert "differ" in caption  # the page opens on a row whose removal changes the tree
    after = next(v["svg"] for v in tree_views(page) if "#9467bd" in v["svg"])
    assert after


def test_regression_data(page):
    by_key(page.sidebar.selectbox, "sidebar_dataset_switch").select("Smooth 2-D regression").run()
    _clean(page)
    _tab(page, "Refits compared")
    assert "Variance of the prediction" in _titles(page)
    assert "mean" in tree_views(page)[0]["svg"]


def test_an_emptied_feature_selector_falls_back(page):
    """Issue 20: "None is not in list" when a feature selector was emptied."""
    _tab(page, "Refits compared")
    by_key(page.selectbox, "inst_fx").set_value(None).run()
    _clean(page)
    assert by_key(page.selectbox, "inst_fx").value in ("a", "b")


def test_the_scoreboard_compares_the_cultivated_forest_like_with_like(page):
    """Issue 21 item 5: the forest used its own defaults beside a depth-4 tree, unexplained."""
    by_key(page.number_input, "inst_depth").set_value(3).run()
    by_key(page.slider, "inst_board_refits").set_value(5).run()
    by_key(page.button, "inst_board_run").click().run()
    _clean(page)
    assert any("held-out AUC" in d.value.columns for d in page.dataframe)
    # Each learner's settings in a list of words (a table's column cut them at 1024 px).
    listed = next(
        shown(m.value) for m in page.markdown if m.value.startswith("**Each learner's settings**")
    )
    settings = dict(line[2:].split(": ", 1) for line in listed.splitlines()[2:])
    assert "max_depth=3" in settings["*CART*"]
    assert "max_depth=3" in settings["*cultivated forest*"]
    assert "max_depth=3" in settings["*random forest*"]
    like = next(i.value for i in page.info if i.value.startswith("Like with like"))
    assert "same depth 3" in like and "disagree on" in like
    assert any(t.startswith("Stability scoreboard") for t in _titles(page))
    by_key(page.number_input, "inst_depth").set_value(4).run()
    assert any("run with other settings" in w.value for w in page.warning)


def test_a_stopped_scoreboard_shows_the_refits_it_finished(page):
    from datasets import load, preprocess
    from trees.instability import stability_scoreboard

    data, _ = preprocess(load("Lattice features"))
    builds = []
    stability_scoreboard(
        *data.arrays(), "classification", n_refits=3, n_permutations=9, on_refit=builds.append
    )
    page.session_state[instability_keys.BOARD] = builds[0]  # what a Stop after one refit leaves
    page.run()
    _clean(page)
    assert any("Stopped after 1 refit" in w.value for w in page.warning)


def test_presenter_mode_shows_the_guided_sequence(page):
    page.sidebar.toggle[0].set_value(True).run()
    _clean(page)
    assert "Step 1 of 6: Fragile splits" in " ".join(m.value for m in page.markdown)


def test_the_report_snippet_reproduces_the_page(page, capsys):
    _tab(page, "Near-tie trees")
    snippet = page.session_state[state.REPORT].snippet
    exec(compile(snippet, "snippet", "exec"), {})  # noqa: S102 (our own code)
    printed = capsys.readouterr().out
    agreement = _metric(page, "Two refits agree on")
    assert f"two refits agree on {agreement} of the held-out rows" in printed
    assert f"{_metric(page, 'Near-tie trees')} near-tie tree" in printed
    assert "seeds that change the tree: 0 distinct trees: 1" in printed


def _background(kind):
    """The server's computations of ``kind`` (the first item of their key)."""
    from lab.computations import server_computations

    return [e for k, e in server_computations()._entries.items() if k[0] == kind]


@pytest.fixture
def large(monkeypatch):
    """Every split judging and near-tie study counts as large work (issue 30, item 3)."""
    from app_pages.instability import cache
    from lab.computations import server_computations
    from ui.experiments import kept_result

    monkeypatch.setattr(cache, "LARGE_WORK", 1)
    server_computations().clear()
    kept_result.clear()  # nothing computed by an earlier test
    yield
    server_computations().clear()
    kept_result.clear()


def test_large_split_judging_runs_in_the_background_and_badges_the_tree_when_done(large):
    at = open_page("app_pages/instability/instability.py", timeout=180)
    _clean(at)
    # The run ended at once: the tree is drawn without badges, the judging and the refits go
    # on (one after the other: the server's worker takes one computation at a time).
    [entry] = _background("split confidence")
    [refitting] = _background("refits")
    assert _metric(at, "Fragile splits") == "not judged yet"
    assert _metric(at, "Two refits agree on") == "not refitted yet"
    assert "#d62728" not in tree_views(at)[0]["svg"]
    assert any("not judged yet" in i.value for i in at.info)
    assert entry.wait(600) and entry.status == "done" and entry.total > 0
    assert refitting.wait(600) and refitting.status == "done"
    at.run()  # the next run takes the table and the refits, and badges the tree
    _clean(at)
    fragile, total = _metric(at, "Fragile splits").split(" of ")
    assert 0 < int(fragile) <= int(total)
    assert _metric(at, "Two refits agree on").endswith("%")
    assert "#d62728" in tree_views(at)[0]["svg"]
    _tab(at, "Refits compared")
    assert "Map of the refits" in " | ".join(_titles(at))
    again = open_page("app_pages/instability/instability.py", timeout=180)  # another session
    assert _metric(again, "Fragile splits") == _metric(at, "Fragile splits")  # kept: no rerun
    assert _background("split confidence") == [entry] and _background("refits") == [refitting]


def test_large_tie_break_refits_run_in_the_background(large):
    at = open_page("app_pages/instability/instability.py", timeout=180)
    for kind in ("split confidence", "refits"):
        _background(kind)[0].wait(600)
    _tab(at, "Tie-break")
    [entry] = _background("tie-break refits")
    assert entry.wait(600) and entry.status == "done"
    at.run()
    _clean(at)
    assert int(_metric(at, "Distinct trees")) >= 1  # the study's panel is drawn


def test_large_near_tie_trees_grow_in_the_background_and_a_stop_says_so(large, monkeypatch):
    import threading

    from app_pages.instability import cache

    gate, real = threading.Event(), cache.near_tie_trees

    def held(*args, progress=None, should_stop=None, **kwargs):
        def gated(done, total):
            progress(done, total)
            assert gate.wait(600)

        return real(*args, progress=gated, should_stop=should_stop, **kwargs)

    monkeypatch.setattr(cache, "near_tie_trees", held)
    at = open_page("app_pages/instability/instability.py", timeout=180)
    _background("split confidence")[0].wait(600)
    _tab(at, "Near-tie trees")
    [entry] = _background("near-tie trees")
    assert "Alternative paths of the" not in " | ".join(_titles(at))  # not there yet
    entry.stop()
    gate.set()
    assert entry.wait(600) and entry.status == "stopped"
    at.run()
    _clean(at)
    assert any("Stopped" in i.value for i in at.info)
    at.button(key=f"{instability_keys.NEAR_TIES}_restart").click().run()
    [again] = _background("near-tie trees")
    assert again is not entry and again.wait(600) and again.status == "done"
    at.run()
    _clean(at)
    assert "Alternative paths of the" in " | ".join(_titles(at))


def test_the_count_of_fragile_splits_says_what_it_means():
    """Issue 57, item 9: "8 of 8 fragile" on the wine data said nothing a student can use."""
    from app_pages.instability.splits import fragility_words
    from datasets import load
    from trees import DecisionTreeClassifier
    from trees.instability import split_confidence
    from trees.tasks import train_test_rows
    from viz.stability import confidence_badges

    data = load("wine")
    X, y = data.arrays()
    train, _ = train_test_rows("classification", y, 0.3, 0)
    model = DecisionTreeClassifier(max_depth=4).fit(X[train], y[train])
    table = split_confidence(model, X[train], y[train], n_bootstrap=50)
    words = fragility_words(table, confidence_badges(table), len(train))
    assert words.startswith("**Every split is fragile, the root too (removing 1 row changes")
    assert "A shallower tree (Settings)" in words
    assert fragility_words(None, {}, len(train)) == ""
