"""Reliability under a class's load: hundreds of simulated phones on loopback follow the
lesson's questions by their event streams and answer and change their answers, and the app
ends with exactly the last answer each phone was told was counted, with memory bounded.

The timings (round-trip p95, the UI thread's longest block) are reported here and judged by
the benchmark (`python3 dev.py bench`: 300 phones for 60 s); a test on a shared machine
asserts correctness, not speed."""

from __future__ import annotations

import pytest

from bench.poll_load import measure_poll_load

PHONES = 300
SECONDS = 10.0
MEMORY_MIB = 64


@pytest.mark.slow
def test_three_hundred_phones_lose_no_answer_and_count_none_twice(qtbot) -> None:
    result = measure_poll_load(PHONES, SECONDS)
    extra = result.extra
    print(f"\npoll load: {extra['answers']} answers from {PHONES} phones in {SECONDS:g} s; "
          f"round trip median {result.median_ms:.1f} ms, p95 {result.p95_ms:.1f} ms; "
          f"longest UI block {extra['max_ui_block_ms']:.1f} ms; memory "
          f"+{extra['rss_growth_mib'] or 0:.1f} MiB; statuses {extra['statuses']}")
    assert extra["counts_match"], extra["mismatched"]
    assert extra["answers"] > PHONES * SECONDS / 2  # the phones really kept answering
    assert set(extra["statuses"]) <= {"200", "409"}  # 409: a tap as the question changed
    assert extra["statuses"].get("409", 0) <= PHONES
    if extra["rss_growth_mib"] is not None:
        assert extra["rss_growth_mib"] < MEMORY_MIB
