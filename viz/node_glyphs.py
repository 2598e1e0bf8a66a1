"""The rows inside each node: small pictures drawn in a tree's boxes, as dtreeviz draws them.

:func:`node_distributions` routes the rows through the tree once (the tree's own
``decision_path``, under the test the drawing writes) and makes, for each node the
drawing asks for, one glyph:

* a threshold node: its rows along the split feature, a histogram stacked by class in the
  class colours (classification) or the target against the feature (regression, with each
  side's mean), the threshold as a red line, and the rows exactly on it counted: ``x <= t``
  sends them left, ``x < t`` right, the rows source 000's conditioning bias is about;
* a membership node: one bar per category present, the categories sent left ("yes") left of
  the red line, the others right of it;
* a leaf: its class counts as a bar (classification), or its targets as dots on the tree's
  target range (regression).

A histogram's bins have the threshold as an edge, so each bar lies wholly on one side of the
line: the bars left of it are the rows the test sends left (``(a, b]`` bins under ``<=``,
``[a, b)`` under ``<``). A glyph holds its numbers (for the tooltip and the tests) and writes
its SVG at any width (``svg``); it uses paths, lines and text only, at the drawing's font
size, so its text stays >= 12 px wherever the tree view fits the picture, and escapes it.
"""

from dataclasses import dataclass
from html import escape

import numpy as np

from .colors import class_color
from .tree_svg import EDGE_LABELS, FONT_SIZE, stepped_value_color

__all__ = [
    "GLYPH_WIDTH",
    "ClassCounts",
    "Categories",
    "Histogram",
    "NoRows",
    "NodeDistributions",
    "Scatter",
    "Strip",
    "distributions_caption",
    "node_distributions",
]

GLYPH_WIDTH = 128.0  # the narrowest glyph (a box with a glyph is this plus its padding)
THRESHOLD_COLOR = "#d62728"  # the split's line, as in viz.node_views
_AXIS_COLOR, _LABEL_COLOR = "#8a8a8a", "#4f554f"
_PLOT_HEIGHT = 34.0
_ROW = FONT_SIZE + 3.0  # one line of text under a plot
_BINS = 12
_MAX_POINTS = 60  # dots of a regression node (evenly spread over its rows sorted by the feature)


def _number(value):
    """A value in a few characters: ``0.34``, ``13``, ``1,680``, ``2.5e+05``."""
    return f"{value:,.0f}" if 1e3 <= abs(value) < 1e5 else f"{value:.3g}"


def _text(x, y, text, anchor="middle", fill=_LABEL_COLOR, bold=False):
    weight = ' font-weight="600"' if bold else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{fill}"{weight}>'
        f"{escape(text)}</text>"
    )


def _group(kind, x, y, width, height):
    """A glyph's group and its white panel (a path: the view styles a box's first rect)."""
    return (
        f'<g class="tv-glyph" data-kind="{kind}"><path d="M{x - 4:.1f},{y - 4:.1f}'
        f'h{width + 8:.1f}v{height + 4:.1f}h{-width - 8:.1f}z" fill="white" fill-opacity="0.88"/>'
    )


def _share(value, low, high):
    """Where ``value`` (a number or an array) lies from ``low`` (0) to ``high`` (1); 0.5 when
    the range is empty. A number gives a float."""
    value = np.asarray(value, dtype=np.float64)
    share = np.full(value.shape, 0.5) if high <= low else (value - low) / (high - low)
    return float(share) if share.ndim == 0 else share


def _dots(xs, ys):
    """Path data of one dot per ``(x, y)``: a zero-length segment with round caps."""
    return "".join(f"M{a:.1f},{b:.1f}h0" for a, b in zip(xs.tolist(), ys.tolist(), strict=True))


def _bars_path(segments, colour):
    """One path of bars ``(left, bottom, width, height)``: few elements however many bars."""
    d = "".join(f"M{x:.1f},{b:.1f}h{w:.1f}v{-h:.1f}h{-w:.1f}z" for x, b, w, h in segments if h > 0)
    return f'<path d="{d}" fill="{colour}"/>' if d else ""


