"""Lowest Unique Number's printed kit: ``planner`` (the kit's pages) and ``table_sheets`` (the
slips, the round tally and the score sheet a table plays with, as layout models).
"""
