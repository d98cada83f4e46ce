"""The match dock: its panel and the pieces only it uses."""
