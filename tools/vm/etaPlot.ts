// SPDX-License-Identifier: LGPL-2.1-or-later
// The figure of `make bench-eta`: for each run, the time left as it really was and as raidtune and
// the kernel estimated it, over the rebuild's progress. Pure: the runs in, an SVG document out.

export interface EtaPoint {
    /** Progress, percent. */
    percent: number;
    /** Seconds left: the real figure (from the finish), raidtune's estimate, the kernel's finish=. */
    trueS: number;
    raidtuneS: number | null;
    kernelS: number | null;
}

export interface PlotRun {
    title: string;
    points: EtaPoint[];
}

const PANEL_W = 300;
const PANEL_H = 180;
const MARGIN = { left: 44, right: 10, top: 22, bottom: 30 };
const COLUMNS = 2;
const SERIES: { key: 'trueS' | 'raidtuneS' | 'kernelS'; label: string; colour: string; dash: string }[] = [
    { key: 'trueS', label: 'real time left', colour: '#222222', dash: '' },
    { key: 'raidtuneS', label: 'raidtune', colour: '#0066cc', dash: '' },
    { key: 'kernelS', label: 'kernel finish=', colour: '#c9190b', dash: '4 3' },
];

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fixed = (n: number) => Math.round(n * 10) / 10;

/** A step of 1, 2 or 5 times a power of ten giving about four ticks up to `max`. */
function tickStep(max: number): number {
    const raw = max / 4;
    const power = 10 ** Math.floor(Math.log10(raw));
    return [1, 2, 5, 10].map(m => m * power).find(step => step >= raw) ?? raw;
}

function panel(run: PlotRun, x0: number, y0: number): string {
    const w = PANEL_W - MARGIN.left - MARGIN.right;
    const h = PANEL_H - MARGIN.top - MARGIN.bottom;
    const values = run.points.flatMap(p => [p.trueS, p.raidtuneS, p.kernelS]).filter((v): v is number => v !== null);
    // An estimate far off the chart would flatten the truth: the axis stops at twice the real maximum.
    const trueMax = Math.max(1, ...run.points.map(p => p.trueS));
    const yMax = Math.min(Math.max(...values, 1), 2 * trueMax);
    const step = tickStep(yMax);
    const top = Math.ceil(yMax / step) * step;
    const px = (percent: number) => x0 + MARGIN.left + (percent / 100) * w;
    const py = (seconds: number) => y0 + MARGIN.top + h - (Math.min(seconds, top) / top) * h;
    const out: string[] = [`<text x="${x0 + MARGIN.left}" y="${y0 + 14}" font-size="12" font-weight="bold">${esc(run.title)}</text>`];
    for (let v = 0; v <= top + 1e-9; v += step) {
        out.push(`<line x1="${px(0)}" x2="${px(100)}" y1="${fixed(py(v))}" y2="${fixed(py(v))}" stroke="#dddddd"/>`,
            `<text x="${px(0) - 4}" y="${fixed(py(v)) + 4}" font-size="10" text-anchor="end">${fixed(v)}</text>`);
    }
    for (let p = 0; p <= 100; p += 20) {
        out.push(`<text x="${fixed(px(p))}" y="${y0 + MARGIN.top + h + 14}" font-size="10" text-anchor="middle">${p}%</text>`);
    }
    out.push(`<text x="${x0 + 10}" y="${y0 + MARGIN.top + h / 2}" font-size="10" transform="rotate(-90 ${x0 + 10} ${y0 + MARGIN.top + h / 2})" ` +
        'text-anchor="middle">s left</text>');
    for (const s of SERIES) {
        const segments: string[][] = [[]];
        for (const p of run.points) {
            const v = p[s.key];
            if (v === null) segments.push([]);
            else segments[segments.length - 1].push(`${fixed(px(p.percent))},${fixed(py(v))}`);
        }
        for (const seg of segments.filter(list => list.length)) {
            out.push(`<polyline fill="none" stroke="${s.colour}" stroke-width="1.5"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''} points="${seg.join(' ')}"/>`);
        }
    }
    return out.join('\n');
}

/** The runs as a grid of panels with one legend. */
export function etaSvg(runs: PlotRun[], caption: string): string {
    const rows = Math.ceil(runs.length / COLUMNS);
    const width = PANEL_W * Math.min(COLUMNS, Math.max(1, runs.length));
    const legendY = rows * PANEL_H + 14;
    const height = legendY + 24;
    const legend = SERIES.map((s, i) => {
        const x = 10 + i * 140;
        return `<line x1="${x}" x2="${x + 24}" y1="${legendY}" y2="${legendY}" stroke="${s.colour}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>` +
            `<text x="${x + 30}" y="${legendY + 4}" font-size="11">${esc(s.label)}</text>`;
    });
    return [
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
        `<title>${esc(caption)}</title>`,
        `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
        ...runs.map((run, i) => panel(run, (i % COLUMNS) * PANEL_W, Math.floor(i / COLUMNS) * PANEL_H)),
        ...legend,
        '</svg>',
        '',
    ].join('\n');
}
