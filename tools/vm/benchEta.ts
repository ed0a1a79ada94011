// SPDX-License-Identifier: LGPL-2.1-or-later
// `make bench-eta`: whole rebuilds on the real kernel (the rebuild benchmark's guest and HDD disk
// model) under a competing load that comes and goes, and one run whose maximum is lowered half-way.
// At every 5% of progress it records raidtune's estimate of the time left (the page's own code:
// the gather script every 2 s, parseGatherOutput + buildModel, src/md/eta.ts) and the kernel's
// finish=, and after the end the real time left. Measures, never asserts. See "ETA benchmark" in
// doc/benchmarks.md.
//
//   node build/bench-eta.mjs                 full run, kernels 6.1 and 7 side by side: bench/eta.json, bench/eta.svg
//   node build/bench-eta.mjs --kernels 7     one kernel
//   node build/bench-eta.mjs --runs a,b      only these runs (their names below)
//   node build/bench-eta.mjs --short         one short run: test-results/bench/
//   node build/bench-eta.mjs --name eta-x    writes eta-x.json and eta-x.svg instead
//
// Time is not scaled. The disk model scales bandwidth and the member size by the same factor, so a
// rebuild here lasts as long as the real one of a member 1/scale as large (a 3840 MiB member stands
// for 75 GiB: rebuilds of 10-20 minutes, several times raidtune's five-minute window), and the
// load's phases are real seconds, a minute or two each. The kernel's finish= looks at md's last
// ~30 s of wall time, which cannot be scaled; raidtune's window is therefore left as the page has it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { shownEstimate } from '../../src/md/eta';
import type { ArrayModel, HostModel } from '../../src/md/modelTypes';
import { GLOBAL_SETTINGS } from '../../src/md/settings/registry';
import { repoRoot } from '../cockpit/proc';
import { buildHelper, fields, startHelperGuest, type BenchGuest } from './benchGuest';
import { readModel, writeAttribute } from './benchHost';
import { DISK_MODELS, modelMBs, scaledDefaults, scaledKiBs } from './diskModels';
import { etaSvg } from './etaPlot';
import { JUDGED_FROM_PERCENT, round, summarise, type Checkpoint, type EtaRunResult } from './etaScore';

const short = process.argv.includes('--short');
const argValue = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : null;
};
const KERNELS = argValue('--kernels')?.split(',') ?? (short ? [process.env.RAIDTUNE_VM_KERNEL || '6.1'] : ['6.1', '7']);
const RUN_FILTER = argValue('--runs')?.split(',') ?? null;
const OUT_NAME = argValue('--name') ?? 'eta';
if (!/^[\w.-]+$/.test(OUT_NAME)) throw new Error(`--name ${OUT_NAME}: letters, digits, . _ - only`);

const MODEL = DISK_MODELS.hdd;
/** The page's refresh while a sync runs (src/ui/app/useHostModel.ts BUSY_INTERVAL_MS). */
const SAMPLE_MS = 2000;
const MEMBER_MIB = short ? 96 : 3840;
/**
 * The load's phases below are written for a 384 MiB member and last longer as the member is larger,
 * so that every rebuild, short or full, sees the same number of them.
 */
const PHASE_STRETCH = MEMBER_MIB / 384;
const MEMBERS = 5;
const REBUILT = 'vdb';
const LOAD_BLOCK_KIB = 64;
const STEP_PERCENT = 5;

/** One phase of the competing load: this many real MB/s (scaled by the model) for this long. */
interface LoadPhase { seconds: number; realMBs: number }

interface EtaRun {
    name: string;
    /** Repeated until the rebuild ends. */
    load: LoadPhase[];
    /** Real KiB/s the global maximum is lowered to at half of the rebuild. */
    maxAtHalfRealKiBs?: number;
}

