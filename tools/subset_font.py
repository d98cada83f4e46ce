"""Build the bundled CJK font: a renamed subset of Noto Sans CJK SC.

School machines may have no Chinese font at all, so the app ships its own.  The full
Noto Sans CJK face is ~19 MB; this keeps GB2312 (every common simplified hanzi and
symbol), Latin, punctuation, the maths/arrow/bullet symbols the UI uses, and every
character found in ``app/**/*.py``, ``app/**/*.json``, the catalogues ``app/**/*.po`` and
``data/**/*.json`` at run time.
Re-run it whenever new strings are added:

    python tools/subset_font.py

Needs fontTools (``pip install -e .[tools]`` or ``pip install fonttools``) and Debian's
``fonts-noto-cjk`` package (``apt-get install fonts-noto-cjk``).  Neither is a runtime
dependency of the app.

The subset is a "Modified Version" under the SIL OFL 1.1, so its family is renamed to
"Attention Lab Sans SC" (the upstream Reserved Font Name rule; "Noto" is also a Google
trademark).  Hinting, kerning and all OpenType layout features are dropped to save space:
the UI only sets horizontal text, so 'vert' and friends are not needed.

A few wanted symbols are not in Noto Sans CJK at all (ᵀ ⊤ ✗, most super- and subscript
digits); they are drawn here from its own glyphs (T, ⊥, ×, 0-9) so they match the rest
and do not depend on what the school machine happens to have.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.reverseContourPen import ReverseContourPen
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "resources" / "fonts"
SEARCH_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")

SOURCE_FACE = "Noto Sans CJK SC"
FAMILY = "Attention Lab Sans SC"
PS_FAMILY = "AttentionLabSansSC"
FILE_STEM = "NotoSansSC-AttentionLab"
# Without hints each weight is ~1.6 MB, so Regular + Bold (~3.2 MB) fit the ~6 MB budget.
DEFAULT_WEIGHTS = ("Regular", "Bold")
SIZE_BUDGET = 6 * 1024 * 1024

COPYRIGHT_LINE = (
    "Copyright 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name 'Source'."
)

# Inclusive code point ranges kept whole (only what the source font covers ends up in it).
RANGES: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1 Supplement
    (0x0370, 0x03FF),  # Greek (θ, α, ...)
    (0x2000, 0x206F),  # General Punctuation
    (0x2070, 0x209F),  # Superscripts and Subscripts
    (0x2190, 0x21FF),  # Arrows (← → ↑ ↓ ⇄)
    (0x2200, 0x22FF),  # Mathematical Operators
    (0x2500, 0x257F),  # Box Drawing
    (0x25A0, 0x25FF),  # Geometric Shapes (● ○ ■ □ ▲ ▼)
    (0x3000, 0x303F),  # CJK Symbols and Punctuation
    (0xFF00, 0xFFEF),  # Halfwidth and Fullwidth Forms
)
EXTRA_CHARS = "·×÷√−≤≥≈∞⊤ᵀ₀₁₂₃₄₅₆₇₈₉⁰¹²³⁴⁵⁶⁷⁸⁹←→↑↓⇄●○■□▲▼✓✗⚠…—"

# Wanted characters Noto Sans CJK lacks, drawn from glyphs it has: (base, how).
# "sup"/"sub" scale like its own ⁴ does from 4; "flip" mirrors top to bottom; "box" fits the
# base into the box of the glyph named by the fourth character.
SYNTHETIC: dict[str, tuple[str, str]] = {
    **{chr(0x2070 + d): (str(d), "sup") for d in (0, 4, 5, 6, 7, 8, 9)},
    **{chr(0x2080 + d): (str(d), "sub") for d in range(10)},
    "ᵀ": ("T", "sup"),
    "ₐ": ("a", "sub"),
    "ᵢ": ("i", "sub"),
    "⊤": ("⊥", "flip"),
    "✗": ("×", "box✓"),
}

SCANNED = (("app", "*.py"), ("app", "*.json"), ("app", "*.po"), ("data", "*.json"))


def gb2312_chars() -> set[str]:
    """Every character GB2312 encodes (6763 hanzi plus its symbols, kana, Greek, ...)."""
    chars: set[str] = set()
    for lead in range(0xA1, 0xF8):
        for trail in range(0xA1, 0xFF):
            try:
                chars.add(bytes((lead, trail)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return chars


def project_chars(root: Path = ROOT) -> set[str]:
    """Every printable character in the app's source and data files, read fresh each run."""
    chars: set[str] = set()
    for folder, pattern in SCANNED:
        for path in sorted((root / folder).rglob(pattern)):
            if ".venv" in path.parts or "__pycache__" in path.parts:
                continue
            chars.update(path.read_text(encoding="utf-8"))
    return {c for c in chars if c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF}


