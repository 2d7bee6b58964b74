# SPDX-License-Identifier: GPL-2.0-only
"""The bench's plot: a hand-written SVG (no plotting library).

Two panels side by side: config accesses per topology size (log scale),
and the app's reads per function against the computed minimum's."""
import math

COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#17becf', '#7f7f7f']


def esc(s):
    return s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def panel(x0, y0, w, h, title, xlabel, ylabel, series, xs, log):
    """series: [(name, [y or None per x])]."""
    o = []
    vals = [v for _, ys in series for v in ys if v is not None and (v > 0 or not log)]
    if not vals:
        return ''
    lo, hi = min(vals), max(vals)
    if log:
        lo, hi = 10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi))
        fy = lambda v: y0 + h - (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * h
        ticks = [10 ** e for e in range(int(math.log10(lo)), int(math.log10(hi)) + 1)]
    else:
        lo = 0
        step = 10 ** math.floor(math.log10(hi)) if hi > 0 else 1
        if hi / step < 4:
            step /= 2
        hi = math.ceil(hi / step) * step
        fy = lambda v: y0 + h - (v - lo) / (hi - lo) * h
        ticks = [lo + i * step for i in range(int(round((hi - lo) / step)) + 1)]
    xmin, xmax = min(xs), max(xs)
    fx = lambda v: x0 + (v - xmin) / (xmax - xmin) * w if xmax > xmin else x0 + w / 2
    o.append('<text x="%.0f" y="%.0f" font-size="14" font-weight="bold">%s</text>' % (x0, y0 - 12, esc(title)))
    o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>' % (x0, y0, w, h))
    for t in ticks:
        y = fy(t)
        o.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (x0, x0 + w, y, y))
        o.append('<text x="%d" y="%.1f" font-size="11" text-anchor="end">%s</text>' % (
            x0 - 4, y + 4, ('%g' % t)))
    for x in xs:
        o.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#eee"/>' % (fx(x), fx(x), y0, y0 + h))
        o.append('<text x="%.1f" y="%d" font-size="11" text-anchor="middle">%d</text>' % (fx(x), y0 + h + 15, x))
    o.append('<text x="%.0f" y="%d" font-size="12" text-anchor="middle">%s</text>' % (x0 + w / 2, y0 + h + 32, esc(xlabel)))
    o.append('<text x="%d" y="%.0f" font-size="12" text-anchor="middle" transform="rotate(-90 %d %.0f)">%s</text>' % (
        x0 - 48, y0 + h / 2, x0 - 48, y0 + h / 2, esc(ylabel)))
    for i, (name, ys) in enumerate(series):
        col = COLORS[i % len(COLORS)]
        pts = [(fx(x), fy(y)) for x, y in zip(xs, ys) if y is not None and (y > 0 or not log)]
        if len(pts) > 1:
            o.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (
                col, ' '.join('%.1f,%.1f' % p for p in pts)))
        for px, py in pts:
            o.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (px, py, col))
        ly = y0 + h + 56 + i * 16          # legend below the axis label
        o.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"/>' % (
            x0 + 8, x0 + 26, ly - 4, ly - 4, col))
        o.append('<text x="%d" y="%d" font-size="11">%s</text>' % (x0 + 30, ly, esc(name)))
    return '\n'.join(o)


def svg(rows):
    xs = [r['functions'] for r in rows]
    g = lambda k: [r.get(k) for r in rows]
    s1 = [('computed minimum', g('min_reads')),
          ('aspmctl report: reads', g('report_reads')),
          ('aspmctl apply --policy force: reads + writes',
           [None if r.get('apply_reads') is None else r['apply_reads'] + (r.get('apply_writes') or 0)
            for r in rows]),
          ('aspmctl report --scan full: reads', g('full_reads')),
          ('UEFI Shell pci (listing)', g('shell_pci_accesses')),
          ('UEFI Shell pci + pci B D F (same facts)', g('shell_facts_accesses')),
          ('Linux 6.1 boot to /init', g('linux_accesses'))]
    s2 = [('computed minimum', [None if r.get('min_reads') is None else r['min_reads'] / r['functions'] for r in rows]),
          ('aspmctl report', [None if r.get('report_reads') is None else r['report_reads'] / r['functions'] for r in rows])]
    W, H = 1180, 600
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">' % (W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         panel(80, 40, 560, 370, 'Config accesses (QEMU q35, one segment)', 'functions present',
               'config accesses (log)', s1, xs, True),
         panel(760, 40, 380, 370, 'Reads per function', 'functions present', 'reads / function',
               s2, xs, False),
         '</svg>']
    return '\n'.join(o) + '\n'