def _stacked_columns(counts, lefts, widths, x0, base, colours):
    """Columns stacked by colour, scaled to the tallest; ``counts`` is (n_columns, n_colours)."""
    totals = counts.sum(axis=1)
    top = max(int(totals.max()), 1) if totals.size else 1
    bottom = np.full(len(counts), base)
    parts = []
    for k, colour in enumerate(colours):
        heights = counts[:, k] * _PLOT_HEIGHT / top
        segments = zip(x0 + lefts, bottom, widths, heights, strict=True)
        parts.append(_bars_path(segments, colour))
        bottom = bottom - heights
    return "".join(parts)


def _threshold_line(tx, y, base):
    return (
        f'<line x1="{tx:.1f}" y1="{y - 2:.1f}" x2="{tx:.1f}" y2="{base + 3:.1f}" '
        f'stroke="{THRESHOLD_COLOR}" stroke-width="1.8"/>'
    )


def _axis(x, base, width):
    return (
        f'<line x1="{x:.1f}" y1="{base:.1f}" x2="{x + width:.1f}" y2="{base:.1f}" '
        f'stroke="{_AXIS_COLOR}" stroke-width="1"/>'
    )


def _notes(on_threshold, missing, op):
    """The lines under a plot: the rows on the threshold (in the line's red) and the missing."""
    notes = []
    if on_threshold:
        side = "left" if op == "<=" else "right"
        notes.append((f"{on_threshold:,} on t ({side})", THRESHOLD_COLOR, True))
    if missing:
        notes.append((f"{missing:,} missing", _LABEL_COLOR, False))
    return notes


def _on_threshold_words(on_threshold, op):
    if not on_threshold:
        return "no row exactly on the threshold"
    sign = EDGE_LABELS[op][0]
    side = "left" if op == "<=" else "right"
    return f"{on_threshold:,} exactly on the threshold (x {sign} t sends them {side})"


class _ThresholdGlyph:
    """What the glyphs of a split on a threshold share: their width, and a height that holds
    the plot, its axis and one line per note (rows on the threshold, rows missing)."""

    min_width = GLYPH_WIDTH

    @property
    def height(self):
        return _PLOT_HEIGHT + _ROW + _ROW * len(_notes(self.on_threshold, self.missing, self.op))


@dataclass(frozen=True)
class Histogram(_ThresholdGlyph):
    """A classification node's rows along its split feature, stacked by class.

    Attributes
    ----------
    edges : ndarray
        Bin edges; the threshold is one of them.
    counts : ndarray of shape (n_bins, n_classes)
        Rows per bin and class.
    threshold : float or None
        None for a node that parts present values from missing ones.
    on_threshold, missing : int
        Rows whose value equals the threshold (in the tree's precision); rows without a value.
    low, high : float
        The smallest and largest value among the node's rows.
    op : {"<=", "<"}
    """

    edges: np.ndarray
    counts: np.ndarray
    threshold: float
    on_threshold: int
    missing: int
    low: float
    high: float
    op: str

    def position(self, value, width):
        """The x offset of ``value`` in a glyph ``width`` pixels wide."""
        first, last = float(self.edges[0]), float(self.edges[-1])
        return width * (value - first) / (last - first)

    @property
    def tooltip(self):
        n = int(self.counts.sum())
        text = f"{n:,} rows with a value, {_number(self.low)} to {_number(self.high)}"
        if self.threshold is not None:
            text += f"; {_on_threshold_words(self.on_threshold, self.op)}"
        return text + (f"; {self.missing:,} missing" if self.missing else "")

    def svg(self, x, y, width):
        base = y + _PLOT_HEIGHT
        lefts = np.array([self.position(e, width) for e in self.edges])
        widths = np.maximum(np.diff(lefts) - 1.0, 0.8)
        colours = [class_color(k) for k in range(self.counts.shape[1])]
        parts = [_group("histogram", x, y, width, self.height), _axis(x, base, width)]
        parts.append(_stacked_columns(self.counts, lefts[:-1] + 0.5, widths, x, base, colours))
        parts += _range_labels(x, base, width, self.low, self.high)
        if self.threshold is not None:
            parts.append(_threshold_line(x + self.position(self.threshold, width), y, base))
        parts.append(_notes_svg(x, base, width, self.on_threshold, self.missing, self.op))
        return "".join(parts) + "</g>"


def _range_labels(x, base, width, low, high):
    label_y = base + FONT_SIZE + 1
    return [
        _text(x, label_y, _number(low), "start"),
        _text(x + width, label_y, _number(high), "end"),
    ]


