"""number-party-kit: print-ready kits (PDF and HTML) for two secret-number party games.

The pipeline, one function a step: ``config.resolve`` (raw settings -> ``KitConfig``), the game's
planner (``KitConfig`` -> ``KitPlan``), ``render.render_html`` and ``render.html_to_pdf``, then
``render.write_folder``.
"""

__version__ = "0.1.0"
