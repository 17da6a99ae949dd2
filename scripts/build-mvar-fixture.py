#!/usr/bin/env python3
"""Writes a variable font with an MVAR table and an avar table, for the metrics tests (issue 27).

Usage: build-mvar-fixture.py SRC DST [--no-avar] [--hhea-apart] [--metrics LOCATION...]

SRC is a variable font (Tests/Fixtures/matching/axis/AxisFixture[opsz,slnt,wdth,wght].ttf has four
axes); DST gets an MVAR whose seven metric tags (hasc hdsc hlgp hcla hcld cpht xhgt) vary over six
regions (single-axis, intermediate and two-axis regions, byte, word and two variation data) and,
unless --no-avar, an avar that bends wght and wdth; --hhea-apart gives hhea a line gap of 50, so
that hhea no longer equals the typo values and stays as stored. With --metrics, prints for each LOCATION
(`wght=450,wdth=87.5`; axes not named at their default) the metrics of the static font fontTools'
instancer (instantiateVariableFont) makes there, as one JSON line each.
"""
import json
import sys

from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables import otTables as ot
from fontTools.varLib import builder, instancer

TAGS = ['hasc', 'hdsc', 'hlgp', 'hcla', 'hcld', 'cpht', 'xhgt']
# One row per tag, one column per region of the first variation data.
DELTAS = [
    [100, -37, 23, 11, -7, 5],
    [-41, 13, -9, 0, 3, 0],
    [30, 0, 7, 0, 0, -3],
    [300, -120, 61, 0, 0, 0],
    [61, 17, 0, 9, 0, 0],
    [50, -33, 11, 0, 5, 0],
]
XHGT = [13, -20, 9]  # the second variation data: regions 5, 0, 1


def build(src, dst, avar, hhea_apart):
    font = TTFont(src)
    axes = [a.axisTag for a in font['fvar'].axes]
    regions = builder.buildVarRegionList([
        {'wght': (0, 1, 1)},
        {'wght': (-1, -1, 0)},
        {'wght': (0, 0.5, 1)},
        {'wdth': (-1, -1, 0)},
        {'wght': (0, 1, 1), 'wdth': (-1, -1, 0)},
        {'opsz': (0, 1, 1)},
    ], axes)
    store = builder.buildVarStore(regions, [
        builder.buildVarData([0, 1, 2, 3, 4, 5], DELTAS, optimize=False),
        builder.buildVarData([5, 0, 1], [XHGT], optimize=False),
    ])
    if 'MVAR' not in font:
        font['MVAR'] = newTable('MVAR')
        font['MVAR'].table = ot.MVAR()
        font['MVAR'].table.Version = 0x00010000
        font['MVAR'].table.Reserved = 0
    mvar = font['MVAR'].table
    mvar.VarStore = store
    records = []
    for i, tag in enumerate(TAGS):
        record = ot.MetricsValueRecord()
        record.ValueTag = tag
        record.VarIdx = (1 << 16) if tag == 'xhgt' else i
        records.append(record)
    mvar.ValueRecord = records
    mvar.ValueRecordCount = len(records)
    if avar:
        table = newTable('avar')
        table.segments = {tag: {-1.0: -1.0, 0.0: 0.0, 1.0: 1.0} for tag in axes}
        table.segments['wght'] = {-1.0: -1.0, -0.5: -0.25, 0.0: 0.0, 0.4: 0.6, 1.0: 1.0}
        table.segments['wdth'] = {-1.0: -1.0, -0.5: -0.7, 0.0: 0.0, 1.0: 1.0}
        font['avar'] = table
    if hhea_apart:
        font['hhea'].lineGap = 50
    font.save(dst)


def metrics(path, location):
    font = TTFont(path)
    full = {a.axisTag: a.defaultValue for a in font['fvar'].axes}
    for pair in filter(None, location.split(',')):
        tag, value = pair.split('=')
        full[tag] = float(value)
    font = instancer.instantiateVariableFont(font, full)
    os2, hhea = font['OS/2'], font['hhea']
    return {
        'unitsPerEm': font['head'].unitsPerEm,
        'hhea': {'ascender': hhea.ascent, 'descender': hhea.descent, 'lineGap': hhea.lineGap},
        'typo': {'ascender': os2.sTypoAscender, 'descender': os2.sTypoDescender, 'lineGap': os2.sTypoLineGap},
        'win': {'ascent': os2.usWinAscent, 'descent': os2.usWinDescent},
        'useTypoMetrics': bool(os2.fsSelection & 0x80),
        'capHeight': os2.sCapHeight if os2.version >= 2 else 0,
        'xHeight': os2.sxHeight if os2.version >= 2 else 0,
    }


def main(args):
    src, dst, rest = args[0], args[1], args[2:]
    avar = '--no-avar' not in rest
    build(src, dst, avar, '--hhea-apart' in rest)
    if '--metrics' in rest:
        for location in rest[rest.index('--metrics') + 1:]:
            print(json.dumps(metrics(dst, location)))


if __name__ == '__main__':
    main(sys.argv[1:])
