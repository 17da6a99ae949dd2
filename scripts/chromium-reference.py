#!/usr/bin/env python3
"""Compares fontreg's per-cluster fallback with what headless Chromium draws (issue 26).

For each multilingual string below, headless Chromium lays the text out with one span per
grapheme cluster (split by the page's own Intl.Segmenter, UAX #29) in the given font-family
stack, and the DevTools protocol's CSS.getPlatformFontsForNode says which installed font drew
each span. `fontresolve resolve STACK --text T --json --system-fonts` gives fontreg's runs; each
cluster's face is compared with Chromium's by family name (fontconfig's names of the face's file).

    scripts/chromium-reference.py              prints the agreement; exits 1 on a difference
                                               that docs/fallback.md does not list as known, or
                                               when fewer than MINIMUM_AGREEMENT % of clusters agree
    scripts/chromium-reference.py --list       also prints every cluster's pair of families
    scripts/chromium-reference.py --faces SOCKET
                                               face matching on installed families (weight, style,
                                               width): Chromium's face (postScriptName) for a span
                                               of Latin text against `fontresolve resolve … --socket
                                               SOCKET`; prints the agreement (not in the test yet)

FONTRESOLVE names the fontresolve binary (default .build/debug/fontresolve); CHROMIUM the
browser (default /usr/bin/chromium). Stdlib only: the DevTools websocket (RFC 6455 handshake and
framing, text frames only) is the few functions below.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONTRESOLVE = os.environ.get("FONTRESOLVE", os.path.join(ROOT, ".build/debug/fontresolve"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
KNOWN = os.path.join(ROOT, "docs/fallback.md")
# Issue 26: at least this share of clusters agrees with Chromium by family.
MINIMUM_AGREEMENT = 95.0

# (stack, language or None, text): scripts the first family lacks next to Latin, digits,
# spaces and punctuation, and the three strings.
CASES = [
    ("Lato", "ja", "Mixed Latin 漢字 and カタカナ"),
    ("Lato", None, "∀x ∈ ℝ: E = ρ ≥ 0"),
    ("Lato", None, "مرحبا بالعالم، 2024!"),
    ("Lato", "ja", "Hello 世界 مرحبا"),
    ("Lato", None, "Bold สวัสดี שלום (test)"),
    ("Lato", None, "नमस्ते, world — १२३ and 123"),
    ("Lato", "ko", "한국어 text: «quote»"),
    ("Lato", None, "Ελληνικά and Кириллица ∮ ⇒ done"),
    ("Lato, Noto Sans Hebrew", None, "Hi שלום ∀x"),
    ("DejaVu Sans", None, "Grüße, Ελληνικά, Кириллица – ∮ ⇒ ∞"),
    ("Noto Sans", "ja", "Noto 日本語 text ひらがな."),
    ("Lato", None, "Emoji 😀 👩‍👩‍👧‍👦 🇯🇵 1️⃣ 👋🏽 ❤️ end"),
    ("Lato", None, "بِسْمِ اللَّهِ الرَّحْمَٰنِ"),
    ("Lato", None, "בְּרֵאשִׁית 1:1 — \"quoted\""),
    ("Lato", None, "१२३ alone"),
    ("Lato", "zh-Hans", "中文，标点。「引用」"),
    ("Lato", None, "ไทย ภาษา ๑๒๓"),
    ("Lato", None, "Ethiopic ሰላም and ⵜⴰⵎⴰⵣⵉⵖⵜ"),
    ("serif", None, "Serif Ελληνικά 漢字"),
]


from chromium_devtools import DevTools, start_chromium, stop_chromium  # noqa: E402


# --- the two sides ------------------------------------------------------------------------

LAYOUT = """(() => {
  const [text, stack, lang] = %s;
  document.body.innerHTML = "";
  const div = document.createElement("div");
  div.id = "t"; div.style.fontFamily = stack; div.style.fontSize = "16px";
  if (lang) div.lang = lang;
  const segments = [...new Intl.Segmenter(undefined, {granularity: "grapheme"}).segment(text)];
  for (const s of segments) {
    const span = document.createElement("span");
    span.textContent = s.segment;
    div.appendChild(span);
  }
  document.body.appendChild(div);
  return JSON.stringify(segments.map(s => [s.index, s.segment]));
})()"""


def chromium_clusters(tools, stack, lang, text, attempts=3):
    """[(utf16 index, cluster, chromium family or None)] for the text in the stack.

    On a loaded machine Chromium has answered a whole string with no font for any span (before its
    fonts were loaded): such an answer is asked again, up to `attempts` times, half a second apart.
    """
    for attempt in range(attempts):
        clusters = chromium_clusters_once(tools, stack, lang, text)
        if any(family is not None for _, _, family in clusters) or attempt == attempts - 1:
            return clusters
        time.sleep(0.5)


def chromium_clusters_once(tools, stack, lang, text):
    """One layout of the text in the stack and Chromium's family for each cluster."""
    result = tools.call("Runtime.evaluate", expression=LAYOUT % json.dumps([text, stack, lang]), returnByValue=True)
    segments = json.loads(result["result"]["value"])
    root = tools.call("DOM.getDocument", depth=-1)["root"]["nodeId"]
    spans = tools.call("DOM.querySelectorAll", nodeId=root, selector="#t span")["nodeIds"]
    clusters = []
    for (index, cluster), node in zip(segments, spans):
        fonts = tools.call("CSS.getPlatformFontsForNode", nodeId=node)["fonts"]
        family = max(fonts, key=lambda f: f["glyphCount"])["familyName"] if fonts else None
        clusters.append((index, cluster, family))
    return clusters