def wanted_chars(root: Path = ROOT) -> set[str]:
    """The full character set the subset should try to cover."""
    chars = gb2312_chars() | set(EXTRA_CHARS) | project_chars(root)
    for first, last in RANGES:
        chars.update(chr(cp) for cp in range(first, last + 1))
    return chars


def find_source(weight: str) -> tuple[Path, int]:
    """Locate Debian's NotoSansCJK-<weight>.ttc and the index of its SC face."""
    name = f"NotoSansCJK-{weight}.ttc"
    for base in SEARCH_DIRS:
        for path in sorted(base.rglob(name)) if base.is_dir() else ():
            collection = TTCollection(str(path), lazy=True)
            try:
                for index, face in enumerate(collection.fonts):
                    if face["name"].getDebugName(1) == SOURCE_FACE:
                        return path, index
            finally:
                collection.close()
    raise SystemExit(
        f"{name} with a '{SOURCE_FACE}' face not found under "
        f"{', '.join(map(str, SEARCH_DIRS))}; install it with: apt-get install fonts-noto-cjk"
    )


def subset_options() -> subset.Options:
    """Small output: no hints, no layout features, no vertical metrics, English names only."""
    options = subset.Options()
    options.hinting = False
    options.layout_features = []
    options.legacy_kern = False
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "BASE", "vhea", "vmtx", "VORG"]
    options.name_IDs = list(range(15))  # keep copyright, trademark, licence text and URL
    options.name_languages = [0x0409]
    options.name_legacy = False
    options.notdef_outline = True
    options.glyph_names = False
    options.desubroutinize = False
    options.prune_unicode_ranges = True
    return options


def rename(font: TTFont, weight: str) -> None:
    """Give the Modified Version its own family name, as OFL's Reserved Font Name rule asks."""
    ps_name = f"{PS_FAMILY}-{weight}"
    full_name = FAMILY if weight == "Regular" else f"{FAMILY} {weight}"
    name = font["name"]
    version = name.getDebugName(5) or "Version 1.000"
    name.removeNames(nameID=16)
    name.removeNames(nameID=17)
    records = {
        1: FAMILY if weight in ("Regular", "Bold") else full_name,
        2: weight if weight in ("Regular", "Bold") else "Regular",
        3: f"{version.split(';')[0].removeprefix('Version ')};ATTN;{ps_name}",
        4: full_name,
        5: f"{version.split(';')[0]}; Attention Lab subset of Noto Sans CJK SC",
        6: ps_name,
    }
    for name_id, text in records.items():
        name.removeNames(nameID=name_id)
        name.setName(text, name_id, 3, 1, 0x0409)
    if "CFF " in font:
        cff = font["CFF "].cff
        old_ps = cff.fontNames[0]
        cff.fontNames = [ps_name]
        top = cff.topDictIndex[0]
        top.FullName = full_name
        top.FamilyName = FAMILY
        for fd in getattr(top, "FDArray", ()):
            if getattr(fd, "FontName", "").startswith(old_ps):
                fd.FontName = ps_name + fd.FontName[len(old_ps) :]


def _bounds(font: TTFont, glyph: str) -> tuple[float, float, float, float]:
    pen = BoundsPen(font.getGlyphSet())
    font.getGlyphSet()[glyph].draw(pen)
    if pen.bounds is None:
        raise ValueError(f"glyph {glyph} is empty")
    return pen.bounds


