"""Owns running scale mode off the UI thread: the newest request wins (see `background`).

A job checks its generation between row blocks and stops once a newer request exists; a
result that still arrives late is dropped, so the heatmap never shows a picture for options
the user has already changed.
"""

from __future__ import annotations

from app.model.scale import ScaleRequest, compute_scale
from app.state.background import BackgroundRunner


class ScaleWorker(BackgroundRunner):
    """Computes scale-mode pictures in a private one-thread pool and reports the newest one."""

    def request(self, request: ScaleRequest) -> int:
        """Start computing `request`; any older job stops or is ignored. Returns its generation."""
        return self.start(
            lambda should_stop, _progress: compute_scale(request, should_stop=should_stop))