FAMILIES = {}


def file_families(path, index):
    """fontconfig's family names of a face (every language's), cached."""
    key = (path, index)
    if key not in FAMILIES:
        out = subprocess.run(
            ["fc-query", "-i", str(index), "-f", "%{family}", path], capture_output=True, text=True
        ).stdout
        FAMILIES[key] = [name.strip() for name in out.split(",") if name.strip()]
    return FAMILIES[key]


def fontreg_runs(stack, lang, text):
    args = [FONTRESOLVE, "resolve", stack, "--text", text, "--json", "--system-fonts"]
    if lang:
        args += ["--lang", lang]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return json.loads(out)["runs"]


def fontreg_family_at(runs, utf16):
    for run in runs:
        if run["startUTF16"] <= utf16 < run["endUTF16"]:
            return run
    return None


def known_differences():
    """The (cluster code points, Chromium family, fontreg family) triples docs/fallback.md lists."""
    text = open(KNOWN).read()
    block = re.search(r"<!-- chromium-known:start -->(.*?)<!-- chromium-known:end -->", text, re.S)
    known = set()
    for line in (block.group(1) if block else "").splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and (cells[0].startswith("U+") or cells[0] == "any"):
            known.add((cells[0], cells[1], cells[2]))
    return known


def code_points(cluster):
    return " ".join(f"U+{ord(c):04X}" for c in cluster)


FACE_FAMILIES = ["Lato", "DejaVu Sans", "Noto Sans", "Liberation Sans", "Noto Serif"]
FACE_WEIGHTS = [100, 200, 300, 350, 400, 450, 500, 550, 600, 700, 800, 900]
FACE_STYLES = ["normal", "italic", "oblique 8deg", "oblique 20deg"]
FACE_WIDTHS = ["normal", "condensed"]

FACE_LAYOUT = """(() => {
  const [family, weight, style, width] = %s;
  document.body.innerHTML = "";
  const div = document.createElement("div");
  div.id = "f"; div.textContent = "Hamburgefonstiv";
  div.style.fontFamily = JSON.stringify(family); div.style.fontWeight = String(weight);
  div.style.fontStyle = style; div.style.fontStretch = width; div.style.fontSize = "16px";
  document.body.appendChild(div);
  return 1;
})()"""


