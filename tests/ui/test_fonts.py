"""The bundled CJK font: present, small, covering every string the app shows, and used.

The last test is the one that matters on school machines: in a Qt process whose
fontconfig sees no CJK font at all, Chinese must still come out as real glyphs.
(tests/conftest.py makes Qt headless with QT_QPA_PLATFORM=offscreen.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontDatabase, QRawFont

from app.ui import fonts

ROOT = Path(__file__).resolve().parents[2]
FAMILY = "Attention Lab Sans SC"
REGULAR = fonts.FONT_DIR / "NotoSansSC-AttentionLab.otf"
SCANNED = (("app", "*.py"), ("app", "*.json"), ("app", "*.po"), ("data", "*.json"))
# Symbols the UI uses or may use (brief for tools/subset_font.py), some drawn by that tool.
SYMBOLS = "θαβγ·×÷√−≤≥≈∞⊤ᵀ₀₁₂₃₄₅₆₇₈₉⁰¹²³⁴⁵⁶⁷⁸⁹←→↑↓⇄●○■□▲▼✓✗⚠…“”「」，。：；！？（）"
SENTENCE = "小明 把 苹果 给了 小王"
REGENERATE = "re-run `python tools/subset_font.py` (needs fonttools and fonts-noto-cjk)"


def _project_chars() -> set[str]:
    chars: set[str] = set()
    for folder, pattern in SCANNED:
        for path in (ROOT / folder).rglob(pattern):
            if "__pycache__" not in path.parts:
                chars.update(path.read_text(encoding="utf-8"))
    return {c for c in chars if c.isprintable()}


def _font_files() -> list[Path]:
    if not fonts.FONT_DIR.is_dir():
        return []
    return sorted(p for p in fonts.FONT_DIR.iterdir() if p.suffix in fonts.FONT_SUFFIXES)


def test_bundled_font_files_exist_and_are_small() -> None:
    assert REGULAR.is_file(), f"{REGULAR} missing: {REGENERATE}"
    sizes = {p.name: p.stat().st_size for p in _font_files()}
    assert sum(sizes.values()) < 8 * 1024 * 1024, sizes
    assert (fonts.FONT_DIR / "OFL.txt").is_file(), "the OFL requires the licence beside the font"


def test_register_returns_the_renamed_family(qapp) -> None:
    families = fonts.register_bundled_fonts()
    assert families == [FAMILY]
    assert fonts.register_bundled_fonts() == families  # loading twice is harmless
    assert FAMILY in QFontDatabase.families()


def test_missing_font_folder_logs_instead_of_raising(qapp, tmp_path, caplog) -> None:
    assert fonts.register_bundled_fonts(tmp_path / "nowhere") == []
    assert "no bundled fonts" in caplog.text


@pytest.mark.parametrize("path", _font_files(), ids=lambda p: p.name)
def test_font_covers_every_character_in_app_and_data(qapp, path: Path) -> None:
    raw = QRawFont(str(path), 16)
    assert raw.isValid()
    assert raw.familyName() == FAMILY
    wanted = _project_chars() | set(SYMBOLS) | set(SENTENCE)
    missing = sorted(c for c in wanted if not raw.supportsCharacter(ord(c)))
    assert not missing, (
        f"{path.name} lacks {' '.join(f'{c}(U+{ord(c):04X})' for c in missing)}: {REGENERATE}"
    )


def test_app_and_ui_fonts_list_system_family_then_bundled(qapp) -> None:
    before = qapp.font()
    try:
        fonts.apply_cjk_fallback(qapp)
        system = QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont).family()
        assert qapp.font().families()[0] == system
        assert FAMILY in qapp.font().families()
        font = fonts.ui_font(9.5, bold=True)
        assert font.families() == qapp.font().families()
        assert font.pointSizeF() == 9.5 and font.bold()
        assert isinstance(font, QFont)
    finally:
        qapp.setFont(before)


# Runs in a fresh Qt process whose fontconfig sees only Latin fonts; prints one JSON line.
_NO_CJK_SCRIPT = textwrap.dedent(
    r"""
    import json, os, sys
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontMetrics, QImage, QPainter, QRawFont
    from PySide6.QtWidgets import QApplication, QLabel

    SENTENCE, GLYPHS = sys.argv[1], "小明苹果王"
    app = QApplication([])

    def cjk_families():
        # A real font file with 苹 in its cmap, or one Qt files under Simplified Chinese.
        # (With no fonts at all Qt hands out a cmap-less "box" engine that claims every
        # character, so the cmap must be real.)
        found = []
        for f in QFontDatabase.families():
            raw = QRawFont.fromFont(QFont(f))
            if (raw.fontTable("cmap").size() and raw.supportsCharacter(ord("苹"))) or (
                QFontDatabase.WritingSystem.SimplifiedChinese in QFontDatabase.writingSystems(f)
            ):
                found.append(f)
        return found

    def ink(image):
        # Dark-pixel mask, row by row: equal masks mean equal drawings.
        return tuple(
            tuple(x for x in range(image.width()) if QColor(image.pixel(x, y)).value() < 128)
            for y in range(image.height())
        )

    def glyph_masks(font):
        masks = []
        for ch in GLYPHS:
            image = QImage(48, 48, QImage.Format.Format_RGB32)
            image.fill(Qt.GlobalColor.white)
            p = QPainter(image)
            p.setFont(font)
            p.setPen(Qt.GlobalColor.black)
            p.drawText(image.rect(), Qt.AlignmentFlag.AlignCenter, ch)
            p.end()
            masks.append(ink(image))
        return masks

    def label_image(png=None):
        label = QLabel(SENTENCE)
        label.setStyleSheet("background: white; color: black;")
        f = label.font(); f.setPointSize(20); label.setFont(f)
        label.adjustSize()
        image = QImage(label.size(), QImage.Format.Format_RGB32)
        image.fill(Qt.GlobalColor.white)
        label.render(image)
        if png:
            image.save(png)
        return label.font(), image

    def verdict(masks):
        return {"inked": all(any(m) for m in masks),
                "distinct": len(set(masks)) == len(masks)}

    out = {"families": len(QFontDatabase.families()), "cjk_before": cjk_families()}
    font, before = label_image()
    out["before"] = verdict(glyph_masks(font))
    out["in_font_before"] = QFontMetrics(font).inFont("苹")

    from app.ui.fonts import apply_cjk_fallback, register_bundled_fonts
    out["registered"] = register_bundled_fonts()
    apply_cjk_fallback(app)
    font, after = label_image(os.environ.get("CJK_CHECK_PNG"))
    out["families_after"] = font.families()
    out["in_font"] = QFontMetrics(font).inFont("苹")
    out["after"] = verdict(glyph_masks(font))
    out["label_changed"] = ink(before) != ink(after)
    print(json.dumps(out))
    """
)


def _no_cjk_fontconfig(tmp_path: Path) -> Path:
    """A fonts.conf listing an empty folder plus the Latin font folders, nothing else."""
    empty = tmp_path / "empty-fonts"
    empty.mkdir()
    dirs = [empty] + [
        d
        for d in (
            Path("/usr/share/fonts/truetype/dejavu"),
            Path("/usr/share/fonts/truetype/liberation"),
            Path("/usr/share/fonts/truetype/liberation2"),
        )
        if d.is_dir()
    ]
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
        "<fontconfig>\n"
        + "".join(f"  <dir>{d}</dir>\n" for d in dirs)
        + f"  <cachedir>{tmp_path / 'fc-cache'}</cachedir>\n</fontconfig>\n",
        encoding="utf-8",
    )
    return conf


@pytest.mark.slow
def test_chinese_renders_with_no_system_cjk_font(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "FONTCONFIG_FILE": str(_no_cjk_fontconfig(tmp_path)),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "CJK_CHECK_PNG": os.environ.get("CJK_CHECK_PNG", str(tmp_path / "cjk_check.png")),
    }
    env.pop("FONTCONFIG_PATH", None)
    done = subprocess.run(
        [sys.executable, "-c", _NO_CJK_SCRIPT, SENTENCE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])

    # The environment really has no CJK font, and without ours the glyphs are tofu:
    # the five characters come out identical (or blank), which the criterion detects.
    assert result["cjk_before"] == [], result
    assert result["in_font_before"] is False, result
    assert not (result["before"]["inked"] and result["before"]["distinct"]), result
    # With the bundled family: found, used for 苹, and five different, inked glyphs.
    assert result["registered"] == [FAMILY], result
    assert FAMILY in result["families_after"], result
    assert result["in_font"] is True, result
    assert result["after"] == {"inked": True, "distinct": True}, result
    assert result["label_changed"] is True, result
    assert Path(env["CJK_CHECK_PNG"]).is_file()
