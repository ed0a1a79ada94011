// SPDX-License-Identifier: LGPL-2.1-or-later
// `make bench-disk`: the seeking disk model (issue #38, tools/vm/seekModel.ts served by
// tools/vm/nbdDisk.ts) measured from inside the guest with tools/vm/diskprobe.c, as a data sheet
// describes a disk: its sequential rate, a scattered 4 KiB read at queue depth 1 and 32, and reads
// at growing distances. Each figure scaled back to the real disk's (the model runs 1/scale times
// slower) next to what the data sheet's figures make of the same probe. The model is trusted for
// the seeds' cases only where the probe reads within 20% of them; the run fails otherwise.
//
//   node build/bench-disk.mjs                     guest kernel 6.1: bench/seeking-disk.json
//   node build/bench-disk.mjs --kernels 7         another guest kernel (the disk does not depend on it)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../cockpit/proc';
import { buildHelper, startHelperGuest } from './benchGuest';
import { DISK_MODELS } from './diskModels';
import { expectedProbe, HDD_7200, type ProbeFigures } from './seekModel';

const kernelsArg = process.argv.indexOf('--kernels');
const KERNEL = kernelsArg >= 0 ? process.argv[kernelsArg + 1] : '6.1';
const MODEL = DISK_MODELS['hdd-seek'];
const SCALE = MODEL.scale;
/** diskprobe.c's fractions of the disk, in its order. */
const FRACTIONS = [0.001, 0.01, 0.0625, 0.25, 0.5, 0.99];
const DISK_MIB = 256;
const TOLERANCE = 0.2;
/** What a probe reads: 32 MiB in a row, 64 scattered reads, 4 pairs per distance. */
const PROBE_ARGS = '32 64 4';

interface Probe extends ProbeFigures {
    randomQd32Iops: number;
}

/** diskprobe's JSON line, in the real disk's time: each millisecond times the scale, each rate over it. */
function realFigures(out: string): Probe {
    const line = out.split('\n').find(l => l.startsWith('{'));
    if (!line) throw new Error(`diskprobe printed no figures:\n${out}`);
    const raw = JSON.parse(line) as {
        sequential_mb_s: number; random_qd1_ms: number; random_qd32_iops: number; distance_ms: Record<string, number>;
    };
    return {
        sequentialMBs: raw.sequential_mb_s / SCALE,
        randomQd1Ms: raw.random_qd1_ms * SCALE,
        randomQd32Iops: raw.random_qd32_iops / SCALE,
        distanceMs: Object.fromEntries(Object.entries(raw.distance_ms).map(([f, ms]) => [f, ms * SCALE])),
    };
}

/** measured / expected for the figures a data sheet gives: rate, average access, full stroke. */
function ratios(measured: Probe, expected: ProbeFigures): Record<string, number> {
    const far = String(FRACTIONS[FRACTIONS.length - 1]);
    return {
        sequential: measured.sequentialMBs / expected.sequentialMBs,
        randomQd1: measured.randomQd1Ms / expected.randomQd1Ms,
        fullStroke: measured.distanceMs[far] / expected.distanceMs[far],
    };
}

async function probe(ncqWindow: number): Promise<Probe> {
    const helper = buildHelper('diskprobe');
    const bench = await startHelperGuest(helper, {
        kernel: KERNEL, diskMiB: DISK_MIB, disks: 1, model: { ...MODEL, seeking: { figures: HDD_7200, ncqWindow } },
    });
    try {
        return realFigures(await bench.guest.runOk(`/tmp/diskprobe /dev/vda ${PROBE_ARGS}`, { timeoutMs: 600000 }));
    } finally {
        await bench.stop();
    }
}

async function main(): Promise<void> {
    const expected = expectedProbe(HDD_7200, DISK_MIB * 1024 * 1024, FRACTIONS);
    const runs = [];
    for (const ncqWindow of [1, 32]) {
        const measured = await probe(ncqWindow);
        const within = ratios(measured, expected);
        runs.push({ ncqWindow, measured, ratios: within });
        console.log(`ncq ${ncqWindow}: ${JSON.stringify(measured)}\n  measured/expected ${JSON.stringify(within)}`);
    }
    const report = {
        kernel: KERNEL, scale: SCALE, diskMiB: DISK_MIB, figures: HDD_7200,
        source: 'tools/vm/seekModel.ts (Hitachi Deskstar 7K1000.C and 7K320 specifications)', expected, runs,
    };
    writeFileSync(join(repoRoot(), 'bench', 'seeking-disk.json'), `${JSON.stringify(report, null, 2)}\n`);
    const off = runs.flatMap(r => Object.entries(r.ratios).filter(([, v]) => Math.abs(v - 1) > TOLERANCE)
        .map(([k, v]) => `ncq ${r.ncqWindow} ${k}: ${v.toFixed(2)}`));
    if (off.length) {
        console.error(`the model reads more than ${TOLERANCE * 100}% off its figures: ${off.join(', ')}`);
        process.exitCode = 1;
    }
}

main().catch(error => {
    console.error(error);
    process.exitCode = 1;
});