def _transform(font: TTFont, base: str, how: str) -> tuple[tuple[float, ...], float]:
    """The affine transform (xx, xy, yx, yy, dx, dy) and advance width for one recipe."""
    cmap = font.getBestCmap()
    glyph = cmap[ord(base)]
    advance = font["hmtx"][glyph][0]
    x0, y0, x1, y1 = _bounds(font, glyph)
    if how in ("sup", "sub"):
        # Copy the font's own superscript design: ⁴ is a scaled, raised 4.
        four, sup4 = cmap[ord("4")], cmap[0x2074]
        _, b0, _, b1 = _bounds(font, four)
        sx0, s0, _, s1 = _bounds(font, sup4)
        scale = (s1 - s0) / (b1 - b0)
        dx = sx0 - scale * font["hmtx"][four][1]
        extra = font["hmtx"][sup4][0] - scale * font["hmtx"][four][0]
        if how == "sup":
            dy = s0 - scale * b0
        else:  # sit below the baseline by the OS/2 subscript offset (at least 0.12 em)
            upm = font["head"].unitsPerEm
            dy = -max(font["OS/2"].ySubscriptYOffset, 0.12 * upm)
        return (scale, 0, 0, scale, dx, dy), scale * advance + extra
    if how == "flip":
        return (1, 0, 0, -1, 0, y0 + y1), advance
    if how.startswith("box"):
        target = cmap[ord(how[3])]
        t0, u0, t1, u1 = _bounds(font, target)
        scale = min((t1 - t0) / (x1 - x0), (u1 - u0) / (y1 - y0))
        dx = (t0 + t1) / 2 - scale * (x0 + x1) / 2
        dy = (u0 + u1) / 2 - scale * (y0 + y1) / 2
        return (scale, 0, 0, scale, dx, dy), font["hmtx"][target][0]
    raise ValueError(how)


def add_synthetic_glyphs(font: TTFont, chars: set[str]) -> set[str]:
    """Draw wanted-but-missing characters (ᵀ ⊤ ₀-₉ …) from the font's own glyphs.

    Works on the CID-keyed CFF a fresh load gives: each new glyph takes an unused CID,
    the font dict of its base glyph, and a cmap entry.  Returns the characters added.
    """
    cmap = font.getBestCmap()
    cff = font["CFF "].cff
    top = cff.topDictIndex[0]
    charstrings = top.CharStrings
    if not charstrings.charStringsAreIndexed or not hasattr(top, "FDSelect"):
        raise ValueError("expected a CID-keyed CFF freshly read from a file")
    order = list(font.getGlyphOrder())  # a copy: as loaded, it *is* top.charset
    used_cids = {int(g[3:]) for g in order if g.startswith("cid")}
    free_cids = (c for c in range(top.CIDCount - 1, 0, -1) if c not in used_cids)
    glyph_set = font.getGlyphSet()
    added: set[str] = set()
    for char, (base, how) in SYNTHETIC.items():
        needs = [base, *(("4", "⁴") if how in ("sup", "sub") else ()), *how[3:]]
        if char not in chars or ord(char) in cmap or any(ord(c) not in cmap for c in needs):
            continue
        base_glyph = cmap[ord(base)]
        matrix, advance = _transform(font, base, how)
        fd_index = top.FDSelect[order.index(base_glyph)]
        private = top.FDArray[fd_index].Private
        pen = T2CharStringPen(round(advance) - private.nominalWidthX, glyph_set)
        draw_into = TransformPen(pen, matrix)
        if matrix[0] * matrix[3] - matrix[1] * matrix[2] < 0:  # mirrored: keep winding
            draw_into = ReverseContourPen(draw_into)
        glyph_set[base_glyph].draw(draw_into)
        charstring = pen.getCharString(private=private, globalSubrs=cff.GlobalSubrs)

        name = f"cid{next(free_cids):05d}"
        charstrings.charStringsIndex.append(charstring)
        charstrings.charStrings[name] = len(charstrings.charStringsIndex) - 1
        top.charset.append(name)
        top.FDSelect.append(fd_index)
        order.append(name)
        font.setGlyphOrder(list(order))
        bounds = _bounds(font, base_glyph)
        lsb = min(
            matrix[0] * x + matrix[2] * y + matrix[4]
            for x in (bounds[0], bounds[2])
            for y in (bounds[1], bounds[3])
        )
        font["hmtx"][name] = (round(advance), round(lsb))
        for table in font["cmap"].tables:
            if table.isUnicode() and (ord(char) <= 0xFFFF or table.format in (12, 13)):
                table.cmap[ord(char)] = name
        cmap[ord(char)] = name
        glyph_set = font.getGlyphSet()
        added.add(char)
    if list(top.charset) != order:
        raise AssertionError("CFF charset and glyph order went out of step")
    if added:
        font["OS/2"].recalcUnicodeRanges(font)
    return added


