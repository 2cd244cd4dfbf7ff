"""What's My Number? for ``kit report``: ``report_plan`` (the report folder, its text and CSV),
``reports`` (the turn reports), ``gm_register`` (the GM register), ``slips`` (each player's
private slips), ``erratum`` (the corrections of turns handed out), ``turn_notes`` (the words under
a turn report) ``snapshot`` (what a turn report showed when it was handed out) and ``players_sheet``
(the players' blank turn report the kit prints, in the same layout).
"""
