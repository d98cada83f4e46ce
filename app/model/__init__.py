"""The pure-NumPy model layer: scoring, attention, memory and the lesson's figures.

Nothing in this package imports Qt, so it can be used from a notebook or a script.
"""
