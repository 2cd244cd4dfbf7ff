"""The project itself: README commands match CI, lint is clean, the wheel carries its assets and
the sdist what its tests read."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    head = text[: text.index("\n## ")]  # the commands come before the first section
    return re.findall(r"```sh\n(.+?)\n```", head)


def test_readme_starts_with_exactly_two_commands_and_ci_runs_the_second() -> None:
    commands = readme_commands()
    assert commands == ["pip install . && kit build", "pip install '.[test]' && pytest"]
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands[1] in ci


def _test_extra_lines() -> list[str]:
    text = (ROOT / "pyproject.toml").read_text()
    block = text[text.index("\ntest = [") :]
    return block[: block.index("\n]")].splitlines()[1:]


def test_ci_constraints_pin_every_test_tool_within_its_range() -> None:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    extra = {}
    tools = set()
    for line in _test_extra_lines():
        found = re.match(r'\s*"([^"]+)",(.*)$', line)
        if found:
            requirement = Requirement(found.group(1))
            extra[canonicalize_name(requirement.name)] = requirement
            if re.match(r"\s*# tool\b", found.group(2)):
                tools.add(canonicalize_name(requirement.name))
    pins = {}
    for line in (ROOT / ".ci" / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version.strip()
    assert {"pytest", "pytest-xdist", "hypothesis", "mypy"} <= tools
    assert set(pins) == tools  # every tool pinned, nothing pinned that is not one
    for name, version in pins.items():
        assert extra[name].specifier.contains(version), (name, version, str(extra[name]))


@pytest.mark.project
def test_ruff_is_clean() -> None:
    """ruff of the running interpreter's environment, found without PATH (an unactivated venv)."""
    if importlib.util.find_spec("ruff") is None:
        pytest.fail("ruff is missing: it is in the [test] extra")
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "kit", "tests", "bench"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


