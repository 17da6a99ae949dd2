#!/usr/bin/env python3
"""Checks that the CSS `fontresolve audit --emit css` writes puts every text style's baseline where
Figma does, in headless Chromium (issue 27).

A DTCG token file with one text style per case below goes through `fontresolve audit --emit css`;
a page links the emitted css/fonts.css (its @font-face rules point at the real font files by
file:// URL, with the ascent/descent/line-gap overrides) and holds one element per text style,
with the style's class. In each, an inline-block of height 0 with vertical-align: baseline marks
the baseline; its getBoundingClientRect().top minus the element's is the measured baseline. It is
compared with `fontresolve layout … --json`'s figma.baseline, and with where Chromium's pixel
grid puts a face with those overrides (docs/layout.md, "Chromium's pixel grid"):

    ascent  a = round(ascent-override  × size)
    descent d = round(descent-override × size)
    baseline  = a + floor((line-height − a − d) / 2)

A case passes when the measured baseline is within 0.5 px of Figma's, or equals the grid model
(to 1/64 px, Chromium's LayoutUnit).

    scripts/chromium-baseline.py          prints a row per case; exits 1 when one fails
    scripts/chromium-baseline.py --without-overrides
                                          the same with the override descriptors removed from
                                          the emitted CSS: shows what they fix (and that the
                                          check can fail); exits 1 when a case fails

FONTRESOLVE names the fontresolve binary (default .build/debug/fontresolve); CHROMIUM the
browser (default /usr/bin/chromium). Stdlib only; the DevTools client and Chromium's start and stop are
scripts/chromium_devtools.py, shared with scripts/chromium-reference.py.
"""

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONTRESOLVE = os.environ.get("FONTRESOLVE", os.path.join(ROOT, ".build/debug/fontresolve"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
LATO = os.path.join(ROOT, "fonts/Lato")
INTER = os.path.join(ROOT, "fonts/Inter")
INTER_VF = "/usr/share/fonts/truetype/inter-vf"  # Debian's fonts-inter-variable: Inter Display, a variable font

# (family, font folder, weight, style, size in px, line height as the token writes it)
CASES = [
    ("Lato", LATO, 400, "normal", 16, "24px"),
    ("Lato", LATO, 400, "normal", 13, "1.5"),
    ("Lato", LATO, 700, "normal", 24, "32px"),
    ("Lato", LATO, 400, "italic", 17, "130%"),
    ("Lato", LATO, 900, "normal", 11, "15.5px"),
    ("Inter", INTER, 400, "normal", 16, "24px"),
    ("Inter", INTER, 600, "normal", 14, "20px"),
    ("Inter", INTER, 400, "normal", 32, "1.25"),
    ("Inter", INTER, 300, "italic", 15, "22px"),
    ("Inter Display", INTER_VF, 400, "normal", 16, "24px"),
    ("Inter Display", INTER_VF, 700, "normal", 20, "28px"),
    ("Inter Display", INTER_VF, 500, "normal", 48, "110%"),
]


from chromium_devtools import DevTools, start_chromium, stop_chromium  # noqa: E402



# --- the page ------------------------------------------------------------------------------

MEASURE = """(async () => {
  await document.fonts.ready;
  const rows = [];
  for (const div of document.querySelectorAll("div.case")) {
    const probe = div.querySelector("span.probe");
    const style = getComputedStyle(div);
    const font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    rows.push({
      id: div.id,
      baseline: probe.getBoundingClientRect().top - div.getBoundingClientRect().top,
      height: div.getBoundingClientRect().height,
      loaded: document.fonts.check(font, "Hxg"),
      webFont: [...document.fonts].some(f => f.status === "loaded" && style.fontFamily.includes(f.family)),
    });
  }
  return JSON.stringify(rows);
})()"""


def css_class(index):
    """The class the audit derives from the token path case.c<index> (docs/audit.md)."""
    return f"case-c{index}"


def write_inputs(folder):
    tokens = {"case": {}}
    for i, (family, _, weight, style, size, line_height) in enumerate(CASES):
        value = {"fontFamily": family, "fontWeight": weight, "fontSize": f"{size}px", "lineHeight": line_height}
        if style != "normal":
            value["fontStyle"] = style
        if not line_height.endswith(("px", "%")):
            value["lineHeight"] = float(line_height)
        tokens["case"][f"c{i}"] = {"$type": "typography", "$value": value}
    path = os.path.join(folder, "baseline.tokens.json")
    with open(path, "w") as f:
        json.dump(tokens, f, indent=2)
    return path


def emit_css(tokens, out):
    folders = sorted({case[1] for case in CASES})
    args = [FONTRESOLVE, "audit", tokens, "--emit", "css", "--out", out]
    for folder in folders:
        args += ["--fonts", folder]
    run = subprocess.run(args, capture_output=True, text=True)
    css = os.path.join(out, "css/fonts.css")
    if not os.path.exists(css):
        raise RuntimeError(f"fontresolve audit wrote no CSS (exit {run.returncode}): {run.stderr}")
    return css


def write_page(out):
    body = "\n".join(
        f'<div class="case {css_class(i)}" id="c{i}"><span class="probe"></span>Hxgé {case[0]}</div>'
        for i, case in enumerate(CASES)
    )
    page = f"""<!doctype html>
<html><head><meta charset="utf-8">
<link rel="stylesheet" href="css/fonts.css">
<style>
  body {{ margin: 0; }}
  div.case {{ margin: 0; padding: 0; white-space: nowrap; }}
  span.probe {{ display: inline-block; width: 0; height: 0; vertical-align: baseline; }}
</style></head>
<body>
{body}
</body></html>
"""
    path = os.path.join(out, "page.html")
    with open(path, "w") as f:
        f.write(page)
    return path


def layout_answer(family, folder, weight, style, size, line_height):
    args = [FONTRESOLVE, "layout", family, "--weight", str(weight), "--size", str(size),
            "--line-height", line_height, "--fonts", folder, "--json"]
    if style == "italic":
        args.append("--italic")
    return json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)


def grid_model(answer):
    """Where Chromium's pixel grid puts the baseline with the overrides (docs/layout.md)."""
    size, line = answer["size"], answer["lineHeight"]
    a = math.floor(answer["css"]["ascentOverride"] / 100 * size + 0.5)
    d = math.floor(answer["css"]["descentOverride"] / 100 * size + 0.5)
    line = math.floor(line * 64) / 64  # LayoutUnit
    return a + math.floor((line - a - d) / 2)


def main():
    if not os.path.exists(CHROMIUM):
        print(f"chromium-baseline: {CHROMIUM} is not installed; nothing measured")
        return 0
    if not os.path.exists(FONTRESOLVE):
        print(f"chromium-baseline: {FONTRESOLVE} is missing; run swift build first", file=sys.stderr)
        return 2
    missing = sorted({case[1] for case in CASES if not os.path.isdir(case[1])})
    if missing:
        print(f"chromium-baseline: font folders missing: {', '.join(missing)}", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="fontreg-baseline-")
    profile = os.path.join(work, "profile")
    os.mkdir(profile)
    out = os.path.join(work, "out")
    failures = 0
    process = None
    try:
        css = emit_css(write_inputs(work), out)
        text = open(css).read()
        if "--without-overrides" in sys.argv[1:]:
            stripped = "\n".join(
                line for line in text.splitlines()
                if not line.strip().startswith(("ascent-override", "descent-override", "line-gap-override"))
            )
            with open(css, "w") as f:
                f.write(stripped + "\n")
            text = stripped.replace("@font-face", "@font-face ascent-override")  # skip the check below
        for i in range(len(CASES)):
            if f".{css_class(i)} {{" not in text:
                raise RuntimeError(f"the emitted CSS has no class .{css_class(i)}")
        if text.count("@font-face") != text.count("ascent-override"):
            raise RuntimeError("an emitted @font-face has no ascent-override")
        page = write_page(out)
        process, tools = start_chromium(
            profile, extra_args=("--allow-file-access-from-files", "--force-device-scale-factor=1"))
        tools.call("Page.enable")
        tools.call("Page.navigate", url="file://" + page)
        time.sleep(0.5)
        for _ in range(100):
            if tools.evaluate("document.readyState") == "complete":
                break
            time.sleep(0.1)
        rows = {row["id"]: row for row in json.loads(tools.evaluate(MEASURE))}
        print(f"{'style':34} {'measured':>9} {'figma':>9} {'grid':>6} {'Δfigma':>7}  verdict")
        for i, case in enumerate(CASES):
            family, folder, weight, style, size, line_height = case
            answer = layout_answer(*case)
            row = rows[f"c{i}"]
            measured, figma, grid = row["baseline"], answer["figma"]["baseline"], grid_model(answer)
            delta = measured - figma
            if not row["loaded"] or not row["webFont"]:
                verdict = "FAIL (web font not loaded)"
            elif abs(delta) <= 0.5:
                verdict = "ok (within 0.5 px)"
            elif abs(measured - grid) < 1 / 64:
                verdict = "ok (Chromium's pixel grid)"
            else:
                verdict = "FAIL"
            failures += verdict.startswith("FAIL")
            name = f"{family} {weight}{' italic' if style == 'italic' else ''} {size}/{line_height}"
            print(f"{name:34} {measured:9.3f} {figma:9.3f} {grid:6.0f} {delta:+7.3f}  {verdict}")
    finally:
        if process:
            stop_chromium(process, profile)
        shutil.rmtree(work, ignore_errors=True)
    print(f"baselines: {len(CASES) - failures}/{len(CASES)} where Figma puts them")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
