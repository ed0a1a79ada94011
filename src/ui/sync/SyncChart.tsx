// SPDX-License-Identifier: LGPL-2.1-or-later
// The running sync's speed and progress over time, with the effective limits, in plain SVG (no
// charting library: four lines and a few labels do not justify a dependency). Colours come from
// PatternFly's tokens through classes (app.css), so the dark theme applies and Cockpit's CSP, which
// blocks style="" attributes, has nothing to block. The caption says in words what the lines show.

import { _, fmt } from '../../host/i18n';
import { CHART_HEIGHT, chartGeometry, type ChartSummary } from '../../md/chartGeometry';
import { formatPercent, formatRate } from '../../md/format';
import type { TrendSample } from '../../md/trend';
import { durationText } from '../common/syncTexts';
import { useElementWidth } from '../common/useElementWidth';

export function chartSummaryText(summary: ChartSummary): string {
    const parts = [
        fmt(_('Speed between $0 and $1 over the last $2; progress from $3 to $4.'),
            formatRate(summary.slowestKiBs), formatRate(summary.fastestKiBs), durationText(summary.spanSeconds),
            formatPercent(summary.firstPercent), formatPercent(summary.lastPercent)),
        fmt(_('Limits now: minimum $0, maximum $1 per disk.'), formatRate(summary.minKiBs), formatRate(summary.maxKiBs)),
    ];
    if (summary.maxAboveChart) parts.push(_('The maximum is far above the speeds and is not drawn.'));
    return parts.join(' ');
}

const LEGEND: [string, () => string][] = [
    ['raidtune-chart-speed', () => _('Speed')],
    ['raidtune-chart-progress', () => _('Progress')],
    ['raidtune-chart-min', () => _('Minimum limit')],
    ['raidtune-chart-max', () => _('Maximum limit')],
];

function Legend() {
    return (
        <ul className="raidtune-chart-legend" aria-hidden="true">
            {LEGEND.map(([line, label]) => (
                <li key={line}>
                    <svg width="24" height="8" viewBox="0 0 24 8"><line className={line} x1="0" y1="4" x2="24" y2="4" /></svg>
                    {label()}
                </li>
            ))}
        </ul>
    );
}

export function SyncChart({ id, samples }: { id: string; samples: TrendSample[] }) {
    const captionId = `${id}-caption`;
    // Drawn at its own width, its height fixed (app.css): labels keep their size, nothing moves.
    const [figure, width] = useElementWidth<HTMLElement>();
    if (samples.length < 2) {
        return <p className="raidtune-chart-waiting">{_('The speed chart appears after a few refreshes.')}</p>;
    }
    const g = chartGeometry(samples, width ?? undefined);
    const { x0, x1, y0, y1 } = g.box;
    return (
        <figure className="raidtune-chart" id={id} ref={figure}>
            <svg viewBox={`0 0 ${g.width} ${CHART_HEIGHT}`} role="img" aria-labelledby={captionId} preserveAspectRatio="xMinYMid meet">
                <rect className="raidtune-chart-frame" x={x0} y={y0} width={x1 - x0} height={y1 - y0} />
                {g.speedTicks.map(t => (
                    <g key={`s${t.value}`}>
                        <line className="raidtune-chart-grid" x1={x0} x2={x1} y1={t.y} y2={t.y} />
                        <text x={x0 - 4} y={t.y} textAnchor="end" dominantBaseline="middle">{formatRate(t.value)}</text>
                    </g>
                ))}
                {g.percentTicks.map(t => (
                    <text key={`p${t.value}`} x={x1 + 4} y={t.y} dominantBaseline="middle">{`${t.value}%`}</text>
                ))}
                <text x={x0} y={CHART_HEIGHT - 4}>{fmt(_('$0 ago'), durationText(g.summary.spanSeconds))}</text>
                <text x={x1} y={CHART_HEIGHT - 4} textAnchor="end">{_('now')}</text>
                <path className="raidtune-chart-progress" d={g.progressPath} />
                <path className="raidtune-chart-min" d={g.minLimitPath} />
                {g.maxLimitPath && <path className="raidtune-chart-max" d={g.maxLimitPath} />}
                <path className="raidtune-chart-speed" d={g.speedPath} />
            </svg>
            <Legend />
            <figcaption id={captionId} className="raidtune-chart-summary">{chartSummaryText(g.summary)}</figcaption>
        </figure>
    );
}
