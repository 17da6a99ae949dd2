#!/usr/bin/env python3
"""Writes a design system of about 1,000 DTCG tokens across 50 files, for timing the audit.

Usage: scripts/make-token-corpus.py DIR   then   time fontresolve audit DIR --fonts fonts
File 00 holds the primitives (families, nine weights); files 01–49 hold five typography
tokens each, referring to them across files, and fifteen dimension tokens.
"""
import json
import os
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "token-corpus"
os.makedirs(out, exist_ok=True)
primitives = {"font": {
    "family": {"inter": {"$type": "fontFamily", "$value": "Inter"}, "lato": {"$type": "fontFamily", "$value": "Lato"}},
    "weight": {str(w): {"$type": "fontWeight", "$value": w} for w in range(100, 1000, 100)}}}
with open(os.path.join(out, "00-primitives.tokens.json"), "w") as file:
    json.dump(primitives, file, indent=1)
for number in range(1, 50):
    tokens = {}
    for i in range(5):
        weight = [300, 400, 500, 600, 700][(number + i) % 5]
        family = "inter" if (number + i) % 2 else "lato"
        tokens[f"style{number}_{i}"] = {"$type": "typography", "$value": {
            "fontFamily": "{font.family.%s}" % family, "fontWeight": "{font.weight.%d}" % weight,
            "fontSize": "16px", "lineHeight": "24px"}}
        for k in range(3):
            tokens[f"size{number}_{i}_{k}"] = {"$type": "dimension", "$value": f"{12 + k}px"}
    with open(os.path.join(out, f"{number:02d}-styles.tokens.json"), "w") as file:
        json.dump(tokens, file, indent=1)