@pytest.mark.project
def test_mypy_is_clean() -> None:
    """kit/ type-checks with the project's own configuration ([tool.mypy] in pyproject.toml)."""
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is missing: it is in the [test] extra")
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.project
def test_wheel_carries_templates_fonts_and_licences(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = {p.relative_to(ROOT).as_posix() for p in (ROOT / "templates").rglob("*")
                 if p.is_file()}
    fonts = {p.relative_to(ROOT).as_posix() for p in (ROOT / "fonts").iterdir()}
    assert {f"kit/{t}" for t in templates} <= names
    assert {f"kit/{f}" for f in fonts} <= names
    assert "kit/fonts/AtkinsonHyperlegible-OFL.txt" in names
    package = {p.relative_to(ROOT).as_posix() for p in (ROOT / "kit").rglob("*")
               if p.suffix in (".po", ".html", ".css")}  # catalogs, the games' own templates
    assert package and package <= names
    from kit.i18n import LANGUAGES, compiled_path

    # the build compiled the catalogs (named here from this checkout's, wherever kit runs from)
    compiled = {f"kit/locale/{lang}/LC_MESSAGES/"
                + compiled_path(lang, (ROOT / "kit" / "locale" / lang / "LC_MESSAGES"
                                       / "messages.po").read_bytes()).name
                for lang in LANGUAGES if lang != "en"}
    assert compiled <= names
    assert wheel.stat().st_size < 25 * 2**20  # every script's fonts included
    stated = re.search(r"The wheel carries every font, template and catalog .*?: ([0-9.]+) MB",
                       (ROOT / "docs" / "explanation" / "architecture.md").read_text(), re.S)
    assert stated and abs(wheel.stat().st_size / 1e6 - float(stated.group(1))) <= 0.15


@pytest.mark.project
def test_the_sdist_carries_what_its_tests_read(tmp_path: Path) -> None:
    """Built as ``python -m build --sdist`` would (hatchling): the tests, and every file they
    read outside the package (babel.cfg, .ci/, package*.json, the docs, the licence)."""
    subprocess.run([sys.executable, "-m", "hatchling", "build", "-t", "sdist", "-d",
                    str(tmp_path)], cwd=ROOT, check=True, capture_output=True)
    (sdist,) = tmp_path.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    needed = {"pyproject.toml", "hatch_build.py", "README.md", "CONTRIBUTING.md",
              "CHANGELOG.md", "LICENSE", "babel.cfg", ".ci/run", ".ci/constraints.txt",
              "package.json", "package-lock.json", ".gitignore"}
    for folder in ("docs", "tests", "bench", "templates", "fonts"):
        needed |= {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts}
    assert needed - names == set()
    assert not any(name.startswith(("node_modules/", "build/")) for name in names)


def test_assets_are_found_where_kit_is_imported_from() -> None:
    import kit
    from kit.resources import asset_root

    root = asset_root()
    assert root in (Path(kit.__file__).parent, Path(kit.__file__).parent.parent)
    assert (root / "templates" / "document.html").is_file()
    assert (root / "fonts" / "AtkinsonHyperlegible-Regular.ttf").is_file()


def test_config_reference_is_the_option_declarations() -> None:
    from kit.registry import options_table

    assert options_table() in (ROOT / "docs" / "reference" / "config.md").read_text()


@pytest.mark.project
def test_the_scheduler_names_modules_that_exist() -> None:
    """A module spread by its parameters is named by its path: a moved file must be renamed
    there too, or its kits would quietly run as one unit."""
    from support.xdist_scopes import SPREAD_BY_PARAM

    assert SPREAD_BY_PARAM and all((ROOT / path).is_file() for path in SPREAD_BY_PARAM)


@pytest.mark.project
def test_a_module_runs_on_one_worker_and_a_kit_of_the_print_lint_on_one(tmp_path: Path) -> None:
    """The scheduler of tests/support/xdist_scopes.py, tried on a scratch project with two workers:
    every test of a module on the same worker, and the print lint's kits spread by kit."""
    (tmp_path / "conftest.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'tests')!r})\n"
        "pytest_plugins = ('support.xdist_scopes',)\n")
    record = "import os\ndef _seen(name):\n" \
             "    with open(name + '.' + os.environ['PYTEST_XDIST_WORKER'], 'a') as f:\n" \
             "        f.write('x')\n"
    for module in ("alpha", "beta", "gamma"):
        tests = "".join(f"def test_{i}():\n    _seen({module!r})\n" for i in range(6))
        (tmp_path / f"test_{module}.py").write_text(record + tests)
    lint = tmp_path / "tests" / "kit"
    lint.mkdir(parents=True)
    (lint / "test_print_lint.py").write_text(
        "import os, pytest\n"
        "@pytest.mark.parametrize('kit', [pytest.param(k, id=f'{k}/doc{i}') "
        "for k in ('a', 'b') for i in range(6)])\n"
        "def test_doc(kit):\n"
        "    open(f'kit-{kit}.' + os.environ['PYTEST_XDIST_WORKER'], 'a').write('x')\n")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider",
         "-o", "addopts=", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    workers: dict[str, set[str]] = {}
    for seen in tmp_path.glob("*.gw*"):
        name, worker = seen.name.split(".")
        workers.setdefault(name, set()).add(worker)
        assert seen.read_text() == "x" * 6  # each unit wholly on that worker
    assert sorted(workers) == ["alpha", "beta", "gamma", "kit-a", "kit-b"]
    assert all(len(found) == 1 for found in workers.values()), workers


@pytest.mark.project
def test_commit_messages_are_checked_for_a_short_subject_and_a_blank_line(tmp_path: Path) -> None:
    """The commit-msg hook of .pre-commit-config.yaml (``.ci/commit_msg.py``)."""
    hooks = (ROOT / ".pre-commit-config.yaml").read_text()
    assert "entry: python .ci/commit_msg.py" in hooks and "stages: [commit-msg]" in hooks

    def check(message: str) -> subprocess.CompletedProcess[str]:
        path = tmp_path / "COMMIT_EDITMSG"
        path.write_text(message, encoding="utf-8")
        return subprocess.run([sys.executable, str(ROOT / ".ci" / "commit_msg.py"), str(path)],
                              capture_output=True, text=True)

    good = check("Fix the outbox lease on slow servers\n\nThe lease outlived ...\n# a comment\n")
    assert good.returncode == 0, good.stderr
    assert check("x" * 72 + "\n").returncode == 0
    long = check("x" * 73 + "\n")
    assert long.returncode == 1
    assert long.stderr == ("Error: commit message: the subject has 73 characters; at most 72: "
                           "put the why in the body, after a blank line\n")
    glued = check("Fix the lease\nbecause it was short\n")
    assert glued.returncode == 1 and "second line is not blank" in glued.stderr
