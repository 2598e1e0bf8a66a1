"""The one tree view of the app: an SVG drawing that fits the screen, zooms, pans, and answers clicks.

Built with ``st.components.v2`` (Streamlit's public component API: inline
HTML, CSS and JavaScript, no build step). The picture opens fitted to the
column's width, but never smaller than 12 px text; a wider tree scrolls
sideways (drag it, or use the scroll bar). Buttons zoom in and out, fit, or
show the natural size; Ctrl/⌘ + scroll zooms at the pointer. Clicking a box
selects its node; clicking "+ N more below" expands that subtree.

Which subtrees are expanded or collapsed is kept per view in the session
(``ui.state.TREE_VIEW_PREFIX``). A view given the tree's rows offers a toggle that draws
them inside the nodes (:func:`rows_toggle`, ``viz.node_glyphs``).

The rows inside the nodes are drawn as dtreeviz draws them (``viz.node_glyphs``): a split's rows
along its feature (stacked by class, or the target against it), the threshold as a line with the
rows exactly on it counted, a membership split's categories, a leaf's class counts or targets.
The rows are routed once by the tree's own ``decision_path``, and only the boxes drawn get a
glyph. A small tree a page shows whole may leave out the zoom buttons and hint
(``controls=False``; dragging and Ctrl/⌘ + scroll still work): the home page does, so the leaves
its story is about stay on the first screen at 1024 x 768 with the sidebar open.
"""

import numpy as np
import streamlit as st

from viz.node_glyphs import distributions_caption
from viz.tree_svg import FONT_SIZE, drawing_to_svg, drawing_width, modules_drawing, tree_drawing

from . import presenter, share, state

__all__ = ["expanded_nodes", "rows_toggle", "show_modules", "show_tree", "tree_view"]

# Smallest on-screen text: 12 px (the 13 px drawing scaled by 12/13); on a projector 16 px.
MIN_SCALE = 12 / FONT_SIZE
# The badges' text is 2 px smaller than the boxes' (viz.tree_svg): it sets the scale.
PRESENTER_MIN_SCALE = presenter.TREE_TEXT_PX / (FONT_SIZE - 2)


def _min_scale():
    """The smallest scale the view may draw at: larger in presenter mode, for the back row."""
    return PRESENTER_MIN_SCALE if presenter.active() else MIN_SCALE


_CSS = """
.tv-root { font-family: var(--st-font, sans-serif); }
.tv-bar { display: flex; gap: .35rem; align-items: center; margin-bottom: .3rem; flex-wrap: wrap; }
.tv-bar button { border: 1px solid #c8cfc8; background: white; border-radius: .4rem; padding: .1rem .55rem;
  font-size: .95rem; cursor: pointer; line-height: 1.4; }
.tv-bar button:hover { border-color: var(--st-primary-color, #2E7D32); }
.tv-hint { color: #5f665f; font-size: .85rem; }
/* Presenter mode: the bar's words at the body text's size (the page's rules cannot reach
   inside the component). */
.tv-presenter .tv-hint, .tv-presenter .tv-bar button { font-size: 1.3rem; }
.tv-viewport { overflow: auto; border: 1px solid #e2e6e2; border-radius: .5rem; background: #fbfcfb;
  cursor: grab; max-width: 100%; }
.tv-viewport.tv-dragging { cursor: grabbing; user-select: none; }
.tv-viewport svg { display: block; margin: 0 auto; }
.tv-node { cursor: pointer; }
.tv-node:hover rect:first-of-type, .tv-node:focus rect:first-of-type { stroke: #2E7D32; stroke-width: 2.5; }
.tv-more { cursor: pointer; text-decoration: underline; }
"""

