"""Presenter mode: figures sized for a projector, and guides that set up what each step shows."""

import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from app_pages.conditioning import keys as conditioning_keys
from tests.apptest_helpers import by_key, open_page, shown
from ui import presenter, state
from ui.errors import UNEXPECTED
from ui.guides import GUIDES
from ui.lectures import LECTURES
from ui.navigation import PAGES

PAGE_PATHS = {spec.url_path: spec.path for spec in PAGES}


@pytest.fixture
def presenting(monkeypatch):
    monkeypatch.setattr(presenter, "active", lambda: True)


def _small_figure():
    figure = make_subplots(rows=1, cols=2, subplot_titles=["left", "right"])
    figure.add_trace(go.Heatmap(z=[[1, 2], [3, 4]], colorbar={"tickfont": {"size": 10}}), 1, 1)
    figure.add_trace(go.Scatter(x=[1, 2], y=[3, 4], marker={"color": [1, 2]}), 1, 2)
    figure.add_annotation(text="note", font={"size": 9}, x=0, y=0)
    figure.update_layout(height=400, xaxis={"tickfont": {"size": 11}}, legend={"font": {"size": 8}})
    return figure


def test_presenter_figures_name_every_size_at_least_the_minimum(presenting):
    original = _small_figure()
    scaled = presenter.scale_figure(original)
    smallest = presenter.FIGURE_MIN_FONT
    assert scaled.layout.font.size == presenter.FIGURE_FONT
    for axis in [*scaled.select_xaxes(), *scaled.select_yaxes()]:
        assert axis.tickfont.size >= smallest and axis.title.font.size >= smallest
    assert all(a.font.size >= smallest for a in scaled.layout.annotations)
    assert scaled.layout.legend.font.size >= smallest
    assert scaled.data[0].colorbar.tickfont.size >= smallest
    # A colour bar the figure did not show stays hidden (naming its size would draw it).
    assert scaled.data[1].marker.colorbar.tickfont.size is None
    # The cached original is untouched.
    assert original.layout.xaxis.tickfont.size == 11 and original.layout.font.size is None


def test_presenter_figures_grow_but_a_key_picture_fits_the_first_screen(presenting):
    assert presenter.scale_figure(_small_figure()).layout.height > 400
    tall = _small_figure().update_layout(height=700)
    assert presenter.scale_figure(tall, key_picture=True).layout.height == (
        presenter.KEY_PICTURE_HEIGHT
    )


def test_presenter_mode_off_leaves_figures_alone():
    figure = _small_figure()
    assert presenter.scale_figure(figure) is figure


def test_every_guided_page_has_a_tab_key_and_its_steps_name_real_datasets():
    from datasets import GROUPS

    names = {name for group in GROUPS.values() for name in group}
    for page, steps in GUIDES.items():
        assert page in PAGE_PATHS, page
        for step in steps:
            assert step.dataset is None or step.dataset in names, (page, step.title)
            assert step.tab is None or page in presenter.TAB_KEYS, (page, step.title)


def _presenting_page(page):
    at = open_page(PAGE_PATHS[page], timeout=300)
    by_key(at.sidebar.toggle, state.PRESENTER).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not [e.value for e in at.error if UNEXPECTED in e.value]
    return at


@pytest.mark.parametrize("page", sorted(set(GUIDES) - set(presenter.TAB_KEYS)))
def test_a_guided_page_without_tabs_shows_its_guide_in_presenter_mode(page):
    """The guide asks what the page lacks for a step; a page without tabs has no tab to ask
    about (its guide once failed with KeyError on the home page)."""
    at = _presenting_page(page)
    assert by_key(at.button, f"{state.GUIDE_STEP_PREFIX}{page}_next")


def _walk(at, page):
    """Press Next through the page's guide; yield the AppTest at each step after the first."""
    for number in range(1, len(GUIDES[page])):
        by_key(at.button, f"{state.GUIDE_STEP_PREFIX}{page}_next").click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert at.session_state[state.GUIDE_STEP_PREFIX + page] == number
        yield GUIDES[page][number]


@pytest.mark.slow
@pytest.mark.parametrize("page", ["conditioning", "instability", "cultivated", "split_bias"])
def test_next_opens_the_tab_each_step_talks_about(page):
    at = _presenting_page(page)
    for step in _walk(at, page):
        if step.tab:
            assert at.session_state[presenter.TAB_KEYS[page]] == step.tab, step.title
            assert step.tab in [tab.label for tab in at.tabs], step.title


@pytest.mark.slow
def test_a_step_about_the_mushrooms_loads_them_and_says_so_when_they_are_not_loaded():
    at = _presenting_page("data")
    # Opened on step 1 with another dataset: the guide offers to set the step up.
    setup = by_key(at.button, f"{state.GUIDE_STEP_PREFIX}data_setup_0")
    assert "secondary-mushroom" in setup.help
    setup.click().run()
    assert not at.exception
    assert "secondary-mushroom" in shown(" ".join(m.value for m in at.sidebar.markdown))
    step = next(_walk(at, "data"))  # step 2 keeps the mushrooms
    assert step.dataset == "secondary-mushroom"
    # Set up stays in its place, disabled: the bar never moves under the pointer.
    assert by_key(at.button, f"{state.GUIDE_STEP_PREFIX}data_setup_1").disabled


