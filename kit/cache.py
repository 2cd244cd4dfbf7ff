"""A persistent, content-addressed cache of rendered bytes, shared by every process.

Keys are SHA-256 digests of everything that decides the bytes (for a prose page: its HTML,
the font files, the WeasyPrint version), so an entry never goes stale: a change makes a new
key. Files live in the platform's user cache folder (``platformdirs``) unless ``KIT_CACHE_DIR``
names another. Writers write a temporary file and rename it into place, so a reader sees a
whole entry or none, and several processes can share one folder. Reads refresh an entry's
time; when the folder grows past its cap the least recently used entries go first.

The folder is trusted: compiled templates are loaded from it, and ``kit serve`` serves kits and
the console's report files (secrets among them) from it. So a folder that every user may write
into, or that another user owns, is refused with an error naming it; a missing one is made
private (0700). Folders of work in progress (``staging_folder``) carry the host and the
process that made them, so a start can sweep the ones a killed process left behind
(``sweep_staging``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import socket
import stat
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from .errors import ConfigError

DEFAULT_MAX_BYTES = 256 * 1024 * 1024
STALE_S = 3600  # nothing is written for that long: older work in progress was left behind
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
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # ours alone
            path.parent.mkdir(mode=0o700, exist_ok=True)
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

        Called once after a batch of ``put``s: it lists the whole folder. Temporary files
        older than ``STALE_S`` go too: a process killed while writing one left it."""
        stale = time.time() - STALE_S
        for path in self.folder.glob("*/.tmp-*"):
            with contextlib.suppress(OSError):
                if path.stat().st_mtime < stale:
                    path.unlink()
        entries = self.entries()
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= self.max_bytes:
                break
            with contextlib.suppress(OSError):
                path.unlink()
                total -= size


def default_folder() -> Path:
    """``KIT_CACHE_DIR`` when set, else the platform's user cache folder; made private when
    missing, refused when every user may write into it (``trusted_folder``)."""
    override = os.environ.get("KIT_CACHE_DIR")
    if override:
        return trusted_folder(Path(override), "KIT_CACHE_DIR")
    from platformdirs import user_cache_dir

    return trusted_folder(Path(user_cache_dir("number-party-kit", appauthor=False)),
                          "cache folder")


def trusted_folder(folder: Path, name: str) -> Path:
    """``folder``, made (mode 0700) if missing. ``ConfigError`` (``name``: what set it) when
    it cannot be made, when another user owns it, or when every user may write into it: they
    could plant compiled templates (code run by this process) or change the files served. A
    folder its group may write is allowed: with a umask of 002 (many systems' default, each
    user in a group of their own) that is how folders are made, and a shared group is the
    operator's choice."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError as exc:
        raise ConfigError(name, f"cannot make the folder {folder}: {exc.strerror}") from None
    mode = stat.S_IMODE(info.st_mode)
    if info.st_uid != os.geteuid():
        raise ConfigError(name, f"the folder {folder} belongs to another user; choose a folder "
                          "of your own")
    if mode & stat.S_IWOTH:
        raise ConfigError(name, f"the folder {folder} can be written by every user (mode "
                          f"{mode:04o}), who could change what it holds; make it yours alone "
                          f"(chmod 700 {folder}) or choose another folder")
    return folder


def private_folder(folder: Path) -> Path:
    """``folder``, made if missing, and readable by this user only (0700: it holds secrets,
    such as the console's game-master registers)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(OSError):  # a folder of another user's: theirs to keep
        if stat.S_IMODE(folder.stat().st_mode) & 0o077:
            folder.chmod(0o700)
    return folder


def private_tree(folder: Path) -> None:
    """Every file under ``folder`` 0600 and every folder 0700 (a kit is written 0644 to be
    handed out; the console's copies hold the game master's register and slips)."""
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o700 if path.is_dir() else 0o600)


STAGING = ".render-"


def staging_folder(parent: Path, prefix: str = STAGING) -> Path:
    """A new, private folder under ``parent`` for work in progress, named after this host and
    process (``.render-HOST-PID-xxxxxxxx``): ``sweep_staging`` can tell a dead process's."""
    host = socket.gethostname().replace("-", "_") or "host"
    return Path(tempfile.mkdtemp(prefix=f"{prefix}{host}-{os.getpid()}-", dir=parent))


def sweep_staging(pattern: Iterable[Path], prefix: str = STAGING,
                  stale_s: float = STALE_S) -> int:
    """Remove the staging folders among ``pattern`` whose process is gone (of this host; one
    of another host, or without a process in its name, once older than ``stale_s``: a render
    never takes that long). Returns how many went."""
    host = socket.gethostname().replace("-", "_") or "host"
    removed = 0
    for folder in pattern:
        made_by, _, pid = folder.name.removeprefix(prefix).rpartition("-")[0].rpartition("-")
        gone = False
        if made_by == host and pid.isdigit():
            gone = not _alive(int(pid))
        else:
            with contextlib.suppress(OSError):
                gone = time.time() - folder.stat().st_mtime > stale_s
        if gone and folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def default_cache() -> RenderCache:
    return RenderCache(default_folder())
