"""Writing kit folders: the one module that puts files on disk for ``kit build`` and friends.

Every folder of a build is written in full into a hidden staging folder beside its final
place before any of them is renamed into place, so a failure leaves nothing half-written.
A kit folder records the files it holds (``.kit-files``); rebuilding replaces a folder only
when it holds nothing else, so files a host added are never deleted. A report folder
(``keep``) keeps the files a user put there instead, and, for one turn's files, every other
file too.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import OutputError, shown_path

MANIFEST = ".kit-files"
NAME_MAX = 255


@dataclass(frozen=True)
class KitFiles:
    """The bytes of one kit folder, keyed by path inside the folder."""

    folder: str
    files: dict[str, bytes]


def _say(path: Path | str) -> str:
    return shown_path(path)


def check_out(out: str | Path) -> Path:
    """The output folder, checked before any work: it can be made and written, or an error.

    Nothing is created here; the folders appear only when a build writes them.
    """
    text = str(out)
    if not text.strip():
        raise OutputError("out", "is empty; give a folder, e.g. build")
    if "\0" in text:
        raise OutputError("out", f"{_say(text)} holds a NUL character; give a plain folder path")
    # "sub/../o" means "o": normalised first, so no empty "sub" is ever made on the way
    path = Path(os.path.normpath(Path(text).expanduser()))
    for part in path.parts:
        if len(os.fsencode(part)) > NAME_MAX:
            raise OutputError("out", f"{_say(part)} is longer than {NAME_MAX} bytes, the limit "
                              "for one folder name")
    probe = Path(os.path.abspath(path))
    while not probe.exists():
        if probe.is_symlink():
            raise OutputError("out", f"{_say(probe)} is a broken symbolic link")
        probe = probe.parent
    if not probe.is_dir():
        what = "is a file" if probe.is_file() else "is not a folder"
        raise OutputError("out", f"{_say(probe)} {what}; give a folder to write kits into")
    if str(probe).startswith(("/proc", "/sys", "/dev")) and probe != Path("/"):
        raise OutputError("out", f"{_say(probe)} is a system folder; kits cannot be written there")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise OutputError("out", f"{_say(probe)} is not writable")
    return path


def _manifest(folder: Path) -> set[str] | None:
    try:
        return set((folder / MANIFEST).read_text(encoding="utf-8").splitlines())
    except OSError:
        return None


def _foreign(folder: Path) -> list[str]:
    """Files in an existing kit folder that no build of ours wrote there."""
    ours = _manifest(folder) or set()
    found = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_dir() or rel == MANIFEST:
            continue
        if rel not in ours:
            found.append(rel)
    return found


def _stage(out: Path, kit: KitFiles) -> Path:
    """Write a kit into a hidden folder beside its final place; on failure remove it again."""
    staging = Path(tempfile.mkdtemp(prefix=f".{kit.folder}.", dir=out))
    try:
        for rel, data in sorted(kit.files.items()):
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            os.chmod(path, 0o644)
        (staging / MANIFEST).write_text("".join(f"{rel}\n" for rel in sorted(kit.files)),
                                       encoding="utf-8")
        os.chmod(staging / MANIFEST, 0o644)
        os.chmod(staging, 0o755)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return staging


def _error(exc: OSError, where: Path) -> OutputError:
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC:
        reason = "the disk is full"
    return OutputError("out", f"cannot write {_say(where)}: {reason}")


def _carry(final: Path, staging: Path, kit: KitFiles, keep: str) -> None:
    """Move the files to keep from the old folder into the new one before it takes its place:
    files the kit did not write ("foreign"), or every file not written anew ("all")."""
    ours = _manifest(final) or set()
    kept = []
    for path in sorted(final.rglob("*")):
        rel = path.relative_to(final).as_posix()
        if path.is_dir() or rel == MANIFEST or rel in kit.files:
            continue
        if rel in ours:
            if keep != "all":
                continue
            kept.append(rel)
        (staging / rel).parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, staging / rel)
    if kept:
        (staging / MANIFEST).write_text("".join(f"{rel}\n" for rel in sorted(
            {*kit.files, *kept})), encoding="utf-8")


def _check_final(final: Path, kit: KitFiles, keep: str) -> None:
    """The folder a kit goes to: a folder (or nothing), holding no file we must not touch."""
    if final.exists() and not final.is_dir():
        raise OutputError("out", f"{_say(final)} is a file; the kit folder would replace it")
    if not final.is_dir():
        return
    foreign = _foreign(final)
    if keep != "none":  # a user's file is kept, unless the kit would write over it
        foreign = [rel for rel in foreign if rel in kit.files]
        if foreign:
            raise OutputError("out", f"{_say(final)} holds {_say(foreign[0])}, which the kit "
                              "did not write and would replace; move or rename it")
    if foreign:
        shown = ", ".join(_say(f) for f in foreign[:3])
        more = f" and {len(foreign) - 3} more" if len(foreign) > 3 else ""
        raise OutputError("out", f"{_say(final)} holds files the kit did not write "
                          f"({shown}{more}); move them, or choose another --out")


def write_kits(kits: Sequence[tuple[Path, KitFiles]], keep: str = "none") -> list[Path]:
    """Write every kit folder or none; returns the written files (fonts left out).

    ``keep``: "none" refuses a folder holding files the kit did not write; "foreign" keeps
    them (a report folder); "all" also keeps the kit's own files not written this time (one
    turn's reports beside the whole game's).
    """
    for out, kit in kits:
        _check_final(out / kit.folder, kit, keep)
    created: list[Path] = []  # output folders this build made, removed again on failure
    staged: list[tuple[Path, Path]] = []
    out = Path(".")
    try:
        for out, kit in kits:
            missing = [p for p in (out, *out.parents) if not p.exists()]
            created += [p for p in missing if p not in created]
            out.mkdir(parents=True, exist_ok=True)
            staged.append((_stage(out, kit), out / kit.folder))
    except BaseException as exc:  # a full disk, or Ctrl-C: leave nothing behind
        for staging, _ in staged:
            shutil.rmtree(staging, ignore_errors=True)
        for folder in sorted(created, key=lambda p: len(p.parts), reverse=True):
            with contextlib.suppress(OSError):
                folder.rmdir()
        if isinstance(exc, OSError):
            raise _error(exc, out) from None
        raise
    written: list[Path] = []
    for (staging, final), (_, kit) in zip(staged, kits, strict=True):
        if final.exists():
            if keep != "none":
                _carry(final, staging, kit, keep)
            old = Path(tempfile.mkdtemp(prefix=f".{kit.folder}.old.", dir=final.parent))
            final.rename(old / "kit")
            staging.rename(final)
            shutil.rmtree(old, ignore_errors=True)
        else:
            staging.rename(final)
        written += [final / rel for rel in sorted(kit.files) if not rel.startswith("fonts/")]
    return written