_JS = """
export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let root = parentElement.querySelector('.tv-root');
  if (!root) {
    root = document.createElement('div');
    root.className = 'tv-root';
    root.innerHTML = '<div class="tv-bar">' +
      '<button data-act="in" title="Zoom in">+</button>' +
      '<button data-act="out" title="Zoom out">−</button>' +
      '<button data-act="fit" title="Fit the width">Fit</button>' +
      '<button data-act="one" title="Natural size">1:1</button>' +
      '<span class="tv-hint"></span></div><div class="tv-viewport"></div>';
    parentElement.appendChild(root);
  }
  const viewport = root.querySelector('.tv-viewport');
  const hint = root.querySelector('.tv-hint');
  // A view without controls (a small tree a page shows whole) keeps its drag and Ctrl+scroll.
  root.querySelector('.tv-bar').style.display = data.controls === false ? 'none' : '';
  root.classList.toggle('tv-presenter', data.presenter === true);
  viewport.innerHTML = data.svg;
  const svg = viewport.querySelector('svg');
  const W = data.width, H = data.height, minScale = data.min_scale, maxHeight = data.max_height;
  const maxScale = data.max_scale || 1.6;
  let scale = 1;
  function apply(keepX, keepY) {
    svg.setAttribute('width', (W * scale).toFixed(1));
    svg.setAttribute('height', (H * scale).toFixed(1));
    viewport.style.height = Math.min(H * scale + 18, maxHeight) + 'px';
    if (keepX !== undefined) { viewport.scrollLeft = keepX; viewport.scrollTop = keepY; }
    const wide = W * scale > viewport.clientWidth + 1;
    hint.textContent = wide ? 'Drag or scroll sideways to see the whole tree · Ctrl/⌘ + scroll zooms'
                            : 'Ctrl/⌘ + scroll zooms · click a box to select it';
  }
  let fitted = true, fittedWidth = 0;
  function fit() {
    fitted = true;
    fittedWidth = viewport.clientWidth;
    const available = Math.max(viewport.clientWidth - 4, 100);
    // As wide as the column allows, but no taller than the view: the whole picture on screen.
    scale = Math.max(minScale, Math.min(maxScale, available / W, (maxHeight - 20) / H));
    apply();
    viewport.scrollLeft = Math.max(0, (W * scale - viewport.clientWidth) / 2);
  }
  // A view drawn in a hidden tab or expander has no width yet: fit again once it gets one (and
  // when the column is resized), unless the user zoomed.
  if (root._tvObserver) root._tvObserver.disconnect();
  root._tvObserver = new ResizeObserver(() => {
    if (fitted && viewport.clientWidth > 0 && Math.abs(viewport.clientWidth - fittedWidth) > 20) fit();
  });
  root._tvObserver.observe(viewport);
  function zoom(factor, cx, cy) {
    fitted = false;
    const old = scale;
    scale = Math.max(minScale * 0.5, Math.min(3, scale * factor));
    const x = (viewport.scrollLeft + cx) * scale / old - cx;
    const y = (viewport.scrollTop + cy) * scale / old - cy;
    apply(x, y);
  }
  root.querySelectorAll('.tv-bar button').forEach((b) => {
    b.onclick = () => {
      const act = b.getAttribute('data-act');
      const cx = viewport.clientWidth / 2, cy = viewport.clientHeight / 2;
      if (act === 'in') zoom(1.25, cx, cy);
      else if (act === 'out') zoom(0.8, cx, cy);
      else if (act === 'fit') fit();
      else { fitted = false; scale = 1; apply(); }
    };
  });
  viewport.onwheel = (e) => {
    if (!(e.ctrlKey || e.metaKey)) return;
    e.preventDefault();
    const box = viewport.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1.15 : 0.87, e.clientX - box.left, e.clientY - box.top);
  };
  let drag = null;
  viewport.onpointerdown = (e) => {
    if (e.target.closest('.tv-node') || e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, left: viewport.scrollLeft, top: viewport.scrollTop };
    viewport.classList.add('tv-dragging');
  };
  viewport.onpointermove = (e) => {
    if (!drag) return;
    viewport.scrollLeft = drag.left - (e.clientX - drag.x);
    viewport.scrollTop = drag.top - (e.clientY - drag.y);
  };
  viewport.onpointerup = viewport.onpointerleave = () => {
    drag = null; viewport.classList.remove('tv-dragging');
  };
  viewport.querySelectorAll('.tv-more').forEach((el) => {
    el.onclick = (e) => { e.stopPropagation(); setTriggerValue('expand', Number(el.getAttribute('data-expand'))); };
  });
  viewport.querySelectorAll('.tv-node').forEach((el) => {
    const send = () => setTriggerValue('node', Number(el.getAttribute('data-node')));
    el.onclick = send;
    el.onkeydown = (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); send(); } };
  });
  fit();
}
"""

