"""The console's JSON API (``/api/games``): ``games`` (games, entries, views, the log),
``seats`` (a player's or a table's own answers and new seat links) and ``mail`` (players'
addresses, reminders and drafts)."""
