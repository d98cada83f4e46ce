"""Attention Lab: how a transformer scores a query against a key, and why the dot product won."""

__version__ = "0.1.0"