def test_vote_summary_counts_each_choice_in_the_order_offered():
    assert presenter.vote_summary(("a", "b"), {}) == "No answers recorded."
    text = presenter.vote_summary(("a", "b", "c"), {"b": 3, "a": 1})
    assert text.index("a: **1**") < text.index("b: **3**") < text.index("c: **0**")
    assert "(4)" in text and "75%" in text


def test_every_lecture_step_opens_a_real_page_and_tab():
    for lecture in LECTURES.values():
        assert len(lecture.steps) >= 5
        for item in lecture.steps:
            assert item.page in PAGE_PATHS, item.step.title
            assert len(item.choices) >= 2, item.step.title
            assert item.step.tab is None or item.page in presenter.TAB_KEYS


@pytest.mark.slow
def test_a_lecture_walks_across_pages_and_counts_the_class_answers():
    at = _presenting_page("home")
    title = next(iter(LECTURES))
    by_key(at.sidebar.selectbox, state.LECTURE).set_value(title).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Lecture, step 1 of" in m.value for m in at.markdown)
    vote = by_key(at.button, "lecture_vote_0_2")
    vote.click().run()
    by_key(at.button, "lecture_vote_0_2").click().run()
    assert at.session_state[state.LECTURE_VOTES][(title, 0)] == {"It depends on the library": 2}
    assert any("It depends on the library: **2**" in m.value for m in at.markdown)
    by_key(at.button, "lecture_next").click().run()  # step 2 is on the conditioning page
    assert not at.exception, [e.value for e in at.exception]
    assert any("conditioning bias" in t.value for t in at.title)
    assert any("Lecture, step 2 of" in m.value for m in at.markdown)
    by_key(at.button, "lecture_next").click().run()  # step 3 opens its tab
    assert at.session_state[conditioning_keys.TAB] == "Tree and mirror"


# ---------------------------------------------- issue 57: the question before the answer
def _texts(at):
    return " ".join(m.value for m in at.markdown)


def test_every_part_a_step_holds_back_is_one_the_pages_know():
    from ui.guides import PARTS

    steps = [s for steps in GUIDES.values() for s in steps]
    steps += [item.step for lecture in LECTURES.values() for item in lecture.steps]
    assert all(set(step.hides) <= set(PARTS) for step in steps)


def test_the_home_page_asks_before_it_answers_and_reveal_shows_the_answer():
    at = _presenting_page("home")
    assert "Ask the class:" in _texts(at)
    assert "pays back**" not in _texts(at) and "defaults**" not in _texts(at)
    assert "→ ?" in _texts(at)
    # The tree views mark no leaf (a red border) before Reveal.
    from tests.apptest_helpers import tree_views

    assert all('stroke="#d62728"' not in view["svg"] for view in tree_views(at))
    at.session_state[state.GUIDE_REVEALED] = {("home", 0)}
    at.run()
    # On a projector the verdicts stand over the trees (the headline is one line).
    assert "→ pays back" in _texts(at) and "→ defaults" in _texts(at)
    assert "Ask the class:" not in _texts(at) and "One tree, two answers" in _texts(at)
    assert all('stroke="#d62728"' in view["svg"] for view in tree_views(at))
    # The next step holds nothing back: the verdicts are there at once.
    by_key(at.button, f"{state.GUIDE_STEP_PREFIX}home_next").click().run()
    assert "→ pays back" in _texts(at)


def test_outside_presenter_mode_nothing_is_held_back():
    at = open_page(PAGE_PATHS["home"])
    assert "she **pays back**" in _texts(at) and "Ask the class:" not in _texts(at)
    assert "first lesson" in " ".join(p.label for p in at.get("page_link")).lower()


# A fragment of each page's headline, which states the numbers its first step asks about.
HEADLINES = {
    "staircase": "regions for",
    "cultivated": "modules whose nodes hesitate",
    "conditioning": "sit exactly on a threshold",
    "split_bias": "times as often",
}


@pytest.mark.parametrize("page", sorted(HEADLINES))
def test_a_first_step_about_the_headline_shows_the_question_in_its_place(page):
    at = _presenting_page(page)
    assert "Ask the class:" in _texts(at) and GUIDES[page][0].ask in _texts(at)
    assert HEADLINES[page] not in _texts(at)
    at.session_state[state.GUIDE_REVEALED] = {(page, 0)}
    at.run()
    assert HEADLINES[page] in _texts(at) and "Ask the class:" not in _texts(at)


