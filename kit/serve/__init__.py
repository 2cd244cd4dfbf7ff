"""``kit serve``, the composition root: the only package that imports the site, the console and
mail together. ``app`` builds the Starlette app (``create_app``) and runs it (``serve``);
``commands`` is the command's flags. Importing this package imports neither, so ``kit build``
never loads a web dependency."""
