"""Reading a typed number: the forms a student's keyboard and input method produce are read as
meant, and everything else is refused with its reason, never misread ("1,5" as 15, "0x10"
as 10)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.model.typed_number import read_number, split_numbers

LOW, HIGH = -100.0, 100.0
FULL_WIDTH = str.maketrans("0123456789.-+e", "０１２３４５６７８９．－＋ｅ")


def value_of(text: str, whole: bool = False) -> float | None:
    return read_number(text, LOW, HIGH, whole).value


@pytest.mark.parametrize(("text", "value"), [
    ("1.5", 1.5), ("-2", -2.0), ("+3", 3.0), ("1e-3", 1e-3), (" 0.25 ", 0.25), (".5", 0.5),
    ("−0.8", -0.8),  # the app's own minus sign, as a box shows a negative value
])
def test_plain_numbers_are_read_as_written(text, value):
    reading = read_number(text, LOW, HIGH)
    assert reading.value == value and reading.problem is None
    assert not reading.reread


@pytest.mark.parametrize(("text", "plain"), [
    ("１．５", "1.5"), ("－２", "-2"), ("1。5", "1.5"), ("1,5", "1.5"), ("-0,25", "-0.25"),
    ("0,125", "0.125"), ("１，５", "1.5"),
])
def test_an_input_methods_forms_and_a_decimal_comma_are_read_and_flagged(text, plain):
    reading = read_number(text, LOW, HIGH)
    assert reading.value == float(plain)
    assert reading.reread  # the box says what it took


@given(st.floats(LOW, HIGH, allow_nan=False))
def test_any_number_in_range_reads_back_in_ascii_and_in_full_width(value):
    text = repr(value)
    assert value_of(text) == value
    assert value_of(text.translate(FULL_WIDTH)) == value


@pytest.mark.parametrize(("text", "problem"), [
    ("0x10", "hex"), ("-0X1f", "hex"), ("abc", "not_number"), ("hello world", "not_number"),
    ("nan", "not_number"), ("inf", "not_number"), ("-Infinity", "not_number"),
    ("1.5.5", "not_number"), ("-", "not_number"), ("1_000", "not_number"), ("", "empty"),
    ("   ", "empty"), ("1.5, 2.5, 3.5, 4.5", "several"), ("1 2", "several"),
    ("1,2,3", "several"), ("1,500.2", "grouped"), ("1,234,567", "grouped"),
    ("1.500,2", "mixed"), ("150", "range"), ("-100.01", "range"), ("1e999", "range"),
])
def test_anything_else_is_refused_with_its_reason(text, problem):
    reading = read_number(text, LOW, HIGH)
    assert reading.value is None
    assert reading.problem == problem


def test_a_comma_before_three_digits_is_ambiguous_and_both_meanings_are_given():
    reading = read_number("1,500", LOW, HIGH)
    assert reading.problem == "ambiguous"
    assert reading.meanings == (1.5, 1500.0)


def test_a_whole_number_box_reads_thousands_as_it_shows_them_and_refuses_fractions():
    high = 10.0**7
    assert read_number("4,096", 1, high, whole=True).value == 4096.0
    assert read_number("1,234,567", 1, high, whole=True).value == 1234567.0
    assert read_number("1e3", 1, high, whole=True).value == 1000.0
    assert read_number("1,5", 1, high, whole=True).problem == "whole"
    assert read_number("2.5", 1, high, whole=True).problem == "whole"
    assert read_number("0", 1, high, whole=True).problem == "range"
    assert read_number("0,5", 1, high, whole=True).problem == "whole"  # the first problem


def test_several_numbers_with_a_slip_among_them_are_still_several():
    reading = read_number("1.5, 2.5, 0x3, 4.5", LOW, HIGH)
    assert reading.problem == "several"
    assert reading.parts == ("1.5", "2.5", "0x3", "4.5")


def test_a_number_past_a_floats_reach_is_out_of_range_like_any_other():
    text = "9" * 600
    assert not math.isfinite(float(text))  # Python itself would hand on infinity
    assert read_number(text, LOW, HIGH).problem == "range"
    assert read_number(text, -math.inf, math.inf).problem == "range"


@pytest.mark.parametrize(("text", "parts"), [
    ("1.5, 2.5, 3.5, 4.5", ("1.5", "2.5", "3.5", "4.5")),
    ("1.5\t2.5\t3.5", ("1.5", "2.5", "3.5")),  # cells copied from a spreadsheet
    ("１．５，　２．５", ("1.5", "2.5")),  # a full-width comma and space
    ("1,5; 2,5", ("1,5", "2,5")),  # decimal commas, separated by semicolons
    ("1,2,3", ("1", "2", "3")),
    ("4,096", ("4,096",)),
])
def test_pasted_text_splits_into_its_numbers(text, parts):
    assert split_numbers(text) == parts
