"""Where the templates and fonts are: inside the package when installed, beside it in a checkout."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_HERE = Path(__file__).resolve().parent


@cache
def asset_root() -> Path:
    """The folder holding ``templates/`` and ``fonts/`` (the wheel copies both into ``kit/``)."""
    for root in (_HERE, _HERE.parent):
        if (root / "templates").is_dir() and (root / "fonts").is_dir():
            return root
    raise FileNotFoundError(f"templates/ and fonts/ not found in {_HERE} or its parent")


def templates_dir() -> Path:
    return asset_root() / "templates"


def fonts_dir() -> Path:
    return asset_root() / "fonts"


def font_path(name: str) -> Path:
    return fonts_dir() / name