def _notes_svg(x, base, width, on_threshold, missing, op):
    return "".join(
        _text(x + width / 2, base + (i + 1) * _ROW + FONT_SIZE + 1, text, fill=colour, bold=bold)
        for i, (text, colour, bold) in enumerate(_notes(on_threshold, missing, op))
    )


@dataclass(frozen=True)
class Scatter(_ThresholdGlyph):
    """A regression node's target against its split feature, with each side's mean.

    Attributes
    ----------
    x, y : ndarray
        The dots drawn (at most ``_MAX_POINTS`` of the node's rows, spread over its values).
    n : int
        Rows with a value of the feature.
    threshold, on_threshold, missing, low, high, op
        As in :class:`Histogram`.
    target_range : (float, float)
        The vertical axis: the whole tree's target range, the same in every box.
    means : (float or None, float or None)
        The mean target left and right of the threshold.
    """

    x: np.ndarray
    y: np.ndarray
    n: int
    threshold: float
    on_threshold: int
    missing: int
    low: float
    high: float
    op: str
    target_range: tuple
    means: tuple

    def position(self, value, width):
        """The x offset of ``value`` in a glyph ``width`` pixels wide."""
        return width * _share(value, self.low, self.high)

    def _height_of(self, target):
        return _PLOT_HEIGHT * _share(target, *self.target_range)

    @property
    def tooltip(self):
        text = f"{self.n:,} rows with a value, {_number(self.low)} to {_number(self.high)}"
        if self.threshold is not None:
            text += f"; {_on_threshold_words(self.on_threshold, self.op)}"
        means = [
            f"{side} mean {m:.4g}"
            for side, m in zip(("left", "right"), self.means, strict=True)
            if m is not None
        ]
        return (
            text
            + (f"; {', '.join(means)}" if means else "")
            + (f"; {self.missing:,} missing" if self.missing else "")
        )

    def _mean_lines(self, x, tx, base, width):
        """Each side's mean target as a line across its side (orange left, purple right)."""
        parts = []
        for (start, end), mean, colour in zip(
            ((x, tx), (tx, x + width)), self.means, ("#ff7f0e", "#9467bd"), strict=True
        ):
            if mean is not None:
                level = base - self._height_of(mean)
                parts.append(
                    f'<line x1="{start:.1f}" y1="{level:.1f}" x2="{end:.1f}" y2="{level:.1f}" '
                    f'stroke="{colour}" stroke-width="2.4"/>'
                )
        return "".join(parts)

    def svg(self, x, y, width):
        base = y + _PLOT_HEIGHT
        parts = [_group("scatter", x, y, width, self.height), _axis(x, base, width)]
        tx = None if self.threshold is None else x + self.position(self.threshold, width)
        if tx is not None:
            parts.append(self._mean_lines(x, tx, base, width))
        dots = _dots(x + self.position(self.x, width), base - self._height_of(self.y))
        if dots:
            parts.append(
                f'<path d="{dots}" stroke="#1f77b4" stroke-opacity="0.7" stroke-width="4.6" '
                'stroke-linecap="round" fill="none"/>'
            )
        if tx is not None:
            parts.append(_threshold_line(tx, y, base))
        parts += _range_labels(x, base, width, self.low, self.high)
        parts.append(_notes_svg(x, base, width, self.on_threshold, self.missing, self.op))
        return "".join(parts) + "</g>"


