"""The web side of the kits: a static download site (``kit site``) and a custom-kit server
(``kit serve``). ``kit build`` loads only what its parser lists
(``commands``, ``limits``, ``kits``), never the server.

Modules, each importing only those above it:

- ``limits``: what ``kit serve`` and ``create_app`` accept (workers, queue, cache, port).
- ``kits``: which kits are ready-made, rendering one kit with page thumbnails, and keeping
  built ready-made kits in the persistent render cache (``kit.cache``).
- ``pages``: the site's Jinja2 environments (one per language, with ``jinja2.ext.i18n``), the
  page language (``?lang`` or ``Accept-Language``), the index of ready-made kits, the custom-kit
  form (built from the option declarations) and the result page.
- ``pool``: the bounded process pool renders run in, and the in-memory cache of built kits.
- ``site``: ``build_site``, the static site.
- ``http``: security headers, error pages, form reading and file responses.
- ``wire``: what ``serve`` changes in Hypercorn's and h11's reading of connections.
- ``app``: the Starlette app (``create_app``) and ``serve``.
- ``commands``: the ``kit site`` and ``kit serve`` subcommands, wired into ``kit.cli``.
"""
