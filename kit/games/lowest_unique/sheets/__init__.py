"""Lowest Unique Number's printed kit (the game's ``planner`` orders its pages):
``table_sheets`` (the slips, the round tally and the score sheet a table plays with, as layout
models).
"""
