"""The games: pure rules (no rendering) and the registry that names them."""