_COMPONENT = st.components.v2.component("tree_bias_lab.tree_view", css=_CSS, js=_JS)


def _expanded_key(key):
    return state.TREE_VIEW_PREFIX + key


def expanded_nodes(key):
    """Nodes whose hidden subtrees the user expanded in the view ``key``."""
    return set(st.session_state.get(_expanded_key(key), ()))


def _remember_expand(key, result_key):
    node = getattr(st.session_state.get(result_key), "expand", None)
    if node is not None:
        st.session_state[_expanded_key(key)] = sorted(expanded_nodes(key) | {int(node)})


def tree_view(drawing, *, key, max_height=640, on_select=None, max_scale=1.6, controls=True,
              presenter_height=presenter.TREE_MAX_HEIGHT):  # fmt: skip
    """Draw ``drawing`` (a ``viz.tree_svg.Drawing``) in the interactive view.

    Parameters
    ----------
    drawing : viz.tree_svg.Drawing
    key : str
        A unique key for this view on the page.
    max_height : int
        The view scrolls vertically beyond this many pixels.
    on_select : callable(node), optional
        Called (as a widget callback, before the rerun) with the node clicked.
    max_scale : float
        The largest zoom the picture opens at when it is narrower than the
        column (1 keeps a narrow path at its natural size, so it stays short).
    controls : bool
        Whether the zoom buttons and their hint are shown above the view; a
        small tree shown whole can spare their two lines (dragging and
        Ctrl/Cmd + scroll still work).
    presenter_height : int
        The view's height at most in presenter mode, so that a page's key tree shows on a
        projector's first screen; a page with nothing else above the fold may allow more.

    Returns
    -------
    int or None
        The node clicked in this run, if any.
    """
    svg, width, height = drawing_to_svg(drawing)
    if presenter.active():  # the key tree shows whole on a projector's first screen
        max_height = min(max_height, presenter_height)
    component_key = f"{key}_component"

    def node_clicked():
        node = getattr(st.session_state.get(component_key), "node", None)
        if node is not None and on_select is not None:
            on_select(int(node))

    result = _COMPONENT(
        key=component_key,
        data={
            "svg": svg,
            "width": width,
            "height": height,
            "min_scale": _min_scale(),
            "max_height": max_height,
            "max_scale": max_scale,
            "controls": controls,
            "presenter": presenter.active(),
        },
        on_node_change=node_clicked,
        on_expand_change=lambda: _remember_expand(key, component_key),
    )
    node = getattr(result, "node", None)
    return None if node is None else int(node)


def _fitting_depth(draw, deepest, fit_width):
    """The deepest level limit (at most ``deepest``) whose ``draw(limit)`` is at most ``fit_width`` wide.

    Widths grow with the limit, so the search stops at the first limit that is too wide.
    """
    for limit in range(1, deepest + 1):
        if drawing_width(draw(limit)) > fit_width:
            return max(1, limit - 1)
    return max(1, deepest)


def _ways_to_highlights(tree, options):
    """Nodes to open so that the highlighted nodes show: the ancestors of the selected node, the
    last split, the path, and the top node of every marked subtree."""
    internal = np.flatnonzero(tree.feature >= 0)
    parent = np.full(tree.node_count, -1)
    parent[tree.left[internal]] = internal
    parent[tree.right[internal]] = internal
    marked = {int(m) for m in options.get("marked", ())}
    targets = {int(n) for n in options.get("path", ())}
    targets |= {m for m in marked if parent[m] not in marked}
    targets |= {int(options[k]) for k in ("selected", "last_split") if options.get(k) is not None}
    ways = set()
    for node in targets:
        node = parent[node] if 0 <= node < tree.node_count else -1
        while node >= 0:
            ways.add(int(node))
            node = parent[node]
    return ways


