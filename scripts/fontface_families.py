"""Generated `@font-face` families for scripts/chromium-fontface.py (issue 26).

Every face is cut from fonts/Lato/Lato-Regular.ttf (the glyphs of PROBES and the stem "I"), with
the style fields fontreg reads (OS/2 usWeightClass, usWidthClass, fsSelection bits 0 and 9,
post.italicAngle) set per face, and the advance of a probe glyph set so that a span's width tells
which face drew it (static faces: "x" is 500 + 20 × the face's number) or which coordinate a
variable face was drawn at (one probe glyph per axis, its advance linear in the axis value, see
AXIS_ADVANCE; the outlines never vary, so the ink of "I" changes only when the browser fakes bold
or a slant). Deterministic: the same files every run.
"""

import io
import logging
import os

from fontTools import subset
from fontTools.designspaceLib import AxisDescriptor, DesignSpaceDocument, SourceDescriptor
from fontTools.ttLib import TTFont
from fontTools import varLib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(ROOT, "fonts/Lato/Lato-Regular.ttf")
PROBES = "Ixabcd"

# (family, [(weight, style, width class)]): style is "normal", "italic" or "oblique A" (degrees).
STATIC_FAMILIES = [
    ("FRT Full", [(w, "normal", 5) for w in range(100, 1000, 100)]),
    ("FRT Gaps", [(300, "normal", 5), (500, "normal", 5), (800, "normal", 5), (500, "italic", 5)]),
    ("FRT Styles", [(400, "normal", 5), (400, "italic", 5), (700, "normal", 5), (400, "oblique 10", 5),
                    (700, "oblique 20", 5)]),
    ("FRT Upright", [(400, "normal", 5), (500, "normal", 5)]),
    ("FRT Pair", [(400, "normal", 5), (400, "italic", 5)]),
    ("FRT Oblique", [(400, "normal", 5), (400, "oblique 20", 5), (300, "oblique 8", 5)]),
    ("FRT Widths", [(400, "normal", 3), (400, "normal", 5), (400, "normal", 7), (700, "normal", 9),
                    (400, "italic", 2)]),
]

# (family, {tag: (min, default, max)}): one file each.
VARIABLE_FAMILIES = [
    ("FRT Var", {"wght": (100, 400, 900), "wdth": (50, 100, 200), "slnt": (-20, 0, 0)}),
    ("FRT VarShort", {"wght": (200, 400, 500), "ital": (0, 0, 1)}),
]

AXIS_PROBE = {"wght": "a", "wdth": "b", "slnt": "c", "ital": "d"}
AXIS_ADVANCE = {  # advance in font units (UPM 2000) of the axis's probe glyph at value v
    "wght": (200, 2), "wdth": (200, 4), "slnt": (1000, 20), "ital": (400, 1000),
}
# Lato's head.created is older than fontTools believes plausible; the warning says nothing here.
logging.getLogger("fontTools.ttLib.tables._h_e_a_d").setLevel(logging.ERROR)

AXIS_NAMES = {"wght": "Weight", "wdth": "Width", "slnt": "Slant", "ital": "Italic"}


def axis_value(tag, advance):
    base, slope = AXIS_ADVANCE[tag]
    return (advance - base) / slope


def _base():
    font = TTFont(BASE)
    options = subset.Options()
    options.name_IDs = ["*"]
    options.layout_features = []
    options.hinting = False
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=PROBES)
    subsetter.subset(font)
    for table in ("GPOS", "GSUB", "GDEF", "kern", "DSIG", "FFTM", "gasp", "hdmx", "LTSH", "VDMX"):
        if table in font:
            del font[table]
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()


def _load(data):
    return TTFont(io.BytesIO(data))


def _name(font, family, subfamily, postscript):
    name = font["name"]
    name.names = []
    for nid, value in ((1, family), (2, subfamily), (4, f"{family} {subfamily}"), (6, postscript),
                       (16, family), (17, subfamily)):
        name.setName(value, nid, 3, 1, 0x409)


def _advance(font, char, advance):
    glyph = font.getBestCmap()[ord(char)]
    font["hmtx"].metrics[glyph] = (advance, font["hmtx"].metrics[glyph][1])


def _style(font, weight, style, width):
    os2, post, head = font["OS/2"], font["post"], font["head"]
    os2.usWeightClass, os2.usWidthClass = weight, width
    italic, angle = style == "italic", 0.0
    if style == "italic":
        angle = -12.0
    elif style.startswith("oblique"):
        angle = -float(style.split()[1])
    selection = os2.fsSelection & ~(0x1 | 0x20 | 0x40 | 0x200)
    if italic:
        selection |= 0x1
    if style.startswith("oblique"):
        selection |= 0x200
    if weight >= 700:
        selection |= 0x20
    if selection & 0x221 == 0:
        selection |= 0x40
    os2.fsSelection = selection
    os2.version = max(os2.version, 4)
    post.italicAngle = angle
    head.created = head.modified = 3786912000  # fixed (2024-01-01), so every run writes the same bytes
    head.macStyle = (1 if weight >= 700 else 0) | (2 if italic else 0)


def generate(directory):
    """Writes every family's files into directory; returns {postscript name: description}."""
    base = _base()
    faces = {}
    for family_number, (family, specs) in enumerate(STATIC_FAMILIES):
        for number, (weight, style, width) in enumerate(specs):
            font = _load(base)
            postscript = f"{family.replace(' ', '')}-{number}"
            subfamily = f"W{weight} {style.replace(' ', '')} S{width}"
            _name(font, family, subfamily, postscript)
            _style(font, weight, style, width)
            _advance(font, "x", 500 + 20 * number)
            font.recalcTimestamp = False
            font.save(os.path.join(directory, postscript + ".ttf"))
            faces[postscript] = {"family": family, "advance": 500 + 20 * number, "weight": weight,
                                 "style": style, "width": width}
    for family, axes in VARIABLE_FAMILIES:
        postscript = family.replace(" ", "") + "-Variable"
        document = DesignSpaceDocument()
        for tag, (low, default, high) in axes.items():
            axis = AxisDescriptor()
            axis.tag, axis.name = tag, AXIS_NAMES[tag]
            axis.minimum, axis.default, axis.maximum = low, default, high
            document.addAxis(axis)
        defaults = {AXIS_NAMES[tag]: value[1] for tag, value in axes.items()}
        locations = [dict(defaults)]
        for tag, (low, default, high) in axes.items():
            for extreme in (low, high):
                if extreme != default:
                    locations.append({**defaults, AXIS_NAMES[tag]: extreme})
        for index, location in enumerate(locations):
            font = _load(base)
            _name(font, family, "Regular", postscript)
            _style(font, 400, "normal", 5)
            for tag in axes:
                start, slope = AXIS_ADVANCE[tag]
                _advance(font, AXIS_PROBE[tag], int(start + slope * location[AXIS_NAMES[tag]]))
            source = SourceDescriptor()
            source.font, source.location = font, location
            source.name = f"master{index}"
            document.addSource(source)
        variable, _, _ = varLib.build(document, exclude=["STAT", "MVAR"])
        variable["OS/2"].usWeightClass = axes.get("wght", (400, 400, 400))[1]
        variable["head"].created = variable["head"].modified = 3786912000
        variable.recalcTimestamp = False
        variable.save(os.path.join(directory, postscript + ".ttf"))
        faces[postscript] = {"family": family, "axes": axes}
    return faces


if __name__ == "__main__":
    import sys
    import json

    print(json.dumps(generate(sys.argv[1]), indent=1))
