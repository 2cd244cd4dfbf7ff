"""The game-night console: games stored as journals, checked by the one rules engine, driven
through a JSON API (``api``) and HTML pages (``pages``); ``routes()`` mounts both."""
