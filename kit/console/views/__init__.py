"""What the console's HTML pages show, computed apart from the requests that ask for it.

``guard``: the game master's cookie and the signed CSRF token every form carries.
``start``: the start page's forms (new games, import) turned into the service's specs.
``grid``: the entry grid of a What's My Number? turn, and the grid's post turned into orders.
``tables``: the Lowest Unique Number host's per-table round entry and each round's tally.
``board``: the public page and the big-screen standings, from published data only.
"""