def build(weight: str, chars: set[str], out_dir: Path) -> tuple[Path, set[str]]:
    """Subset one weight; returns the output path and the wanted characters it lacks."""
    source, index = find_source(weight)
    font = TTFont(str(source), fontNumber=index, recalcTimestamp=False)
    cmap = font.getBestCmap()
    missing = {c for c in chars if ord(c) not in cmap}
    subsetter = subset.Subsetter(subset_options())
    subsetter.populate(unicodes=sorted(ord(c) for c in chars if ord(c) in cmap))
    subsetter.subset(font)
    rename(font, weight)
    out = out_dir / f"{FILE_STEM}{'' if weight == 'Regular' else '-' + weight}.otf"
    font.save(str(out))
    font.close()
    # Re-read so the CFF is in its plain as-loaded form, then draw what the source lacks.
    font = TTFont(str(out), recalcTimestamp=False)
    added = add_synthetic_glyphs(font, chars)
    if added:
        font.save(str(out))
    font.close()
    return out, missing - added


def _debian_ofl_lines(text: str) -> list[str]:
    """The stand-alone 'License: SIL-1.1' paragraph of a Debian copyright file, de-indented."""
    lines = text.splitlines()
    for start, line in enumerate(lines):
        if line.strip() != "License: SIL-1.1":
            continue
        body: list[str] = []
        for cont in lines[start + 1 :]:
            if not cont.startswith(" "):  # a blank or unindented line ends the paragraph
                break
            body.append("" if cont.strip() == "." else cont[1:])
        if body:
            return body
    return []


def ofl_text(copyright_file: Path = DEBIAN_COPYRIGHT) -> str:
    """The OFL 1.1 text exactly as Debian ships it, headed by the Noto CJK copyright line."""
    if not copyright_file.is_file():
        raise SystemExit(f"{copyright_file} not found; install fonts-noto-cjk")
    body = _debian_ofl_lines(copyright_file.read_text(encoding="utf-8"))
    while body and not body[-1].strip():
        body.pop()
    if not body or "SIL OPEN FONT LICENSE Version 1.1" not in "\n".join(body):
        raise SystemExit(f"no 'License: SIL-1.1' paragraph in {copyright_file}")
    return "\n".join([COPYRIGHT_LINE, "", *body]) + "\n"


def _describe(chars: Iterable[str]) -> str:
    return " ".join(f"{c}(U+{ord(c):04X})" for c in sorted(chars))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--weights",
        default=",".join(DEFAULT_WEIGHTS),
        help="comma-separated NotoSansCJK weights to build (default: %(default)s)",
    )
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder")
    args = parser.parse_args(argv)

    args.out.mkdir(parents=True, exist_ok=True)
    chars = wanted_chars()
    used = project_chars()
    print(f"{len(chars)} characters wanted ({len(used)} distinct in app/ and data/)")
    total = 0
    for weight in filter(None, re.split(r"\s*,\s*", args.weights)):
        out, missing = build(weight, chars, args.out)
        size = out.stat().st_size
        total += size
        print(
            f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: "
            f"{size / 1e6:.2f} MB"
        )
        gaps = {c for c in missing & used if not c.isspace()}
        if gaps:
            print(f"  not in {SOURCE_FACE} (system fallback draws them): {_describe(gaps)}")
    (args.out / "OFL.txt").write_text(ofl_text(), encoding="utf-8")
    print(f"wrote OFL.txt; fonts total {total / 1e6:.2f} MB")
    if total > SIZE_BUDGET:
        print(f"warning: over the {SIZE_BUDGET / 2**20:.0f} MiB budget", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