@dataclass(frozen=True)
class Categories:
    """A membership node's rows per category: the categories sent left first, then the others.

    Attributes
    ----------
    codes : ndarray
        The category codes present among the node's rows, the ``n_left`` sent left first.
    labels : list of str
        Their names.
    counts : ndarray of shape (n_codes, n_colours)
        Rows per category, by class (classification) or in one column (regression).
    n_left : int
    missing : int
    bar_colours : list of str or None
        Regression: each bar in the colour of its mean target (``viz.colors.value_color``'s scale).
    """

    codes: np.ndarray
    labels: list
    counts: np.ndarray
    n_left: int
    missing: int
    bar_colours: list = None

    min_width = GLYPH_WIDTH

    @property
    def height(self):
        return _PLOT_HEIGHT + _ROW + (_ROW if self.missing else 0)

    @property
    def tooltip(self):
        totals = self.counts.sum(axis=1)
        shown = [f"{label} ({int(n):,})" for label, n in zip(self.labels, totals, strict=True)]

        def listed(items):
            return ", ".join(items[:8]) + (", …" if len(items) > 8 else "") if items else "none"

        text = f"yes: {listed(shown[: self.n_left])}; no: {listed(shown[self.n_left :])}"
        return text + (f"; {self.missing:,} missing (they go right)" if self.missing else "")

    def svg(self, x, y, width):
        base, n = y + _PLOT_HEIGHT, len(self.codes)
        slot = width / n
        lefts = np.arange(n) * slot + 0.5
        widths = np.full(n, max(slot - 1.5, 0.8))
        parts = [_group("categories", x, y, width, self.height), _axis(x, base, width)]
        if self.bar_colours is None:
            colours = [class_color(k) for k in range(self.counts.shape[1])]
            parts.append(_stacked_columns(self.counts, lefts, widths, x, base, colours))
        else:
            for i, colour in enumerate(self.bar_colours):
                one = np.zeros_like(self.counts)
                one[i] = self.counts[i]
                parts.append(_stacked_columns(one, lefts, widths, x, base, [colour]))
        label_y = base + FONT_SIZE + 1
        if self.n_left:
            parts.append(_text(x, label_y, "yes", "start"))
        if self.n_left < n:
            parts.append(_text(x + width, label_y, "no", "end"))
        parts.append(_threshold_line(x + self.n_left * slot, y, base))
        parts.append(_notes_svg(x, base, width, 0, self.missing, "<="))
        return "".join(parts) + "</g>"


@dataclass(frozen=True)
class ClassCounts:
    """A leaf's rows per class: one bar of the class colours, and the counts written under it."""

    counts: np.ndarray

    min_width = GLYPH_WIDTH
    height = 12.0 + _ROW

    @property
    def tooltip(self):
        return "rows per class: " + ", ".join(f"{int(c):,}" for c in self.counts)

    def svg(self, x, y, width):
        total = max(int(self.counts.sum()), 1)
        parts, offset = [_group("classes", x, y, width, self.height)], 0.0
        for k, count in enumerate(self.counts):
            w = width * count / total
            parts.append(_bars_path([(x + offset, y + 9, w, 9)], class_color(k)))
            offset += w
        words, used = [], 0.0
        for k, count in enumerate(self.counts):
            word = f"{int(count):,}"
            step = (len(word) + 3) * 0.56 * FONT_SIZE
            if count == 0:
                continue
            if used + step > width:
                words.append("<tspan>…</tspan>")
                break
            words.append(f'<tspan fill="{class_color(k)}">■</tspan><tspan> {word}  </tspan>')
            used += step
        parts.append(
            f'<text x="{x + width / 2:.1f}" y="{y + 9 + FONT_SIZE + 3:.1f}" text-anchor="middle" '
            f'fill="{_LABEL_COLOR}" xml:space="preserve">{"".join(words)}</text>'
        )
        return "".join(parts) + "</g>"


@dataclass(frozen=True)
class Strip:
    """A regression leaf's targets as dots on the tree's target range, its mean as a dark tick."""

    values: np.ndarray
    mean: float
    target_range: tuple

    min_width = GLYPH_WIDTH
    height = 18.0

    @property
    def tooltip(self):
        low, high = self.target_range
        return (
            f"targets on the tree's range {_number(low)} to {_number(high)}; mean {self.mean:.4g}"
        )

    def _position(self, value, width):
        return width * _share(value, *self.target_range)

    def svg(self, x, y, width):
        middle = y + 9
        jitter = 3.0 * (np.arange(len(self.values)) % 3 - 1)
        dots = _dots(x + self._position(self.values, width), middle + jitter)
        mean = x + self._position(self.mean, width)
        return (
            _group("strip", x, y, width, self.height)
            + _axis(x, middle, width)
            + (
                f'<path d="{dots}" stroke="#1f77b4" stroke-opacity="0.6" stroke-width="4.2" '
                'stroke-linecap="round" fill="none"/>'
            )
            + f'<line x1="{mean:.1f}" y1="{middle - 8:.1f}" x2="{mean:.1f}" y2="{middle + 8:.1f}" '
            'stroke="#1b1f1b" stroke-width="2.2"/></g>'
        )


