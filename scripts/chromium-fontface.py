#!/usr/bin/env python3
"""Face matching, synthesis and variation values of fontreg against headless Chromium, on
generated `@font-face` families (issue 26).

scripts/fontface_families.py cuts families from Lato into a temporary directory: static faces at
several weights, styles (italic; oblique with post.italicAngle and fsSelection bit 9) and widths
(usWidthClass), each with its own advance of "x", and variable faces (wght, wdth, slnt, ital)
whose probe glyphs' advances are linear in each axis. The page declares one `@font-face` rule per
file with the descriptors fontreg reads from it (`fontresolve list FAMILY --fonts DIR --json`) and lays
out each query (font-weight, font-style, font-stretch; `font-synthesis` default and `none`):

- the face: the width of a span of "x" at 2000px (1px per font unit) names the face Chromium drew;
- the variation values: the width of each axis's probe glyph gives the coordinate applied;
- synthesis: one screenshot (Page.captureScreenshot) of a 48px "I" per query, drawn with the
  default `font-synthesis` and with `none`; more ink than the `none` drawing is fake bold, a top
  shifted right of the bottom is a fake slant. The detector checks itself on a query known to be
  synthesized both ways and one known to be neither, and stops (exit 2) when they read wrong.

Each is compared with `fontresolve resolve FAMILY --weight W --style S --width WD --fonts DIR
--json` (face postscriptName, synthesis, variations). Prints the agreement per category and exits 1
on a difference that docs/matching.md does not list between its `fontface-known` markers.

    scripts/chromium-fontface.py          the bounded sweep, 1,092 queries (the test runs it; about a minute)
    scripts/chromium-fontface.py --all    the long sweep: weights 1-1000 by 50 and 350/450/550/650,
                                          more angles and widths on every family
    scripts/chromium-fontface.py --list   also prints every agreeing query
    scripts/chromium-fontface.py --all --family "FRT Var"
                                          only that family's queries (repeatable; with the controls)

Run it with the project's Python (`$(bash scripts/venv.sh)`, fontTools). FONTRESOLVE names the
fontresolve binary (default .build/debug/fontresolve); CHROMIUM the browser (/usr/bin/chromium).
"""

import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_devtools import CHROMIUM, start_chromium, stop_chromium  # noqa: E402
import fontface_families as families  # noqa: E402

ROOT = families.ROOT
FONTRESOLVE = os.environ.get("FONTRESOLVE", os.path.join(ROOT, ".build/debug/fontresolve"))
KNOWN = os.path.join(ROOT, "docs/matching.md")

STYLES = ["normal", "italic", "oblique 5deg", "oblique 10deg", "oblique 14deg", "oblique 20deg", "oblique -10deg"]
WEIGHTS = [100, 300, 350, 400, 450, 500, 550, 600, 650, 700, 800, 900]
WIDTHS = [50, 100, 125]
WIDTH_FAMILIES = {"FRT Widths", "FRT Var"}
ALL_STYLES = STYLES + ["oblique 0deg", "oblique 8deg", "oblique 11deg", "oblique 13deg", "oblique 30deg",
                       "oblique -20deg", "oblique 90deg"]
ALL_WEIGHTS = sorted({1, 1000, 350, 450, 550, 650, *range(50, 1000, 50)})
ALL_WIDTHS = [50, 62.5, 75, 87.5, 100, 112.5, 125, 150, 200]
# The detector's own check: (family, weight, style, width, bold, oblique) Chromium is known to
# draw so: a 400/500 upright family asked 900 italic is faked both ways, a real 700 face neither.
# How far a measured coordinate may be from fontreg's: the axes' probe advances are whole font
# units at the masters and the browser interpolates in F2Dot14, so a few hundredths.
TOLERANCE = {"wght": 0.5, "wdth": 0.5, "slnt": 0.5, "ital": 0.05}
CONTROLS = [("FRT Upright", 900, "italic", 100, True, True), ("FRT Full", 700, "normal", 100, False, False)]


