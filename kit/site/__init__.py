"""The download site: a static site of ready-made kits (``kit site``) and the download pages
and custom-kit form that ``kit serve`` shows. ``kit build`` loads only what its parser lists
(``commands``, ``kits``), never the server.

Modules, each importing only those above it (and ``kit.server``, the HTTP layer below):

- ``kits``: which kits are ready-made, rendering one kit with page thumbnails, and keeping
  built ready-made kits in the persistent render cache (``kit.cache``).
- ``kit_cache``: the in-memory cache of built kits and the result ids (``Tickets``).
- ``form``: the custom-kit form, built from the option declarations.
- ``pages``: the index of ready-made kits and the result page.
- ``service``: the render line and the cache tied together for the app (``KitService``).
- ``shared``: result ids in the database and kits in the render cache folder, shared by every
  server behind them.
- ``static``: ``build_site``, the static site.
- ``commands``: the ``kit site`` subcommand, wired into ``kit.cli``.
"""
