"""What the caches are keyed on: a prose page's key and the web server's digest of the code
change when a font file changes (a stale page with an old font must never be served), and the
compiled templates are keyed on what decides the compiled code and kept only where this user
alone can write."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kit import prose, render
from kit.paper import Frame
from kit.prose import ProseJob


def _copy_fonts(tmp_path: Path) -> Path:
    from kit.resources import fonts_dir

    copy = tmp_path / "fonts"
    shutil.copytree(fonts_dir(), copy)
    return copy


def _flip_a_byte(font: Path) -> None:
    data = bytearray(font.read_bytes())
    data[-1] ^= 0xFF
    font.write_bytes(bytes(data))


def test_a_changed_font_file_changes_the_prose_key(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    fonts = _copy_fonts(tmp_path)
    monkeypatch.setattr(prose, "fonts_dir", lambda: fonts)
    job = ProseJob(css="p { color: black }", section="<section><p>Hi</p></section>",
                   label="page", body=Frame(10, 10, 100, 100))
    prose.fonts_digest.cache_clear()
    before = job.key
    prose.fonts_digest.cache_clear()
    assert job.key == before  # the same files, the same key
    _flip_a_byte(fonts / prose.FONT_FILES[0])
    prose.fonts_digest.cache_clear()
    try:
        assert job.key != before
    finally:
        prose.fonts_digest.cache_clear()


def test_the_prose_key_covers_the_page_and_its_style() -> None:
    page = ProseJob(css="a", section="<section>x</section>", label="l", body=Frame(0, 0, 1, 1))
    assert ProseJob("b", page.section, page.label, page.body).key != page.key
    assert ProseJob(page.css, "<section>y</section>", page.label, page.body).key != page.key
    # the language is the page's tags' (and a French page's words are not an English page's)
    assert ProseJob(page.css, page.section, page.label, page.body, lang="fr").key != page.key


def test_a_changed_font_or_template_changes_the_web_code_digest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
    from kit.resources import templates_dir
    from kit.site import kits

    fonts = _copy_fonts(tmp_path)
    templates = tmp_path / "templates"
    shutil.copytree(templates_dir(), templates)
    monkeypatch.setattr(kits, "fonts_dir", lambda: fonts)
    monkeypatch.setattr(kits, "templates_dir", lambda: templates)
    digest = kits.code_digest.__wrapped__  # computed once per process; here, each time
    before = digest()
    assert digest() == before
    _flip_a_byte(fonts / prose.FONT_FILES[0])
    after_font = digest()
    assert after_font != before
    (templates / "print.css").write_text((templates / "print.css").read_text() + "\n/* */\n")
    assert digest() != after_font


def test_compiled_templates_are_keyed_on_the_program(monkeypatch: pytest.MonkeyPatch) -> None:
    import jinja2

    first = render._compiled_templates().directory
    monkeypatch.setattr(render, "__version__", "0.0.0-other")
    second = render._compiled_templates().directory
    monkeypatch.setattr(jinja2, "__version__", "0.0-other")
    third = render._compiled_templates().directory
    assert len({first, second, third}) == 3


@pytest.mark.parametrize("mode", [0o777, 0o775, 0o757])
def test_compiled_templates_are_not_used_from_a_folder_others_can_write(
        tmp_path: Path, mode: int) -> None:
    folder = tmp_path / "compiled"
    cache = render._CompiledTemplates(str(folder))
    env = jinja2_env(cache)
    env.get_template("t.html")  # compiled and stored: the folder is private
    assert oct(folder.stat().st_mode & 0o777) == oct(0o700)
    stored = list(folder.iterdir())
    assert len(stored) == 1
    folder.chmod(mode)
    stored[0].write_bytes(b"not jinja bytecode")  # what someone else could have put there
    loads: list[bool] = []
    real = render.FileSystemBytecodeCache.load_bytecode
    render.FileSystemBytecodeCache.load_bytecode = lambda self, bucket: loads.append(True)
    try:
        assert jinja2_env(cache).get_template("t.html").render(x="<b>") == "&lt;b&gt;"
    finally:
        render.FileSystemBytecodeCache.load_bytecode = real
    assert loads == []  # never read while others can write the folder


def test_compiled_templates_owned_by_another_user_are_not_used(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can give a folder to another user")
    folder = tmp_path / "compiled"
    folder.mkdir(mode=0o700)
    os.chown(folder, 65534, 65534)
    assert not render._CompiledTemplates(str(folder))._private()
    os.chown(folder, 0, 0)
    assert render._CompiledTemplates(str(folder))._private()


def jinja2_env(cache: render._CompiledTemplates):
    import jinja2

    return jinja2.Environment(loader=jinja2.DictLoader({"t.html": "{{ x }}"}),
                              autoescape=True, bytecode_cache=cache)