def cases(everything, only=None):
    out = []
    for family, _ in families.STATIC_FAMILIES + families.VARIABLE_FAMILIES:
        if only and family not in only:
            continue
        widths = (ALL_WIDTHS if everything else WIDTHS) if everything or family in WIDTH_FAMILIES else [100]
        for width in widths:
            for style in ALL_STYLES if everything else STYLES:
                for weight in ALL_WEIGHTS if everything else WEIGHTS:
                    out.append((family, weight, style, width))
    for family, weight, style, width, _, _ in CONTROLS:
        if (family, weight, style, width) not in out:
            out.append((family, weight, style, width))
    return out


# --- fontreg's side ------------------------------------------------------------------------


def fontreg_faces(directory):
    """The faces fontreg reads from the directory's files: one per file (a variable file's named
    instances are the same file, drawn through the variation values)."""
    def run(*args):
        out = subprocess.run([FONTRESOLVE, "list", *args, "--fonts", directory, "--json"], capture_output=True,
                             text=True)
        if out.returncode != 0:
            raise RuntimeError(f"fontresolve list {' '.join(args)}: {out.stderr.strip()}")
        return json.loads(out.stdout)

    faces = []
    for family in run():
        faces += [face for face in run(family["name"]) if face.get("instance") is None]
    return faces


def descriptors(face):
    """The `@font-face` descriptors of what fontreg read from the face's file."""
    axes = {a["tag"]: a for a in face.get("axes", [])}
    if "wght" in axes:
        weight = f"{axes['wght']['minimum']:g} {axes['wght']['maximum']:g}"
    else:
        weight = str(face["weight"])
    if "wdth" in axes:
        stretch = f"{axes['wdth']['minimum']:g}% {axes['wdth']['maximum']:g}%"
    else:
        stretch = f"{face['widthPercent']:g}%"
    if face.get("italic"):
        style = "italic"
    elif "slnt" in axes:
        low, high = -axes["slnt"]["maximum"], -axes["slnt"]["minimum"]
        style = f"oblique {low:g}deg {high:g}deg"
    elif face.get("oblique"):
        style = f"oblique {-face.get('italicAngle', 0) or 14:g}deg"
    else:
        style = "normal"
    return {"font-weight": weight, "font-stretch": stretch, "font-style": style}


def fontreg_resolve(directory, case, synthesis):
    family, weight, style, width = case
    args = [FONTRESOLVE, "resolve", family, "--weight", str(weight), "--style", style,
            "--width", f"{width:g}%", "--fonts", directory, "--json"]
    if not synthesis:
        args += ["--synthesis", "none"]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {out.stderr.strip()}")
    answer = json.loads(out.stdout)
    face = answer["face"]["postscriptName"]
    synthesis = answer.get("synthesis") or {}
    return {"face": face, "bold": bool(synthesis.get("bold")), "oblique": bool(synthesis.get("oblique")),
            "variations": answer.get("variations") or {}}


# --- Chromium's side -----------------------------------------------------------------------

PAGE = """<!doctype html><meta charset=utf-8><style>
%s
body { margin: 0; background: #fff; color: #000; }
#cells { width: %dpx; line-height: 0; }
.cell { display: inline-block; width: 40px; height: 64px; line-height: 64px; font-size: 48px;
        padding-left: 8px; box-sizing: border-box; overflow: hidden; white-space: nowrap; vertical-align: top; }
#probes { position: absolute; left: 0; top: 0; visibility: hidden; font-size: 2000px; white-space: nowrap; }
#probes span { display: inline-block; }
</style><div id=cells></div><div id=probes></div>"""

COLUMNS = 30
# Queries per page: 2 × 1500 cells of 64px in rows of 30 keep the screenshot 6,400px high.
CHUNK = 1500

