"""The one database of ``kit serve``: its engine on SQLite or PostgreSQL (``engine``) and the one
Alembic history (``migrations``) that creates the tables each package owns (the console's, the
site's, mail's). Each package declares its own ``sa.Table``s; this package imports none of them."""
