// SPDX-License-Identifier: LGPL-2.1-or-later
// `make bench-eta-replay`: the samples `make bench-eta` recorded (the page's reads every 2 s, in
// bench/eta.json), replayed through the page's own estimator (src/md/eta.ts addSample and
// smoothedEta) with other averaging windows, scored as the benchmark scores the page. It chose the
// page's window without a new hour of rebuilds per try; the benchmark then measures the choice.
// A change of the limits starts the window over, as the page does (src/md/modelSync.ts); a run with
// one is judged from 55% on, after the re-learning the replay does not model.
//
//   node build/eta-replay.mjs [bench/eta.json]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addSample, ETA_WINDOW_MS, smoothedEta, type ProgressSample } from '../../src/md/eta';
import { repoRoot } from '../cockpit/proc';
import { round, summarise, type Checkpoint, type EtaRunResult } from './etaScore';

const WINDOWS_MIN = [5, 10, 15, 30];
/** bench-eta lowers the maximum right after the first refresh at or past this share. */
const CHANGE_AT_PERCENT = 50;
const AFTER_CHANGE_FROM_PERCENT = 55;

/** raidtune's estimate at each checkpoint, had the page averaged over `windowMs`. */
function replay(run: EtaRunResult, windowMs: number): Checkpoint[] {
    let history: ProgressSample[] = [];
    let changed = false;
    let previousPercent = 0;
    const estimateAt = new Map<number, number | null>();
    for (const sample of run.samples) {
        if (run.afterChange && !changed && previousPercent >= CHANGE_AT_PERCENT) {
            changed = true;
            history = [];
        }
        history = addSample(history, { at: sample.atS * 1000, doneKiB: sample.doneKiB }, windowMs);
        estimateAt.set(sample.atS, smoothedEta(history, run.totalKiB)?.seconds ?? null);
        previousPercent = (100 * sample.doneKiB) / run.totalKiB;
    }
    return run.checkpoints.map(c => {
        const sample = run.samples.find(s => Math.abs(s.atS - c.atS) < 0.06);
        const seconds = sample ? estimateAt.get(sample.atS) ?? null : null;
        return { ...c, raidtuneS: seconds === null ? null : round(seconds, 1) };
    });
}

const share = (n: number | null) => (n === null ? '-' : `${Math.round(n * 100)}%`);

function main() {
    const file = process.argv[2] ?? join(repoRoot(), 'bench', 'eta.json');
    const runs = JSON.parse(readFileSync(file, 'utf8')) as EtaRunResult[];
    const head = ['kernel', 'run', 'judged from', 'page (measured)', 'kernel finish=', ...WINDOWS_MIN.map(m => `${m} min`)];
    console.log(`Mean error as a share of the real time left (mean error in minutes); the page's window now: ${ETA_WINDOW_MS / 60000} min\n`);
    console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
    for (const run of runs) {
        const from = run.afterChange ? AFTER_CHANGE_FROM_PERCENT : undefined;
        const cell = (points: Checkpoint[], key: 'raidtuneS' | 'kernelS') => {
            const s = summarise(points, key, from);
            return `${share(s.meanShare)} (${s.meanErrorMin ?? '-'})`;
        };
        const cells = [run.kernel, run.run, `${from ?? 20}%`, cell(run.checkpoints, 'raidtuneS'), cell(run.checkpoints, 'kernelS'),
            ...WINDOWS_MIN.map(m => cell(replay(run, m * 60000), 'raidtuneS'))];
        console.log(`| ${cells.join(' | ')} |`);
    }
}

main();
