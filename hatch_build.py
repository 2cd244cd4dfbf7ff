"""The wheel's build step: the translation catalogs compiled into the package.

A kit in any language then starts without parsing its .po file (``kit.i18n``); the compiled
files are named by the digest of the .po they came from, so an edited catalog is never
answered by an older one.
"""

from __future__ import annotations

import sys
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogsHook(BuildHookInterface):
    """Compiles ``kit/locale/*/LC_MESSAGES/messages.po`` beside themselves."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        sys.path.insert(0, self.root)
        try:
            from kit.i18n import compile_catalogs

            compiled = compile_catalogs()
        finally:
            sys.path.remove(self.root)
        if version == "standard":  # an editable install reads them in the checkout
            for path in compiled:  # ignored by git, so named here
                build_data["force_include"][str(path)] = path.relative_to(self.root).as_posix()