def faces(socket_path):
    """Face matching on installed families: Chromium's postScriptName against fontreg's."""
    profile = tempfile.mkdtemp(prefix="fontreg-chromium-")
    process, tools = start_chromium(profile)
    total = agreed = 0
    try:
        tools.call("DOM.enable")
        tools.call("CSS.enable")
        for family in FACE_FAMILIES:
            for width in FACE_WIDTHS:
                for style in FACE_STYLES:
                    for weight in FACE_WEIGHTS:
                        tools.call(
                            "Runtime.evaluate", expression=FACE_LAYOUT % json.dumps([family, weight, style, width]),
                            returnByValue=True)
                        fonts = []
                        for _ in range(5):
                            # The layout may not be done at the first ask: the answer is empty then.
                            tools.call("Runtime.evaluate", expression="document.body.offsetWidth", returnByValue=True)
                            root = tools.call("DOM.getDocument", depth=-1)["root"]["nodeId"]
                            node = tools.call("DOM.querySelector", nodeId=root, selector="#f")["nodeId"]
                            fonts = tools.call("CSS.getPlatformFontsForNode", nodeId=node)["fonts"]
                            if fonts:
                                break
                            time.sleep(0.05)
                        theirs = max(fonts, key=lambda f: f["glyphCount"]).get("postScriptName") if fonts else None
                        args = [FONTRESOLVE, "resolve", family, "--weight", str(weight), "--style", style,
                                "--width", width, "--json", "--socket", socket_path]
                        out = subprocess.run(args, capture_output=True, text=True)
                        ours = json.loads(out.stdout)["face"]["postscriptName"] if out.returncode == 0 else None
                        total += 1
                        agreed += theirs == ours
                        if theirs != ours:
                            print(f"  ≠ {family} {weight} {style} {width}: chromium {theirs}, fontreg {ours}")
    finally:
        stop_chromium(process, profile)
        shutil.rmtree(profile, ignore_errors=True)
    print(f"faces: {agreed}/{total} queries agree ({100.0 * agreed / max(total, 1):.1f} %)")
    return 0


def main():
    if sys.argv[1:2] == ["--faces"] and len(sys.argv) > 2:
        return faces(sys.argv[2])
    listing = "--list" in sys.argv[1:]
    if not os.path.exists(CHROMIUM):
        print(f"chromium-reference: {CHROMIUM} is not installed; nothing compared")
        return 0
    if not os.path.exists(FONTRESOLVE):
        print(f"chromium-reference: {FONTRESOLVE} is missing; run swift build first", file=sys.stderr)
        return 2
    known = known_differences()
    profile = tempfile.mkdtemp(prefix="fontreg-chromium-")
    process, tools = start_chromium(profile)
    total = agreed = skipped = 0
    unexplained = []
    used_known = set()
    try:
        tools.call("DOM.enable")
        tools.call("CSS.enable")
        for stack, lang, text in CASES:
            runs = fontreg_runs(stack, lang, text)
            same = count = 0
            for index, cluster, chromium in chromium_clusters(tools, stack, lang, text):
                run = fontreg_family_at(runs, index)
                if chromium is None or run is None:
                    skipped += 1
                    continue
                names = file_families(run["file"], run["index"])
                ours = names[0] if names else run["postscriptName"]
                match = chromium.lower() in (n.lower() for n in names)
                count += 1
                same += match
                if listing or not match:
                    mark = "=" if match else "≠"
                    print(f"  {mark} {cluster!r:8} {code_points(cluster):16} chromium {chromium:24} fontreg {ours}")
                explained = {(code_points(cluster), chromium, ours), ("any", chromium, ours)} & known
                used_known |= explained
                if not match and not explained:
                    unexplained.append((text, cluster, chromium, ours))
            total += count
            agreed += same
            print(f"{same}/{count} clusters agree  [{stack}{', ' + lang if lang else ''}]  {text}")
    finally:
        stop_chromium(process, profile)
        shutil.rmtree(profile, ignore_errors=True)
    share = 100.0 * agreed / total if total else 100.0
    print(
        f"agreement: {agreed}/{total} clusters ({share:.1f} %), {len(unexplained)} not listed in docs/fallback.md"
        f" ({skipped} clusters Chromium reported no font for)"
    )
    for text, cluster, chromium, ours in unexplained:
        print(f"unexplained: {code_points(cluster)} {cluster!r} in {text!r}: chromium {chromium}, fontreg {ours}")
    for row in sorted(known - used_known):
        print(f"note: docs/fallback.md lists {row[0]} (chromium {row[1]}, fontreg {row[2]}), which no cluster shows now")
    if share < MINIMUM_AGREEMENT:
        print(f"agreement below {MINIMUM_AGREEMENT} %")
    return 1 if unexplained or share < MINIMUM_AGREEMENT else 0


if __name__ == "__main__":
    sys.exit(main())
