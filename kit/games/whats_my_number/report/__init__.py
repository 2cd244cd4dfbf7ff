"""What's My Number? for ``kit report``: ``report_plan`` (the report folder, its text and CSV),
``reports`` (the turn reports), ``gm_register`` (the GM register), ``slips`` (each player's
private slips), ``erratum`` (the corrections of turns handed out), ``turn_notes`` (the words under
a turn report) and ``snapshot`` (what a turn report showed when it was handed out).
"""
