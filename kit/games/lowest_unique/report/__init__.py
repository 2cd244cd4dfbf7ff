"""Lowest Unique Number for ``kit report``: ``reports`` (the report folder, text and CSV)."""
