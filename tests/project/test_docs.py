"""The documentation: every relative link and anchor resolves, every page is reachable from the
README, every command block marked runnable runs as written, the generated references are the
program's own, and the README stays short and says what a fresh machine needs."""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md",
                *(ROOT / "docs").rglob("*.md")])
RUNNABLE = "<!-- runnable -->"
FENCE = re.compile(r"^(```+|~~~+)[^\n]*\n.*?^\1[ \t]*$", re.M | re.S)
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
BLOCK = re.compile(re.escape(RUNNABLE) + r"\n```sh\n(.*?)\n```", re.S)


def prose(text: str) -> str:
    """The page without its fenced blocks and inline code (no links are read there)."""
    text = FENCE.sub("", text)
    return re.sub(r"(`+).*?\1", "", text, flags=re.S)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub (and GitLab, Gitea) make it."""
    text = re.sub(r"`|\*\*|__|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    kept = "".join(c for c in text if c in "-_ " or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+)$", FENCE.sub("", page.read_text()), re.M):
        base = slug(heading)
        name, n = base, 0
        while name in found:
            n += 1
            name = f"{base}-{n}"
        found.add(name)
    return found


def links(page: Path) -> list[str]:
    return [target for target in LINK.findall(prose(page.read_text()))
            if not re.match(r"[a-z][a-z0-9+.-]*:", target)]  # http:, https:, mailto: ...


def resolve(page: Path, target: str) -> tuple[Path, str]:
    path, _, anchor = target.partition("#")
    return ((page.parent / path).resolve() if path else page), anchor


def test_slugs_are_the_forges_own() -> None:
    assert slug("Security of `kit serve`") == "security-of-kit-serve"
    assert slug("Storage: SQLAlchemy Core and Alembic") == "storage-sqlalchemy-core-and-alembic"
    assert slug("What's My Number?") == "whats-my-number"


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        path, anchor = resolve(page, target)
        if not path.exists():
            broken.append(f"{target}: no such file")
        elif anchor and (path.suffix != ".md" or anchor not in anchors(path)):
            broken.append(f"{target}: no heading #{anchor} in {path.relative_to(ROOT)}")
    assert not broken, broken


def test_every_page_is_reachable_from_the_readme() -> None:
    seen, todo = set(), [ROOT / "README.md"]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        for target in links(page):
            path, _ = resolve(page, target)
            if path.suffix == ".md" and path.is_file():
                todo.append(path)
    assert set(PAGES) - seen == set(), "pages no link reaches"
    for image in (ROOT / "docs").glob("*.png"):  # every picture is shown somewhere
        assert any(f"{image.name})" in page.read_text() for page in PAGES), image.name


def runnable_blocks() -> list[tuple[str, str]]:
    blocks = []
    for page in PAGES:
        text = page.read_text()
        for found in BLOCK.finditer(text):
            line = text[:found.start()].count("\n") + 2
            blocks.append((f"{page.relative_to(ROOT).as_posix()}:{line}", found.group(1)))
    return blocks


BLOCKS = runnable_blocks()


def test_the_runnable_marker_is_used_where_it_counts() -> None:
    marked = {where.split(":")[0] for where, _ in BLOCKS}
    assert sum(where.startswith("README.md:") for where, _ in BLOCKS) == 2  # two recipes
    assert {"docs/tutorials/first-party.md", "docs/how-to/game-logs.md",
            "docs/how-to/large-parties.md", "docs/reference/config.md"} <= marked
    for page in PAGES:  # a marker always sits right above a ```sh block
        text = page.read_text()
        markers = re.findall(f"^{re.escape(RUNNABLE)}$", text, re.M)
        assert len(markers) == len(BLOCK.findall(text)), page.name


def ignored(name: str) -> bool:
    """Whether a file of that name at the top of a clone is ignored by .gitignore."""
    patterns = [line.strip() for line in (ROOT / ".gitignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    return any(fnmatch.fnmatch(name, p.strip("/")) for p in patterns)


@pytest.fixture(scope="module")
def docs_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The blocks' own render cache: their kits stay out of the session's, which other tests
    count entries of."""
    return tmp_path_factory.mktemp("docs-cache")


