"""Owns how many threads NumPy's BLAS uses in this process: one.

The app's large products (a model's forward pass, scale mode's scores, an import's matrix)
run beside the UI thread on a 2-core machine. On two BLAS threads each product waits for its
slower half, and a half that waits for a core another process holds stalls the product: the
overview of a 28-layer model took 13 s on a loaded machine against 2.6 s on one thread, and
a spinning second BLAS thread takes the core the UI thread would paint on. On one thread the
background work has one core and the UI thread the other.

threadpoolctl lets one thread set OpenBLAS's shared pool (the first that sets it), so this
is called on the main thread, before any background job starts, and never undone.
"""

from __future__ import annotations

__all__ = ["one_blas_thread"]

_set = False


def one_blas_thread() -> None:
    """Limit BLAS to one thread from now on (idempotent; cheap after the first call)."""
    global _set
    if _set:
        return
    from threadpoolctl import threadpool_limits  # ~10 ms: not on the way to the first paint

    threadpool_limits(limits=1, user_api="blas")
    _set = True