BUILD = """(async () => {
  const cases = %s, probes = %s;
  const cells = document.getElementById("cells"), holder = document.getElementById("probes");
  const style = (el, c, none) => {
    el.style.fontFamily = JSON.stringify(c[0]); el.style.fontWeight = String(c[1]);
    el.style.fontStyle = c[2]; el.style.fontStretch = c[3] + "%%";
    el.style.fontSynthesis = none ? "none" : "";
  };
  const spans = [];
  for (const c of cases) {
    for (const none of [false, true]) {
      const cell = document.createElement("span"); cell.className = "cell"; cell.textContent = "I";
      style(cell, c, none); cells.appendChild(cell);
      const row = [];
      for (const ch of probes) {
        const s = document.createElement("span"); s.textContent = ch; style(s, c, none);
        holder.appendChild(s); row.push(s);
      }
      spans.push(row);
    }
  }
  await Promise.all([...document.fonts].map(f => f.load()));
  await document.fonts.ready;
  const rect = cells.getBoundingClientRect();
  return {widths: spans.map(row => row.map(s => s.getBoundingClientRect().width)),
          height: Math.ceil(rect.height), width: Math.ceil(rect.width)};
})()"""

INK = """(async () => {
  const img = new Image(); img.src = "data:image/png;base64,%s"; await img.decode();
  const canvas = document.createElement("canvas"); canvas.width = img.width; canvas.height = img.height;
  const ctx = canvas.getContext("2d"); ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, img.width, img.height).data;
  const out = [];
  for (let i = 0; i < %d; i++) {
    const x0 = (i %% %d) * 40, y0 = Math.floor(i / %d) * 64;
    let ink = 0, top = 0, topX = 0, bottom = 0, bottomX = 0;
    for (let y = 0; y < 64; y++) for (let x = 0; x < 40; x++) {
      const v = 255 - data[((y0 + y) * img.width + x0 + x) * 4];
      ink += v;
      if (y < 26) { top += v; topX += v * x; } else if (y >= 38) { bottom += v; bottomX += v * x; }
    }
    out.push([ink, top ? topX / top : 0, bottom ? bottomX / bottom : 0]);
  }
  return out;
})()"""


def chromium_answers(directory, faces, queries):
    rules = []
    for face in faces:
        d = descriptors(face)
        rules.append(
            f'@font-face {{ font-family: "{face["family"]}"; src: url("{os.path.basename(face["file"])}");'
            f' font-weight: {d["font-weight"]}; font-style: {d["font-style"]}; font-stretch: {d["font-stretch"]}; }}')
    page = os.path.join(directory, "page.html")
    with open(page, "w") as handle:
        handle.write(PAGE % ("\n".join(rules), COLUMNS * 40))
    probes = "x" + "".join(families.AXIS_PROBE.values())
    profile = tempfile.mkdtemp(prefix="fontreg-chromium-")
    process, tools = start_chromium(profile, ["--allow-file-access-from-files"])
    try:
        tools.call("Page.enable")
        tools.call("Emulation.setDeviceMetricsOverride", width=COLUMNS * 40, height=800, deviceScaleFactor=1,
                   mobile=False)
        widths, ink = [], []
        for start in range(0, len(queries), CHUNK):
            chunk = queries[start:start + CHUNK]
            tools.call("Page.navigate", url="file://" + page)
            for _ in range(100):
                if tools.evaluate("document.readyState") == "complete":
                    break
            laid = tools.evaluate(BUILD % (json.dumps([list(q) for q in chunk]), json.dumps(probes)))
            shot = tools.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                              clip={"x": 0, "y": 0, "width": laid["width"], "height": laid["height"], "scale": 1})
            widths += laid["widths"]
            ink += tools.evaluate(INK % (shot["data"], 2 * len(chunk), COLUMNS, COLUMNS))
    finally:
        stop_chromium(process, profile)
        shutil.rmtree(profile, ignore_errors=True)
    return widths, ink


