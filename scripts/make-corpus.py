#!/usr/bin/env python3
"""Generates a benchmark corpus of N font faces: distinct families, nine weights, two styles.

    .venv/bin/python scripts/make-corpus.py 10000 /tmp/fontreg-corpus-10000

Each family "Corpus NNNNN" gets 18 small TrueType files (weights 100..900, upright and
italic) with real name, OS/2 and post tables, so fontconfig, FreeType and fontreg read them
like any font. Made on the fly for benchmarks; never committed.
"""
import os
import sys

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

NAMES = {100: "Thin", 200: "ExtraLight", 300: "Light", 400: "Regular", 500: "Medium",
         600: "SemiBold", 700: "Bold", 800: "ExtraBold", 900: "Black"}


def box(stem):
    pen = TTGlyphPen(None)
    pen.moveTo((50, 0)); pen.lineTo((50 + stem, 0)); pen.lineTo((50 + stem, 700)); pen.lineTo((50, 700)); pen.closePath()
    return pen.glyph()


def template(weight, italic):
    fb = FontBuilder(1000, isTTF=True)
    glyphs = [".notdef", "space", "A"]
    fb.setupGlyphOrder(glyphs)
    fb.setupCharacterMap({32: "space", 65: "A"})
    stem = 16 + (weight - 100) * 17 // 100
    fb.setupGlyf({".notdef": box(stem), "space": TTGlyphPen(None).glyph(), "A": box(stem)})
    fb.setupHorizontalMetrics({g: (600, 50) for g in glyphs})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Template", "styleName": "Regular"})
    fs = 0x01 if italic else (0x20 if weight == 700 else 0x40)
    fb.setupOS2(usWeightClass=weight, usWidthClass=5, fsSelection=fs, sTypoAscender=800, sTypoDescender=-200)
    fb.setupPost(italicAngle=-12 if italic else 0)
    fb.font["head"].created = fb.font["head"].modified = 3_850_000_000
    fb.font["head"].macStyle = (1 if weight == 700 else 0) | (2 if italic else 0)
    return fb.font


def main():
    count, out = int(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    templates = {(w, i): template(w, i) for w in NAMES for i in (False, True)}
    made = 0
    family = 0
    while made < count:
        family += 1
        fam = f"Corpus {family:05d}"
        root = fam.replace(" ", "")
        folder = os.path.join(out, f"{family // 500:03d}")
        os.makedirs(folder, exist_ok=True)
        for (weight, italic), font in templates.items():
            if made >= count:
                break
            style = NAMES[weight] + (" Italic" if italic else "")
            ps = f"{root}-{NAMES[weight]}{'Italic' if italic else ''}"
            name = font["name"]
            name.names = []
            ribbi = weight in (400, 700)
            name.setName(fam if ribbi else f"{fam} {NAMES[weight]}", 1, 3, 1, 0x409)
            name.setName(("Bold " if weight == 700 else "") + ("Italic" if italic else ("Regular" if weight != 700 else "")) if ribbi else ("Italic" if italic else "Regular"), 2, 3, 1, 0x409)
            name.setName(f"{fam} {style}", 4, 3, 1, 0x409)
            name.setName(ps, 6, 3, 1, 0x409)
            if not ribbi:
                name.setName(fam, 16, 3, 1, 0x409)
                name.setName(style, 17, 3, 1, 0x409)
            font.save(os.path.join(folder, ps + ".ttf"))
            made += 1
    print(f"{made} faces in {family} families under {out}")


if __name__ == "__main__":
    main()