// Bursts shorter than the rebuild, as on a real host whose rebuild takes hours: the kernel's ~30 s
// window sees one phase or two at a time, a longer one sees them all.
const RUNS: EtaRun[] = [
    { name: 'bursts', load: [{ seconds: 8, realMBs: 0 }, { seconds: 8, realMBs: 240 }] },
    { name: 'irregular',
        load: [{ seconds: 12, realMBs: 80 }, { seconds: 4, realMBs: 320 }, { seconds: 15, realMBs: 0 },
            { seconds: 8, realMBs: 240 }] },
    { name: 'max-halved',
        load: [{ seconds: 3600, realMBs: 80 }], maxAtHalfRealKiBs: 50000 },
];
const RUNS_BY_KERNEL: Record<string, string[]> = short ? { '6.1': ['bursts'], '7': ['bursts'] }
    : { '6.1': RUNS.map(r => r.name), '7': RUNS.map(r => r.name) };


const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
const MAX_PATH = GLOBAL_SETTINGS.speedMax.path;
const MIN_PATH = GLOBAL_SETTINGS.speedMin.path;

const stretched = (p: LoadPhase) => Math.max(1, Math.round(p.seconds * PHASE_STRETCH));

/** The run's load in words, with the phases as long as this run makes them. */
function describeRun(run: EtaRun): string {
    const phase = (p: LoadPhase) => (p.realMBs > 0 ? `${stretched(p)} s of ${p.realMBs} MB/s` : `${stretched(p)} s quiet`);
    const load = run.load.length === 1 ? `a steady ${run.load[0].realMBs} MB/s of reads` : `reads: ${run.load.map(phase).join(', ')}`;
    return run.maxAtHalfRealKiBs ? `${load}; maximum lowered to ${run.maxAtHalfRealKiBs} KiB/s at 50%` : load;
}

/** The load as a guest shell loop: each phase a ratedread of its length, or a sleep. */
function loadLoop(phases: LoadPhase[]): string {
    const steps = phases.map(p => (p.realMBs > 0
        ? `/tmp/ratedread /dev/md0 ${Math.round(p.realMBs * MODEL.scale * 1000)} ${LOAD_BLOCK_KIB} ${stretched(p)} >/dev/null 2>&1 & echo $! > /tmp/rr.pid; wait $!`
        : `sleep ${stretched(p)}`));
    return `( while :; do ${steps.join('; ')}; done ) >/dev/null 2>&1 & echo $! > /tmp/loop.pid`;
}

const STOP_LOAD = 'kill $(cat /tmp/loop.pid) 2>/dev/null; [ -f /tmp/rr.pid ] && kill $(cat /tmp/rr.pid) 2>/dev/null; rm -f /tmp/loop.pid /tmp/rr.pid; true';

const array = (host: HostModel) => host.arrays.find(a => a.name === 'md0');
const recovering = (a: ArrayModel | undefined) => a?.sync?.action === 'recover' && a.sync.runState === 'running' && a.sync.doneKiB !== null;