def read_synthesis(default, none):
    """(bold, oblique) from the ink of the default drawing against the `none` one."""
    bold = default[0] > none[0] * 1.12
    slant = (default[1] - default[2]) - (none[1] - none[2])
    return bold, slant > 2.0


# --- comparison ----------------------------------------------------------------------------


def known_differences():
    """(category, family, weight, style, width) patterns docs/matching.md lists; "any" matches all."""
    text = open(KNOWN).read()
    block = re.search(r"<!-- fontface-known:start -->(.*?)<!-- fontface-known:end -->", text, re.S)
    known = []
    for line in (block.group(1) if block else "").splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and cells[0] in ("faces", "synthesis", "variations"):
            known.append(tuple(cells[:5]))
    return known


def listed(known, category, case):
    family, weight, style, width = case
    for row in known:
        k_cat, k_family, k_weights, k_style, k_widths = row
        styles = [s.strip() for s in k_style.split(",")]
        if k_cat != category or k_family not in ("any", family) or not ({"any", style} & set(styles)):
            continue
        if k_weights != "any" and str(weight) not in k_weights.replace(",", " ").split():
            continue
        if k_widths != "any" and f"{width:g}" not in k_widths.replace("%", "").replace(",", " ").split():
            continue
        return row
    return None


def main():
    arguments = sys.argv[1:]
    everything, listing = "--all" in arguments, "--list" in arguments
    only = {arguments[i + 1] for i, a in enumerate(arguments[:-1]) if a == "--family"}
    if not os.path.exists(CHROMIUM):
        print(f"chromium-fontface: {CHROMIUM} is not installed; nothing compared")
        return 0
    if not os.path.exists(FONTRESOLVE):
        print(f"chromium-fontface: {FONTRESOLVE} is missing; run swift build first", file=sys.stderr)
        return 2
    directory = tempfile.mkdtemp(prefix="fontreg-fontface-")
    try:
        return sweep(directory, everything, listing, only)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def sweep(directory, everything, listing, only):
    generated = families.generate(directory)
    faces = fontreg_faces(directory)
    by_family = {}
    for face in faces:
        by_family.setdefault(face["family"], []).append(face)
    queries = cases(everything, only)
    widths, ink = chromium_answers(directory, faces, queries)
    for family, weight, style, width, bold, oblique in CONTROLS:
        i = queries.index((family, weight, style, width))
        seen = read_synthesis(ink[2 * i], ink[2 * i + 1])
        if seen != (bold, oblique):
            print(f"synthesis detector failed its check: {family} {weight} {style} {width}%: read {seen},"
                  f" expected {(bold, oblique)} (ink {ink[2 * i]} against {ink[2 * i + 1]})")
            return 2
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        ours = list(pool.map(lambda q: fontreg_resolve(directory, q, True), queries))
    known = known_differences()
    used = set()
    totals = {"faces": [0, 0], "synthesis": [0, 0], "variations": [0, 0]}
    unexplained = []
    for i, case in enumerate(queries):
        for category, same, chromium, fontreg in compare(case, widths[2 * i], ink[2 * i:2 * i + 2], ours[i],
                                                         by_family, generated):
            totals[category][0] += same
            totals[category][1] += 1
            query = f"{case[0]} {case[1]} {case[2]} {case[3]:g}%"
            if same:
                if listing:
                    print(f"  = {category:10} {query}: {chromium}")
                continue
            row_known = listed(known, category, case)
            mark = "≈" if row_known else "≠"
            print(f"  {mark} {category:10} {query}: chromium {chromium}, fontreg {fontreg}")
            if row_known:
                used.add(row_known)
            else:
                unexplained.append((i, category, query, chromium, fontreg))
    unexplained, collisions = remeasure_alone(directory, faces, queries, ours, unexplained, by_family, generated)
    for category, (same, total) in totals.items():
        print(f"{category}: {same}/{total} agree ({100.0 * same / max(total, 1):.1f} %)")
    print(f"agreement: {len(queries)} queries on {len(faces)} generated faces, "
          f"{len(unexplained)} differences not listed in docs/matching.md")
    for _, category, query, chromium, fontreg, alone in collisions:
        print(f"page artifact: {category} {query}: chromium {chromium} on the sweep's page, {alone} on a page of"
              f" its own, as fontreg (docs/matching.md, cause 4)")
    for _, category, query, chromium, fontreg in unexplained:
        print(f"unexplained: {category} {query}: chromium {chromium}, fontreg {fontreg}")
    for row in known:
        if row not in used and not everything:
            print(f"note: docs/matching.md lists {' | '.join(row)}, which no query of this sweep shows")
    return 1 if unexplained else 0


