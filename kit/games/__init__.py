"""The games, one package each, in four folders by role: ``rules/`` (pure), ``sheets/`` (the
printed kit), ``report/`` (``kit report``) and ``console/``, beside ``options`` and
``templates/``; its ``__init__`` declares its ``GameSpec``.

``kit.registry`` is the only list of them: adding a game is its package and one line there.
"""