@dataclass(frozen=True)
class NoRows:
    """A node none of the rows reaches (or whose rows all miss the split feature)."""

    message: str = "no rows reach it"

    min_width = GLYPH_WIDTH
    height = _ROW

    @property
    def tooltip(self):
        return self.message

    def svg(self, x, y, width):
        return (
            '<g class="tv-glyph" data-kind="empty">'
            + _text(x + width / 2, y + FONT_SIZE, self.message)
            + "</g>"
        )


def _class_positions(y, classes):
    """Each label's position among ``classes`` (the class colours' order)."""
    lookup = {c: k for k, c in enumerate(np.asarray(classes).tolist())}
    labels, inverse = np.unique(y, return_inverse=True)
    unknown = [label for label in labels.tolist() if label not in lookup]
    if unknown:
        raise ValueError(f"Labels {unknown[:3]} are not among the classes {list(lookup)[:10]}.")
    return np.array([lookup[label] for label in labels.tolist()], dtype=np.intp)[inverse]


def _bins(values, low, high, threshold, op):
    """Bin edges with ``threshold`` as one of them, and each value's bin.

    Bins are ``(a, b]`` under ``<=`` and ``[a, b)`` under ``<``, so a value on the threshold
    falls in the bin on the side the test sends it.
    """
    if threshold is None:
        width = (high - low) / _BINS if high > low else 1.0
        edges = low + width * np.arange(_BINS + 1)
        return edges, np.clip(np.floor((values - low) / width).astype(np.intp), 0, _BINS - 1)
    low, high = min(low, threshold), max(high, threshold)
    width = (high - low) / _BINS if high > low else 1.0
    if op == "<=":
        first, last = (
            int(np.ceil((low - threshold) / width)) - 1,
            int(np.ceil((high - threshold) / width)),
        )
        index = np.ceil((values - threshold) / width).astype(np.intp) - 1 - first
    else:
        first, last = (
            int(np.floor((low - threshold) / width)),
            int(np.floor((high - threshold) / width)) + 1,
        )
        index = np.floor((values - threshold) / width).astype(np.intp) - first
    edges = threshold + width * np.arange(first, last + 1)
    return edges, np.clip(index, 0, len(edges) - 2)


def _spread(order, count):
    """``count`` entries of ``order`` evenly spread along it (all when there are fewer)."""
    if order.size <= count:
        return order
    return order[np.unique(np.linspace(0, order.size - 1, count).round().astype(np.intp))]