async function runOne(b: BenchGuest, kernel: string, run: EtaRun): Promise<EtaRunResult> {
    const { guest } = b;
    const d = scaledDefaults(MODEL);
    await writeAttribute(guest, MIN_PATH, String(d.minKiBs));
    await writeAttribute(guest, MAX_PATH, String(d.maxKiBs));
    const dev = `/dev/${REBUILT}`;
    await guest.runOk(`{ ! grep -q '${REBUILT}\\[' /proc/mdstat || mdadm /dev/md0 --fail ${dev} --remove ${dev} >/dev/null; } && mdadm --zero-superblock ${dev}`);
    await guest.runOk(loadLoop(run.load));
    await sleep(2000);
    // Times are the guest's uptime, as the model's samples are dated (src/md/model.ts takenAt).
    const uptime = '$(cut -d" " -f1 /proc/uptime)';
    const t0 = 1000 * fields(await guest.runOk(`echo "@@t s=${uptime}"; mdadm /dev/md0 --add ${dev} >/dev/null 2>&1`), '@@t').s;
    const samples: (EtaRunResult['samples'][number] & { percent: number })[] = [];
    const loads: number[] = [];
    let host: HostModel | null = null;
    let halved = false;
    let finishS: number | null = null;
    let totalKiB = 0;
    while (finishS === null) {
        const began = performance.now();
        const next = await readModel(guest, host);
        const a = array(next);
        const atS = (next.takenAt - t0) / 1000;
        if (recovering(a)) {
            host = next;
            const sync = a!.sync!;
            totalKiB = sync.totalKiB!;
            const percent = (100 * sync.doneKiB!) / totalKiB;
            loads.push(loadavg()[0]);
            samples.push({
                atS, percent, doneKiB: sync.doneKiB!,
                raidtuneS: shownEstimate(sync)?.seconds ?? null,
                kernelS: sync.kernelFinishMinutes === null ? null : sync.kernelFinishMinutes * 60,
            });
            if (run.maxAtHalfRealKiBs && !halved && percent >= 50) {
                halved = true;
                await writeAttribute(guest, MAX_PATH, String(scaledKiBs(MODEL, run.maxAtHalfRealKiBs)));
            }
            if (percent >= 100 - STEP_PERCENT) {
                // The last checkpoint is taken: wait for the end in the guest, closer than a refresh.
                const end = await guest.runOk(`until [ "$(cat /sys/block/md0/md/degraded)" = 0 ] && [ "$(cat /sys/block/md0/md/sync_action)" = idle ]; ` +
                    `do usleep 100000; done; echo "@@t s=${uptime}"`, { timeoutMs: 600000 });
                finishS = fields(end, '@@t').s - t0 / 1000;
            }
        } else if (host) {
            finishS = atS; // ended between two refreshes before 95%
        }
        if (atS > 2700) throw new Error(`${run.name}: the rebuild did not end within 45 minutes`);
        if (finishS === null) await sleep(Math.max(0, SAMPLE_MS - (performance.now() - began)));
    }
    await guest.runOk(STOP_LOAD);
    const checkpoints: Checkpoint[] = [];
    for (let p = STEP_PERCENT; p < 100; p += STEP_PERCENT) {
        const s = samples.find(x => x.percent >= p);
        if (!s || checkpoints.some(c => c.atS === s.atS)) continue;
        checkpoints.push({
            percent: p, atS: round(s.atS, 1), trueS: round(finishS - s.atS, 1),
            raidtuneS: s.raidtuneS === null ? null : round(s.raidtuneS, 1),
            kernelS: s.kernelS === null ? null : round(s.kernelS, 1),
        });
    }
    return {
        kernel, run: run.name, what: describeRun(run), memberMiB: MEMBER_MIB, totalKiB, scale: MODEL.scale,
        totalS: round(finishS, 1),
        hostLoad: {
            mean: round(loads.reduce((sum, l) => sum + l, 0) / loads.length, 1),
            max: round(Math.max(...loads), 1),
        },
        checkpoints,
        raidtune: summarise(checkpoints, 'raidtuneS'), kernelFinish: summarise(checkpoints, 'kernelS'),
        raidtuneMissing: checkpoints.filter(c => c.percent >= JUDGED_FROM_PERCENT && c.raidtuneS === null).length,
        afterChange: run.maxAtHalfRealKiBs
            ? { raidtune: summarise(checkpoints, 'raidtuneS', 55), kernelFinish: summarise(checkpoints, 'kernelS', 55) } : null,
        samples: samples.map(x => ({
            atS: round(x.atS, 2), doneKiB: x.doneKiB, kernelS: x.kernelS,
            raidtuneS: x.raidtuneS === null ? null : round(x.raidtuneS, 1),
        })),
    };
}

const pct = (share: number | null) => (share === null ? '-' : `${Math.round(share * 100)}%`);
const num = (n: number | null) => (n === null ? '-' : String(n));

