"""A binary min-heap of ``(key, node)`` pairs in a float array, for best-first growth.

``_kernels_growth`` keeps the open leaves of a best-first growth here, keyed by
minus their weighted impurity decrease, so the leaf with the largest decrease
is split first; ties go to the lower node id (scikit-learn's order).
"""

from numba import njit

from ._kernels_arrays import KERNEL

__all__ = ["heap_pop", "heap_push"]

_JIT = KERNEL
_INLINE = {**KERNEL, "inline": "always"}


@njit(**_INLINE)
def _before(heap, i, j):
    """Whether heap entry ``i`` comes before ``j``: smaller key, then smaller node id."""
    return heap[i, 0] < heap[j, 0] or (heap[i, 0] == heap[j, 0] and heap[i, 1] < heap[j, 1])


@njit(**_INLINE)
def _swap(heap, i, j):
    for c in range(2):
        heap[i, c], heap[j, c] = heap[j, c], heap[i, c]


@njit(**_JIT)
def heap_push(heap, n_heap, key, node):
    """Push ``(key, node)`` on a binary min-heap stored in ``heap`` (shape (capacity, 2))."""
    i = n_heap
    heap[i, 0], heap[i, 1] = key, node
    while i > 0 and _before(heap, i, (i - 1) // 2):
        _swap(heap, i, (i - 1) // 2)
        i = (i - 1) // 2
    return n_heap + 1


@njit(**_JIT)
def heap_pop(heap, n_heap):
    """Pop the first ``(key, node)``; return the node and the new size."""
    node = int(heap[0, 1])
    n_heap -= 1
    heap[0, 0], heap[0, 1] = heap[n_heap, 0], heap[n_heap, 1]
    i = 0
    while True:
        first = i
        for child in (2 * i + 1, 2 * i + 2):
            if child < n_heap and _before(heap, child, first):
                first = child
        if first == i:
            return node, n_heap
        _swap(heap, i, first)
        i = first
