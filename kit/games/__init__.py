"""The games, one package each: ``rules`` (pure), ``options``, ``planner``, ``templates/``, and
optionally ``log`` and ``reports`` (``kit report``); its ``__init__`` declares its ``GameSpec``.

``kit.registry`` is the only list of them: adding a game is its package and one line there.
"""