def show_tree(
    tree,
    *,
    key,
    max_depth="fit",
    fit_width=560,
    on_select=None,
    max_height=640,
    max_scale=1.6,
    controls=True,
    presenter_height=presenter.TREE_MAX_HEIGHT,
    **drawing_options,
):
    """Draw a :class:`trees.Tree` in the view; deeper levels wait behind "+ N more below".

    Parameters
    ----------
    max_depth : int, None or "fit"
        Deepest level drawn at first. ``"fit"`` (default) picks the deepest
        limit whose drawing fits ``fit_width`` pixels at its natural size, so
        the tree opens readable and whole, and opens the way down to what is
        highlighted (the selected node, the last split, a path, the top of
        each marked subtree) even below that limit; None draws every level.
    fit_width : float
        The width to fit (about a full page column at 1024 pixels with the
        sidebar; pass less for side-by-side views).
    max_scale, controls, presenter_height
        See :func:`tree_view`.
    drawing_options
        Passed to :func:`viz.tree_svg.tree_drawing` (names, ``op``,
        ``selected``, ``marked``, ``path``, ``badges``...).

    Returns
    -------
    int or None
        The node clicked in this run.
    """
    expanded = expanded_nodes(key)
    if max_depth == "fit":
        max_depth = _fitting_depth(
            lambda limit: tree_drawing(tree, max_depth=limit, **drawing_options),
            tree.max_depth,
            fit_width * MIN_SCALE / _min_scale(),  # larger type: fewer levels fit
        )
        expanded |= _ways_to_highlights(tree, drawing_options)
    drawing = tree_drawing(tree, max_depth=max_depth, expanded=expanded, **drawing_options)
    return tree_view(drawing, key=key, max_height=max_height, on_select=on_select,
                     max_scale=max_scale, controls=controls,
                     presenter_height=presenter_height)  # fmt: skip


def show_modules(
    structure,
    feature_names,
    *,
    key,
    max_depth="fit",
    fit_width=560,
    on_select=None,
    max_height=640,
    selected=None,
    class_names=None,
):
    """Draw a cultivated tree's modules in the view (see :func:`viz.tree_svg.modules_drawing`).

    ``max_depth`` and ``fit_width`` work as in :func:`show_tree`.
    """
    if max_depth == "fit":
        deepest = max(m["depth"] for m in structure)
        max_depth = _fitting_depth(
            lambda limit: modules_drawing(
                structure, feature_names, max_depth=limit, class_names=class_names
            ),
            deepest,
            fit_width * MIN_SCALE / _min_scale(),
        )
    drawing = modules_drawing(
        structure,
        feature_names,
        selected=selected,
        max_depth=max_depth,
        expanded=expanded_nodes(key),
        class_names=class_names,
    )
    return tree_view(drawing, key=key, max_height=max_height, on_select=on_select)


def rows_toggle(key, is_classifier):
    """The switch that shows the rows inside the nodes of the view ``key`` (``viz.node_glyphs``).

    A toggle beside the view rather than a button in its bar: the glyphs are drawn in Python, so
    turning them on reruns the script either way, and a widget does that in one step, keeps its
    state per view in the session (``ui.state.TREE_VIEW_ROWS_PREFIX`` + ``key``, remembered when
    the page is opened again and carried in a link by ``ui.share``), answers the keyboard and
    screen readers, and says what the glyphs show in its help. A button in the component would
    need a trigger value and a second copy of that state.

    Returns
    -------
    bool
        Whether the rows are shown.
    """
    return bool(
        share.toggle(
            st,
            "Rows inside the nodes",
            key=state.TREE_VIEW_ROWS_PREFIX + key,
            help=distributions_caption(is_classifier),
        )
    )