function table(results: EtaRunResult[]): string {
    const head = '| kernel | run | load | rebuild s | raidtune mean / worst min | raidtune mean / worst share | kernel mean / worst min | kernel mean / worst share |\n' +
        '|---|---|---|---|---|---|---|---|\n';
    return head + results.map(r => `| ${r.kernel} | ${r.run} | ${r.what} | ${r.totalS} | ${num(r.raidtune.meanErrorMin)} / ${num(r.raidtune.worstErrorMin)} | ` +
        `${pct(r.raidtune.meanShare)} / ${pct(r.raidtune.worstShare)} | ${num(r.kernelFinish.meanErrorMin)} / ${num(r.kernelFinish.worstErrorMin)} | ` +
        `${pct(r.kernelFinish.meanShare)} / ${pct(r.kernelFinish.worstShare)} |`).join('\n') + '\n';
}

/** One kernel's runs in a guest of its own; its lines are prefixed with the kernel, as kernels run side by side. */
async function runKernel(helper: string, kernel: string): Promise<EtaRunResult[]> {
    const runs = RUNS.filter(r => (RUN_FILTER ?? RUNS_BY_KERNEL[kernel] ?? []).includes(r.name));
    if (!runs.length) return [];
    const log = (line: string) => console.log(`[${kernel}] ${line}`);
    log(`RAID6 of ${MEMBERS}, ${MEMBER_MIB} MiB members, ${round(modelMBs(MODEL))} MB/s per member (x${MODEL.scale})`);
    const b = await startHelperGuest(helper, { kernel, model: MODEL, diskMiB: MEMBER_MIB, disks: MEMBERS });
    const results: EtaRunResult[] = [];
    try {
        const members = b.guest.disks.slice(0, MEMBERS).map(x => `/dev/${x}`).join(' ');
        await b.guest.runOk(`mdadm --create /dev/md0 --run --assume-clean --level=raid6 --raid-devices=${MEMBERS} ${members}`);
        for (const run of runs) {
            const r = await runOne(b, kernel, run);
            log(`${run.name}: ${r.totalS} s; raidtune mean ${num(r.raidtune.meanErrorMin)} min (${pct(r.raidtune.meanShare)}), ` +
                `kernel mean ${num(r.kernelFinish.meanErrorMin)} min (${pct(r.kernelFinish.meanShare)})`);
            for (const c of r.checkpoints) log(`  ${c.percent}% at ${c.atS} s: true ${c.trueS}, raidtune ${num(c.raidtuneS)}, kernel ${num(c.kernelS)}`);
            results.push(r);
        }
        await b.guest.runOk(`mdadm --stop /dev/md0 && mdadm --zero-superblock ${members}`);
    } finally {
        await b.stop();
    }
    return results;
}

async function main() {
    const t0 = performance.now();
    const helper = buildHelper();
    // Side by side: each guest's disks are throttled by QEMU; the emulated guests share the host's
    // CPU, which each run's hostLoad records.
    const results = (await Promise.all(KERNELS.map(kernel => runKernel(helper, kernel)))).flat();
    console.log(`\n${table(results)}`);
    const dir = short ? join(repoRoot(), 'test-results', 'bench') : join(repoRoot(), 'bench');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${OUT_NAME}.json`), JSON.stringify(results, null, 2) + '\n');
    writeFileSync(join(dir, `${OUT_NAME}.svg`), etaSvg(results.map(r => ({ title: `${r.kernel}: ${r.run}`, points: r.checkpoints })),
        'Time left over a rebuild: real, raidtune and the kernel'));
    console.log(`written: ${join(dir, `${OUT_NAME}.json`)}, ${OUT_NAME}.svg (${round((performance.now() - t0) / 1000, 0)} s)`);
}

main().catch(error => {
    console.error(error);
    process.exit(1);
});