class NodeDistributions:
    """The rows reaching each node of a tree and each node's glyph, made once per node asked for.

    Parameters
    ----------
    tree : trees.Tree
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels (classification) or targets (regression).
    op : {"<=", "<"}
        The test that routes the rows (the drawing's).
    classes : sequence, optional
        The class labels in the colours' order; default the sorted labels of ``y``
        (``classes_`` of an estimator fitted on these rows).
    """

    def __init__(self, tree, X, y, op="<=", classes=None):
        if op not in EDGE_LABELS:
            raise ValueError(f"op must be '<=' or '<', got {op!r}.")
        self.tree, self.op = tree, op
        X = np.asarray(X, dtype=np.float64)
        # Values as the tree compares them: a float32 tree rounds X first.
        self._X = X.astype(np.float32).astype(np.float64) if tree.input_dtype == "float32" else X
        y = np.asarray(y)
        if tree.is_classifier:
            self._y = _class_positions(y, np.unique(y) if classes is None else classes)
            self.n_colours = max(int(tree.value.shape[1]), int(self._y.max(initial=-1)) + 1)
            self.target_range = None
        else:
            self._y = y.astype(np.float64)
            finite = self._y[np.isfinite(self._y)]
            self.target_range = (
                (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
            )
        path = tree.decision_path(X, op).tocsc()
        self._indptr, self._indices = path.indptr, path.indices
        self._glyphs = {}

    def rows(self, node):
        """The rows (positions in ``X``) that reach ``node``."""
        return self._indices[self._indptr[node] : self._indptr[node + 1]]

    def glyph(self, node):
        """The glyph of ``node`` (made on the first call)."""
        node = int(node)
        if node not in self._glyphs:
            self._glyphs[node] = self._make(node)
        return self._glyphs[node]

    def _make(self, node):
        rows, tree = self.rows(node), self.tree
        if rows.size == 0:
            return NoRows()
        feature = int(tree.feature[node])
        if feature < 0:
            return self._leaf(rows)
        values, target = self._X[rows, feature], self._y[rows]
        if tree.categories[node] is not None:
            return self._categories(node, feature, values * tree.category_sign[node], target)
        present = ~np.isnan(values)
        if not present.any():
            return NoRows(f"all {rows.size:,} missing")
        threshold = float(tree.threshold[node])
        threshold = threshold if np.isfinite(threshold) else None
        return self._threshold(
            values[present], target[present], threshold, rows.size - int(present.sum())
        )

    def _leaf(self, rows):
        target = self._y[rows]
        if self.tree.is_classifier:
            return ClassCounts(np.bincount(target, minlength=self.n_colours))
        order = np.argsort(target, kind="stable")
        return Strip(target[_spread(order, _MAX_POINTS)], float(target.mean()), self.target_range)

    def _threshold(self, values, target, threshold, missing):
        on = int(np.count_nonzero(values == threshold)) if threshold is not None else 0
        low, high = float(values.min()), float(values.max())
        if self.tree.is_classifier:
            edges, index = _bins(values, low, high, threshold, self.op)
            k = self.n_colours
            counts = np.bincount(index * k + target, minlength=(len(edges) - 1) * k)
            return Histogram(
                edges, counts.reshape(-1, k), threshold, on, missing, low, high, self.op
            )
        picked = _spread(np.argsort(values, kind="stable"), _MAX_POINTS)
        means = (None, None)
        if threshold is not None:
            left = values <= threshold if self.op == "<=" else values < threshold
            means = tuple(float(target[m].mean()) if m.any() else None for m in (left, ~left))
        return Scatter(
            values[picked], target[picked], values.size, threshold, on, missing, low, high,
            self.op, self.target_range, means,
        )  # fmt: skip

    def _categories(self, node, feature, codes, target):
        present = ~np.isnan(codes)
        missing = int(codes.size - present.sum())
        codes, target = codes[present].astype(np.intp), target[present]
        if codes.size == 0:
            return NoRows(f"all {missing:,} missing")
        sent_left = {int(c) for c in self.tree.categories[node]}
        known, inverse = np.unique(codes, return_inverse=True)
        goes_left = np.array([int(c) in sent_left for c in known])
        order = np.concatenate([np.flatnonzero(goes_left), np.flatnonzero(~goes_left)])
        place = np.empty(order.size, dtype=np.intp)
        place[order] = np.arange(order.size)
        index, n = place[inverse], order.size
        names = (self.tree.category_names or {}).get(feature)
        labels = [
            names[c] if names and 0 <= c < len(names) else str(c) for c in known[order].tolist()
        ]
        if self.tree.is_classifier:
            k = self.n_colours
            counts = np.bincount(index * k + target, minlength=n * k).reshape(n, k)
            return Categories(known[order], labels, counts, int(goes_left.sum()), missing)
        counts = np.bincount(index, minlength=n)
        means = np.bincount(index, weights=target, minlength=n) / np.maximum(counts, 1)
        colours = [stepped_value_color(m, *self.target_range) for m in means]
        return Categories(
            known[order], labels, counts[:, None], int(goes_left.sum()), missing, colours
        )


def node_distributions(tree, X, y, *, op="<=", classes=None):
    """The :class:`NodeDistributions` of ``tree`` on the rows ``(X, y)``, for ``tree_drawing``."""
    return NodeDistributions(tree, X, y, op=op, classes=classes)


def distributions_caption(is_classifier, membership=True):
    """What the glyphs show, in a few sentences (for a caption under the view); ``membership``:
    whether to say how a membership split is drawn."""
    if is_classifier:
        inside = (
            "Inside each split: its rows along the feature it tests, stacked by class; the red "
            "line is the threshold, and the bars left of it go left. A leaf shows its rows per "
            "class."
        )
    else:
        inside = (
            "Inside each split: its rows' target (up; the same range in every box) against the "
            "feature it tests, the red line the threshold, orange and purple lines the mean of "
            "each side. A leaf shows its targets on that range, a dark tick at their mean."
        )
    sets = (
        " A membership split shows one bar per category, those sent left (yes) left of the line."
        if membership
        else ""
    )
    return (
        f'{inside} "N on t" counts the rows exactly on the threshold: x ≤ t sends them left, '
        f"x < t right, so their path depends on the test.{sets}"
    )
