"""Page planners: from a validated config and a game's rules to a plan of pages (plain data)."""
