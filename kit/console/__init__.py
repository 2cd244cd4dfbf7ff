"""The game-night console: games stored as journals (``store``), replayed by each game's own
console part (``kit.game.ConsoleGame``, found through the registry) into states and views,
checked by the one rules engine (``engine``), driven through a JSON API (``api``) and HTML pages
(``pages``); ``routes()`` mounts both."""
