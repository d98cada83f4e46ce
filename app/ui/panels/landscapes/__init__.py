"""The landscapes dock: four scorers' landscapes side by side on the same q."""