def kit_env(tmp_path: Path, cache: Path) -> dict[str, str]:
    """The environment a block runs in: ``kit`` on the PATH is this tree's program."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "kit"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kit "$@"\n')
    shim.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": str(ROOT), "KIT_CACHE_DIR": str(cache)}


@pytest.mark.slow
@pytest.mark.parametrize(("where", "script"), BLOCKS, ids=[w for w, _ in BLOCKS])
def test_a_runnable_block_runs_as_written(where: str, script: str, tmp_path: Path,
                                          docs_cache: Path) -> None:
    """In an empty folder, with ``kit`` this tree's program; what it leaves at the top of the
    folder is git-ignored, so trying the docs in a clone dirties nothing."""
    work = tmp_path / "work"
    work.mkdir()
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=work,
                            env=kit_env(tmp_path, docs_cache), capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, f"{where}\n{result.stdout}\n{result.stderr}"
    assert "Error:" not in result.stderr
    left = sorted(p.name + ("/" if p.is_dir() else "") for p in work.iterdir())
    assert all(ignored(name.rstrip("/")) for name in left), left


def test_the_cli_reference_is_the_programs_own_help() -> None:
    from kit.clidoc import cli_reference

    assert (ROOT / "docs" / "reference" / "cli.md").read_text() == cli_reference(), (
        "docs/reference/cli.md is out of date: python -m kit.clidoc > docs/reference/cli.md")


def test_the_readme_is_short_and_says_what_a_fresh_machine_needs() -> None:
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 150
    head = text[: text.index("\n## ")]
    for needed in ("Python 3.11", "virtual environment", "pipx", "externally-managed",
                   "Pango", "npm ci", "docs/kit-pages.png"):
        assert needed in head, needed
    assert "kit build lowest-unique --players 9 --lang fr --paper letter" in text
    assert "kit serve --host 0.0.0.0 --no-prewarm --database party.sqlite3" in text
    assert "/console" in text
    for target in ("docs/README.md", "CONTRIBUTING.md", "CHANGELOG.md", "LICENSE"):
        assert f"]({target})" in text, target


def test_licence_is_the_mit_text_pyproject_names() -> None:
    import tomllib

    licence = (ROOT / "LICENSE").read_text()
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"] == "MIT"
    assert licence.startswith("MIT License\n\nCopyright (c) 2026 the number-party-kit authors\n")
    assert "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND" in licence


def test_contributing_extracts_messages_as_the_catalog_test_does() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text()
    (extract,) = re.findall(r"^pybabel extract .*$", text, re.M)
    assert extract.split()[1:] == ["extract", "-F", "babel.cfg", "-k", "N_", "--no-location",
                                   "-o", "kit/locale/messages.pot", "."]
    catalog_test = (ROOT / "tests" / "project" / "test_catalogs.py").read_text()
    assert '"-k", "N_", "--no-location"' in catalog_test
    assert ignored("messages.mo")
    for needed in ("pip install -e '.[test]'", "npm ci", 'pytest -m "not slow and not project"',
                   "ruff check kit tests bench", "## Adding a game", "kit/registry.py",
                   "PIP_CONSTRAINT", ".ci/constraints.txt", "root"):
        assert needed in text, needed


def test_the_changelog_has_every_version_of_pyproject() -> None:
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    headings = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert headings[0] == "Unreleased" and version in headings


def test_the_whats_my_number_log_example_does_what_its_comments_say(tmp_path: Path) -> None:
    from kit.report import load_log, report_csv, report_text

    text = (ROOT / "docs" / "reference" / "log-format.md").read_text()
    example = re.search(r"## What's My Number\?\n\n```toml\n(.*?)\n```", text, re.S).group(1)
    log = tmp_path / "friday.toml"
    log.write_text(example)
    data, source = load_log(str(log))
    report = report_text(data, lang="en", turn=None, strict=False, source=source)
    for said in ("| Cy 3 (ignored) |", "No orders: Dee, Eve and Fay", "| Bob 3 (bonus) |",
                 "| Cy 1 (void) |", "| Gus List - 1 correct. |"):
        assert said in report, said
    rows = report_csv(data, strict=False, source=source).splitlines()
    shown = re.search(r"```text\n(turn,player,guess.*?)\n```", text, re.S).group(1).splitlines()
    assert rows[0] == shown[0]
    assert set(shown[1:]) <= set(rows)


@pytest.mark.slow
def test_the_json_api_session_prints_what_the_page_says(tmp_path: Path,
                                                        docs_cache: Path) -> None:
    """The curl session of json-api.md against a real ``kit serve``: every answer the page
    shows (its ``# ...`` lines) is printed, in order."""
    import shutil
    import socket
    import time

    if not (shutil.which("curl") and shutil.which("jq")):
        pytest.skip("the session needs curl and jq")
    text = (ROOT / "docs" / "reference" / "json-api.md").read_text()
    session = text[text.index("## A session with curl"):]
    script = session[session.index("```sh\n") + 6:]
    script = script[:script.index("\n```")]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    script = script.replace("KIT=http://127.0.0.1:8000", f"KIT=http://127.0.0.1:{port}")
    env = kit_env(tmp_path, docs_cache)
    work = tmp_path / "work"
    work.mkdir()
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen([sys.executable, "-m", "kit", "serve", "--port", str(port),
                               "--workers", "1", "--database", str(tmp_path / "night.sqlite3")],
                              cwd=work, env=env, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 90
        while subprocess.run(["curl", "-sf", f"http://127.0.0.1:{port}/healthz"],
                             capture_output=True).returncode != 0:
            assert server.poll() is None and time.monotonic() < deadline
            time.sleep(0.3)
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=work, env=env,
                              capture_output=True, text=True, timeout=300)
    finally:
        server.terminate()
        server.wait(30)
        log.close()
    assert done.returncode == 0, done.stderr
    shown = [line[2:] for line in script.splitlines() if line.startswith("# ")]
    printed = iter(done.stdout.splitlines())
    missing = [line for line in shown if line not in printed]  # in order: the iterator moves on
    assert not missing, done.stdout
    assert len(shown) == 7