def test_the_lecture_holds_back_its_first_steps_answer():
    at = _presenting_page("home")
    title = next(iter(LECTURES))
    by_key(at.sidebar.selectbox, state.LECTURE).set_value(title).run()
    assert "Ask the class:" in _texts(at) and "→ defaults" not in _texts(at)
    at.session_state[state.GUIDE_REVEALED] = {(title, 0)}
    at.run()
    assert "→ defaults" in _texts(at)


def test_the_model_page_asks_how_many_rows_change_before_it_counts_them():
    """Its first step asks how many rows change: the sentence, its four figures and the rows
    that change (the open tab) wait for Reveal (issue 57)."""
    at = _presenting_page("your_model")
    by_key(at.button, f"{state.GUIDE_STEP_PREFIX}your_model_setup_0").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Ask the class:" in _texts(at) and not at.subheader
    assert [m.value for m in at.metric] == ["?"] * 4
    assert "after Reveal" in " ".join(i.value for i in at.info)
    at.session_state[state.GUIDE_REVEALED] = {("your_model", 0)}
    at.run()
    assert "Ask the class:" not in _texts(at) and "rows" in at.subheader[0].value
    assert all(m.value != "?" for m in at.metric)
    assert "after Reveal" not in " ".join(i.value for i in at.info)


def test_the_worked_example_asks_where_the_applicant_goes_before_it_shows_her_paths():
    """Step 3 of the conditioning guide asks where she goes: her verdicts, paths and
    predictions wait for Reveal (issue 57)."""
    from tests.apptest_helpers import tree_views

    at = _presenting_page("conditioning")
    for _ in range(2):
        by_key(at.button, f"{state.GUIDE_STEP_PREFIX}conditioning_next").click().run()
    assert at.session_state[conditioning_keys.TAB] == "Worked example"
    assert _texts(at).count("→ ?") == 2 and "→ pays back" not in _texts(at)
    assert "show after Reveal" in _texts(at) and "(purple border)" not in _texts(at)
    example_views = [v for v in tree_views(at) if 'stroke="#d62728"' in v["svg"]]
    assert not example_views  # no leaf marked as reached
    at.session_state[state.GUIDE_REVEALED] = {("conditioning", 2)}
    at.run()
    assert "→ ?" not in _texts(at) and "(purple border)" in _texts(at)
    assert "→ pays back" in _texts(at) and "→ defaults" in _texts(at)


def test_held_back_both_trees_open_the_same_nodes():
    """The nodes a tree view opens follow the row's path: held back, both trees open the nodes
    of both paths, or the one that opens another branch would show where they part."""
    import re

    from tests.apptest_helpers import tree_views

    at = _presenting_page("conditioning")
    for _ in range(2):
        by_key(at.button, f"{state.GUIDE_STEP_PREFIX}conditioning_next").click().run()
    for source in ("loan", "data"):
        by_key(at.radio, "cond_example").set_value(source).run()
        assert not at.exception, [e.value for e in at.exception]
        views = [v["svg"] for v in tree_views(at)][-2:]
        opened = [sorted(set(re.findall(r"#(\d+) ·", svg))) for svg in views]
        assert opened[0] and opened[0] == opened[1], (source, opened)


def _grow_figures(at):
    """(trace names, vertical lines) of the Grow page's plotly figures."""
    from tests.apptest_helpers import plotly_figures

    figures = plotly_figures(at)
    names = {trace.get("name") for figure in figures for trace in figure.get("data", ())}
    lines = [s for figure in figures for s in figure.get("layout", {}).get("shapes", ())]
    return names, lines


def test_grow_asks_where_to_cut_before_it_shows_the_best_candidate():
    """Step 1 of Grow asks which feature and where to cut: the score curve, the best
    candidate's line, the near-ties and the ranked table wait for Reveal; the root's rows stay
    (issue 57)."""
    from viz.curves import CANDIDATES

    at = _presenting_page("grow")
    texts = " ".join(i.value for i in at.info) + " " + " ".join(c.value for c in at.caption)
    assert "show after Reveal" in texts
    names, lines = _grow_figures(at)
    assert CANDIDATES not in names and not lines  # no score curve, no line at the best
    assert names  # the root's rows along the feature stay
    assert not at.table  # no ranked table of the features' best splits (HTML on a projector)
    assert "Near-tie at node" not in " ".join(w.value for w in at.warning)
    at.session_state[state.GUIDE_REVEALED] = {("grow", 0)}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    names, lines = _grow_figures(at)
    assert CANDIDATES in names and lines and at.table
    assert "show after Reveal" not in " ".join(i.value for i in at.info)


def test_outside_presenter_mode_grow_shows_the_best_candidate_at_once():
    from viz.curves import CANDIDATES

    at = open_page(PAGE_PATHS["grow"], timeout=300)
    assert not at.exception, [e.value for e in at.exception]
    names, lines = _grow_figures(at)
    assert CANDIDATES in names and lines and at.dataframe
