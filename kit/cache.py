"""A persistent, content-addressed cache of rendered bytes, shared by every process.

Keys are SHA-256 digests of everything that decides the bytes (for a prose page: its HTML,
the font files, the WeasyPrint version), so an entry never goes stale: a change makes a new
key. Files live in the platform's user cache folder (``platformdirs``) unless ``KIT_CACHE_DIR``
names another. Writers write a temporary file and rename it into place, so a reader sees a
whole entry or none, and several processes can share one folder. Reads refresh an entry's
time; when the folder grows past its cap the least recently used entries go first.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

DEFAULT_MAX_BYTES = 256 * 1024 * 1024
SUFFIX = ".bin"


def digest(parts: Iterable[bytes | str]) -> str:
    """A key from several parts; each is length-prefixed, so parts cannot run together."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


class RenderCache:
    """Bytes by key in one folder, at most ``max_bytes`` in all (least recently used go)."""

    def __init__(self, folder: str | Path, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.folder = Path(folder)
        self.max_bytes = max_bytes
        self.hits = self.misses = 0

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / (key + SUFFIX)

    def get(self, key: str) -> bytes | None:
        path = self._path(key)
        try:
            data = path.read_bytes()
        except OSError:
            self.misses += 1
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: evicted last
        self.hits += 1
        return data

    def has(self, key: str) -> bool:
        return self._path(key).is_file()

    def put(self, key: str, data: bytes) -> None:
        """Store ``data``; a cache that cannot be written is skipped, never an error."""
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(tmp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError:
            return

    def entries(self) -> list[tuple[float, int, Path]]:
        out = []
        for path in self.folder.glob(f"*/*{SUFFIX}"):
            with contextlib.suppress(OSError):
                stat = path.stat()
                out.append((stat.st_mtime, stat.st_size, path))
        return out

    def evict(self) -> None:
        """Drop the least recently used entries until the folder is within its cap.

        Called once after a batch of ``put``s: it lists the whole folder."""
        entries = self.entries()
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= self.max_bytes:
                break
            with contextlib.suppress(OSError):
                path.unlink()
                total -= size


def default_folder() -> Path:
    """``KIT_CACHE_DIR`` when set, else the platform's user cache folder."""
    override = os.environ.get("KIT_CACHE_DIR")
    if override:
        return Path(override)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("number-party-kit", appauthor=False))


def default_cache() -> RenderCache:
    return RenderCache(default_folder())