def compare(case, row, ink_pair, mine, by_family, generated):
    """[(category, same, chromium's reading, fontreg's answer)] for one query."""
    family = case[0]
    probes = "x" + "".join(families.AXIS_PROBE.values())
    variable = [f for f in by_family[family] if f.get("axes")]
    if variable:
        theirs_face = variable[0]["postscriptName"]
        theirs_var = {}
        for axis in variable[0]["axes"]:
            tag = axis["tag"]
            theirs_var[tag] = families.axis_value(tag, row[probes.index(families.AXIS_PROBE[tag])])
    else:
        advance = row[0]
        nearest = min((abs(g["advance"] - advance), ps) for ps, g in generated.items() if g["family"] == family)
        theirs_face = nearest[1] if nearest[0] < 3 else f"(x advance {advance:g})"
        theirs_var = {}
    theirs_synth = read_synthesis(ink_pair[0], ink_pair[1])
    checks = [("faces", theirs_face == mine["face"], theirs_face, mine["face"])]
    checks.append(("synthesis", theirs_synth == (mine["bold"], mine["oblique"]),
                   _synth(theirs_synth), _synth((mine["bold"], mine["oblique"]))))
    if variable:
        mine_var = {a["tag"]: mine["variations"].get(a["tag"], a["defaultValue"]) for a in variable[0]["axes"]}
        same = all(abs(theirs_var[t] - mine_var[t]) <= TOLERANCE.get(t, 0.5) for t in theirs_var)
        checks.append(("variations", same, _vars(theirs_var), _vars(mine_var)))
    return checks


def remeasure_alone(directory, faces, queries, ours, unexplained, by_family, generated):
    """Draws each query with an unlisted difference again, alone on a page of its own.

    Blink keys a web font's drawn data by `FontDescription::CacheKey`, which folds the
    weight/width/slope request into the key's `options` as `GetHash() << 13`: two requests whose
    hashes agree in their low 19 bits get the same key, and the second element is drawn with the
    first one's data (its variation values). Which queries collide depends on what else the page
    draws, so a difference that goes away alone is the page's, not Chromium's answer to the query.
    Returns (still unexplained, [(index, category, query, chromium, fontreg, reading alone)])."""
    if not unexplained:
        return unexplained, []
    indices = sorted({entry[0] for entry in unexplained})
    alone = {}
    for i in indices:
        widths, ink = chromium_answers(directory, faces, [queries[i]])
        checks = compare(queries[i], widths[0], ink[0:2], ours[i], by_family, generated)
        alone[i] = {category: (same, chromium) for category, same, chromium, _ in checks}
    still, collisions = [], []
    for entry in unexplained:
        i, category = entry[0], entry[1]
        same, chromium = alone[i][category]
        if same:
            collisions.append(entry + (chromium,))
        else:
            still.append(entry)
    return still, collisions


def _synth(pair):
    return "+".join(n for n, on in zip(("bold", "oblique"), pair) if on) or "none"


def _vars(values):
    return " ".join(f"{t}={v:g}" for t, v in sorted(values.items()))


if __name__ == "__main__":
    sys.exit(main())
