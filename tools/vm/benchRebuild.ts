// SPDX-License-Identifier: LGPL-2.1-or-later
// `make bench-rebuild`: rebuilds on the real kernel (the test guest, tools/vm/vm.ts) reproducing
// the seeds' cases, with member disks that QEMU throttles like an HDD or an NVMe SSD (scaled down:
// tools/vm/diskModels.ts), under the kernel defaults, each raidtune preset, a few single settings
// and the fix raidtune's own diagnosis proposes; each next to what raidtune predicted for it.
// Measures, never asserts: it fails only when the benchmark itself breaks. See "Rebuild benchmark"
// in doc/benchmarks.md.
//
//   node build/bench-rebuild.mjs                  full run, kernels 6.1 and 7: bench/rebuild.json
//   node build/bench-rebuild.mjs --kernels 7      one kernel (build/vm/<kernel>, tools/vm/build-guest.sh)
//   node build/bench-rebuild.mjs --cases a,b      only these cases (their names below)
//   node build/bench-rebuild.mjs --out FILE       the rows there instead
//   node build/bench-rebuild.mjs --merge          keep the file's rows of other cases and kernels (and
//                                                 drop those of cases no longer defined here)
//   node build/bench-rebuild.mjs --short          one case, small members: test-results/bench/
//
// raidtune's code does the work the page does: the gather script runs in the guest every 2 s and
// its output becomes a HostModel (parseGatherOutput + buildModel, which keeps the diagnosis'
// samples), diagnose() and whatIfPredictor() judge it (tools/vm/benchPredict.ts), presetPlan()
// makes the presets' writes, each written with tee and read back like src/host/executor.ts does.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { ArrayModel, HostModel } from '../../src/md/modelTypes';
import { PRESET_NAMES, presetPlan } from '../../src/md/tuning/presets';
import { GLOBAL_SETTINGS, KERNEL_DEFAULT_SYNC_IO_DEPTH, STRIPE_CACHE_DEFAULT } from '../../src/md/settings/registry';
import type { FixIntent } from '../../src/md/diagnosis/findings';
import type { WindowFacts } from '../../src/md/diagnosis/window';
import { HDD_7200, randomReadMs } from './seekModel';
import { repoRoot } from '../cockpit/proc';
import { buildHelper, fields, loadFigures, startHelperGuest, tagged, type BenchGuest } from './benchGuest';
import { settingLabel, verdict, type Setting } from './benchPredict';
import { DISK_MODELS, modelMBs, scaledDefaults, scaledKiBs, type DiskModel, type ModelName } from './diskModels';
import { readModel, writeAttribute } from './benchHost';
import { rebuildLimitMBs } from './rebuildLimit';
import type { GuestControl } from './vm';

const GLOBAL_MIN_PATH = GLOBAL_SETTINGS.speedMin.path;
const GLOBAL_MAX_PATH = GLOBAL_SETTINGS.speedMax.path;
const SYNC_IO_DEPTH_PATH = GLOBAL_SETTINGS.syncIoDepth.path;

const MB = 1e6;
const short = process.argv.includes('--short');
const kernelsArg = process.argv.indexOf('--kernels');
const casesArg = process.argv.indexOf('--cases');
const CASE_FILTER = casesArg >= 0 ? process.argv[casesArg + 1].split(',') : null;
const KERNELS = kernelsArg >= 0 ? process.argv[kernelsArg + 1].split(',') : short ? [process.env.RAIDTUNE_VM_KERNEL || '6.1'] : ['6.1', '7'];

/** The competing load reads random blocks of this size with O_DIRECT. */
const LOAD_BLOCK_KIB = 64;
/** The page's refresh while a sync runs (src/ui/app/useHostModel.ts BUSY_INTERVAL_MS). */
const SAMPLE_MS = 2000;
/** Progress before this long after --add is not counted (md's start, the first checkpoint). */
const WARMUP_S = 3;
/** The steady window each rate is measured over; also the diagnosis' samples (>= its 10 s). */
const WINDOW_S = short ? 12 : 16;
/** A rebuild expected to end within this long after the window runs to its end; a slower one is projected. */
const FINISH_BUDGET_S = 12;
const REBUILT = 'vdb';

/** The array a case rebuilds, its member that rebuilds, and the array its load reads. */
interface Target {
    md: string;
    member: string;
    loadOn: string;
}
const WHOLE_DISKS: Target = { md: 'md0', member: REBUILT, loadOn: 'md0' };
/**
 * RHEL's own layout (issue #35): /boot, / and the data as md arrays on partitions 1 to 3 of the
 * same disks (RAID 1, RAID 10, then the case's level), the data array rebuilding while the load
 * reads / alone. Sizes as shares of the disk like a 4 TB disk's 1 GiB /boot and 70-100 GiB /:
 * the root array's reads are short seeks, and a seek between / and the rebuild crosses the data.
 */
const RHEL_PARTITIONS_MIB = { boot: 4, root: 8 };
const RHEL_LAYOUT: Target = { md: 'md2', member: `${REBUILT}3`, loadOn: 'md1' };
const mdDir = (md: string) => `/sys/block/${md}/md`;

interface Case {
    name: string;
    seed: string;
    model: ModelName;
    /** Whole disks (one array, md0) unless 'rhel' (RHEL_LAYOUT); level and members: the rebuilt array's. */
    layout?: 'rhel';
    level: 'raid5' | 'raid6' | 'raid10';
    members: number;
    /** The competing load, real MB/s (scaled by the model); 0: none. */
    loadRealMBs: number;
    settings: Setting[];
    /** Kernels with sync_io_depth only (the sync-io-depth settings of other cases are skipped where it is missing). */
    needsDepth?: boolean;
}

const targetOf = (c: Case): Target => (c.layout === 'rhel' ? RHEL_LAYOUT : WHOLE_DISKS);

const presets: Setting[] = PRESET_NAMES.map(name => ({ kind: 'preset', name }));
const cacheSizes = (...sizes: number[]): Setting[] => sizes.map(entries => ({ kind: 'stripe-cache', entries }));
const fixPending: Setting = { kind: 'fix', fix: null, finding: null };

const CASES: Case[] = short ? [
    { name: 'hdd-raid6-load', seed: '000', model: 'hdd', level: 'raid6', members: 5, loadRealMBs: 160, settings: [{ kind: 'defaults' }, fixPending] },
] : [
    // Seed 000 (the rebuild guide's 5-disk RAID6 backup NAS): under other I/O, held near speed_limit_min?
    { name: 'hdd-raid6-load', seed: '000', model: 'hdd', level: 'raid6', members: 5, loadRealMBs: 160, settings: [{ kind: 'defaults' }, ...presets, fixPending] },
    // Seed 003 (an NVMe RAID10 admin's report): near 2, idle, the default maximum the cap.
    { name: 'nvme-raid10', seed: '003', model: 'nvme', level: 'raid10', members: 4, loadRealMBs: 0, settings: [{ kind: 'defaults' }, ...presets, fixPending] },
    // Seeds 000 and 001 (the rebuild guide's RAID 6 backup NAS; an admin's RAID5 stripe cache
    // measurement) on a disk that seeks (issue #38). The load: 40% (a busy server) or 10% (a
    // backup NAS's clients, the guide's own) of what the five members serve in random reads of its
    // size. The stripe cache (seed 001) is asked here only: on the bandwidth model (QEMU's bucket) a
    // member busy 61% of the time still moved 98% of its rate, so idle disk time, what a larger
    // cache puts to work, does not exist there.
    { name: 'seek-raid6-load', seed: '000', model: 'hdd-seek', level: 'raid6', members: 5, loadRealMBs: seekingLoad(0.4, 5),
        settings: [{ kind: 'defaults' }, ...cacheSizes(4096, 8192), ...presets, fixPending] },
    // The minimum alone: the light load's other I/O finding ('slowed') offers one about what the members
    // read per busy second (20 MiB/s there), ranked after the cache.
    { name: 'seek-raid6-light', seed: '000', model: 'hdd-seek', level: 'raid6', members: 5, loadRealMBs: seekingLoad(0.1, 5),
        settings: [{ kind: 'defaults' }, ...cacheSizes(4096, 8192), { kind: 'minimum', kiBs: 20 * 1024 }, ...presets, fixPending] },
    // The same with NCQ on (the guides' queue_depth tip; the model above is NCQ off).
    { name: 'seek-raid6-ncq', seed: '000', model: 'hdd-seek-ncq', level: 'raid6', members: 5, loadRealMBs: seekingLoad(0.1, 5),
        settings: [{ kind: 'defaults' }, { kind: 'preset', name: 'balanced' }, fixPending] },
    { name: 'seek-raid5-cache', seed: '001', model: 'hdd-seek', level: 'raid5', members: 4, loadRealMBs: 0,
        settings: [{ kind: 'defaults' }, ...cacheSizes(4096, 8192, 16384), ...presets, fixPending] },
    // 7.x: md's sync I/O depth under other I/O.
    { name: 'hdd-raid5-depth', seed: '-', model: 'hdd', level: 'raid5', members: 4, loadRealMBs: 160, needsDepth: true,
        settings: [{ kind: 'defaults' }, ...ioDepths(4, 128, 256), fixPending] },
    // Issue #35, seed 000 where RHEL's admins meet it: the data array (RAID 5 of 4) rebuilds while
    // only / (RAID 10 on the same disks) is read, as busy as a server's root can be: 40% of what the
    // disks serve in its random reads. NCQ on, the kernel's default. Does the sibling's load hold
    // the rebuild at the minimum (6.1), and does md's newer throttle (7.x: sync_io_depth) change that?
    // The cache and the minimum alone tell which lever the presets' gains come from.
    { name: 'rhel-layout-root-load', seed: '000', model: 'hdd-seek-ncq', layout: 'rhel', level: 'raid5', members: 4,
        loadRealMBs: seekingLoad(0.4, 4), settings: [{ kind: 'defaults' }, ...cacheSizes(4096), { kind: 'minimum', kiBs: 10 * 1024 },
            ...presets, ...ioDepths(8, 128), fixPending] },
];

function ioDepths(...depths: number[]): Setting[] {
    return depths.map(depth => ({ kind: 'sync-io-depth', depth }));
}

/** `share` of what `members` seeking disks serve in the load's random reads, one at a time each: real MB/s. */
function seekingLoad(share: number, members: number): number {
    const bytes = LOAD_BLOCK_KIB * 1024;
    return round((share * members * bytes) / randomReadMs(HDD_7200, bytes) / 1000);
}

/** Member size per model, MiB: a rebuild at the disks' speed takes ~20 s. */
const MEMBER_MIB: Record<ModelName, number> = short
    ? { 'hdd': 96, 'hdd-seek': 96, 'hdd-seek-ncq': 96, 'nvme': 256 }
    : { 'hdd': 160, 'hdd-seek': 160, 'hdd-seek-ncq': 160, 'nvme': 512 };

/** Each disk's size: the member's, or with RHEL's layout the three partitions' and the GPT's 2 MiB. */
function diskMiB(c: Case): number {
    if (c.layout !== 'rhel') return MEMBER_MIB[c.model];
    return RHEL_PARTITIONS_MIB.boot + RHEL_PARTITIONS_MIB.root + MEMBER_MIB[c.model] + 2;
}

export interface Row {
    kernel: string;
    model: ModelName;
    case: string;
    seed: string;
    setting: string;
    /** Per member, MB/s, over the steady window. */
    rebuildMBs: number;
    limitMBs: number;
    predictedMBs: number | null;
    /** The prediction is an upper bound (benchPredict.ts Prediction): not counted in the median error. */
    predictedUpperBound: boolean;
    /** The page said faster by an amount it cannot measure (predictedMBs null): counted as right or wrong. */
    predictedFaster?: boolean;
    /** (predicted - measured) / measured; null without a prediction. */
    error: number | null;
    /** From --add to in sync; projected from rebuildMBs when `projected`. */
    seconds: number;
    projected: boolean;
    loadMBs: number;
    loadLatencyMs: number | null;
    loadLatencyP95Ms: number | null;
    /** The model's scale: every MB/s here is the real figure times this. */
    scale: number;
    /** raidtune's findings on this row's window, ranked. */
    findings: string[];
    /** The stripe cache over the window: its size and the share of samples it was full in. */
    cache: { size: number; fullShare: number } | null;
    /** The diagnosis' view of each member disk over the window (real MB/s, after de-scaling). */
    members: { disk: string; role: string; MBs: number; busy: number; msPerMiB: number | null }[];
    guestCpuBusy: number;
    hostLoad: number;
}

function round(n: number, digits = 2): number {
    return Math.round(n * 10 ** digits) / 10 ** digits;
}

function cacheOf(facts: WindowFacts | null): Row['cache'] {
    const cache = facts?.cache;
    return cache ? { size: cache.size, fullShare: round(cache.fullSamples / cache.samples) } : null;
}
const kiBsToMBs = (kiBs: number) => (kiBs * 1024) / MB;

/** Global limits in an order that never asks for a minimum above the maximum. */
async function writeLimits(guest: GuestControl, minKiBs: number | null, maxKiBs: number | null): Promise<void> {
    const current = Number((await guest.runOk(`cat ${GLOBAL_MAX_PATH}`)).trim());
    const steps: [string, number][] = [];
    if (minKiBs !== null) steps.push([GLOBAL_MIN_PATH, minKiBs]);
    if (maxKiBs !== null) steps.push([GLOBAL_MAX_PATH, maxKiBs]);
    if (minKiBs !== null && minKiBs > current) steps.reverse();
    for (const [path, value] of steps) await writeAttribute(guest, path, String(value));
}

/** The kernel defaults, speeds scaled: where every row starts. */
async function writeDefaults(guest: GuestControl, model: DiskModel, array: ArrayModel): Promise<void> {
    const d = scaledDefaults(model);
    const md = mdDir(array.name);
    await writeAttribute(guest, GLOBAL_MIN_PATH, String(d.minKiBs));
    await writeAttribute(guest, GLOBAL_MAX_PATH, String(d.maxKiBs));
    await writeAttribute(guest, `${md}/sync_speed_min`, 'system');
    await writeAttribute(guest, `${md}/sync_speed_max`, 'system');
    if (array.stripeCache) await writeAttribute(guest, `${md}/stripe_cache_size`, String(STRIPE_CACHE_DEFAULT));
    if (array.syncIoDepth) {
        await writeAttribute(guest, SYNC_IO_DEPTH_PATH, String(KERNEL_DEFAULT_SYNC_IO_DEPTH));
        await writeAttribute(guest, `${md}/sync_io_depth`, 'system');
    }
}

/** A preset's plan from raidtune, its speed limits scaled. */
async function applyPreset(guest: GuestControl, model: DiskModel, name: (typeof PRESET_NAMES)[number]): Promise<void> {
    const result = presetPlan(await readModel(guest, null), name);
    if (!result.plan) throw new Error(`preset ${name}: ${JSON.stringify(result.errors)}`);
    if (result.warnings.length) console.log(`    preset ${name} warns: ${JSON.stringify(result.warnings)}`);
    for (const step of result.plan.steps) {
        if (step.kind !== 'write-attribute') throw new Error(`preset ${name}: unexpected ${step.kind} step`);
        const speed = step.path === GLOBAL_MIN_PATH || step.path === GLOBAL_MAX_PATH;
        await writeAttribute(guest, step.path, speed ? String(scaledKiBs(model, Number(step.to))) : step.to);
    }
}

/** The diagnosis' fix, its speeds scaled, written where the page's dialogs write it. */
async function applyFix(guest: GuestControl, model: DiskModel, target: Target, fix: FixIntent): Promise<void> {
    const scaled = (kiBs: number | null) => (kiBs === null ? null : scaledKiBs(model, kiBs));
    switch (fix.kind) {
    case 'speed-limits': return writeLimits(guest, scaled(fix.minKiBs), scaled(fix.maxKiBs));
    case 'stripe-cache': return writeAttribute(guest, `${mdDir(target.md)}/stripe_cache_size`, String(fix.entries));
    case 'resume': throw new Error('the diagnosis proposes to resume a sync that runs');
    }
}

async function applySetting(guest: GuestControl, model: DiskModel, target: Target, setting: Setting): Promise<void> {
    switch (setting.kind) {
    case 'defaults': return;
    case 'preset': return applyPreset(guest, model, setting.name);
    case 'stripe-cache': return writeAttribute(guest, `${mdDir(target.md)}/stripe_cache_size`, String(setting.entries));
    case 'minimum': return writeLimits(guest, scaledKiBs(model, setting.kiBs), null);
    case 'sync-io-depth': return writeAttribute(guest, SYNC_IO_DEPTH_PATH, String(setting.depth));
    case 'fix': return setting.fix ? applyFix(guest, model, target, setting.fix) : undefined;
    }
}

const memberDevices = (b: BenchGuest, c: Case, partition = '') => b.guest.disks.slice(0, c.members).map(d => `/dev/${d}${partition}`);

/** The case's arrays, each as `mdadm --create` makes it: [name, level, its members]. */
function arraysOf(b: BenchGuest, c: Case): [string, string, string[]][] {
    if (c.layout !== 'rhel') return [['md0', c.level, memberDevices(b, c)]];
    return [['md0', 'raid1', memberDevices(b, c, '1')], ['md1', 'raid10', memberDevices(b, c, '2')],
        ['md2', c.level, memberDevices(b, c, '3')]];
}

async function createArrays(b: BenchGuest, c: Case): Promise<void> {
    if (c.layout === 'rhel') {
        const { boot, root } = RHEL_PARTITIONS_MIB;
        for (const disk of memberDevices(b, c))
            await b.guest.runOk(`printf 'label: gpt\n,${boot}M\n,${root}M\n,\n' | /usr/sbin/sfdisk --quiet ${disk} && ` +
                `until [ -b ${disk}3 ]; do usleep 100000; done`);
    }
    // --assume-clean: no initial sync; every row rebuilds the target's member from scratch.
    for (const [md, level, members] of arraysOf(b, c))
        await b.guest.runOk(`mdadm --create /dev/${md} --run --assume-clean --level=${level} ` +
            `--raid-devices=${members.length} ${members.join(' ')}`);
}

async function destroyArrays(b: BenchGuest, c: Case): Promise<void> {
    for (const [md, , members] of arraysOf(b, c).reverse())
        await b.guest.runOk(`mdadm --stop /dev/${md} && mdadm --zero-superblock ${members.join(' ')}`);
    if (c.layout === 'rhel') await b.guest.runOk(`/usr/sbin/wipefs --all --quiet ${memberDevices(b, c).join(' ')}`);
}

const CPU_LINE = 'head -1 /proc/stat | cut -d" " -f3-';
/** Busy share between two /proc/stat "cpu" lines. */
function cpuBusy(before: string, after: string): number {
    const a = before.trim().split(/\s+/).map(Number);
    const b = after.trim().split(/\s+/).map(Number);
    const total = b.slice(0, 8).reduce((s, v, i) => s + v - a[i], 0);
    const idle = b[3] - a[3] + b[4] - a[4];
    return total > 0 ? (total - idle) / total : 0;
}

/**
 * Fails, wipes and re-adds vdb (a full recovery), the load running from 2 s before; the load's
 * window starts with the --add. Prints the uptime at the --add.
 */
function startScript(t: Target, loadKBs: number): string {
    const dev = `/dev/${t.member}`;
    const load = loadKBs > 0
        ? `/tmp/ratedread /dev/${t.loadOn} ${Math.round(loadKBs)} ${LOAD_BLOCK_KIB} 3600 > /tmp/load.out 2>&1 &
echo $! > /tmp/load.pid
sleep 2
kill -USR1 $(cat /tmp/load.pid)`
        : 'rm -f /tmp/load.pid';
    return `{ ! grep -q '${t.member}\\[' /proc/mdstat || mdadm /dev/${t.md} --fail ${dev} --remove ${dev} >/dev/null; } || exit 1
mdadm --zero-superblock ${dev} || exit 1
${load}
echo "@@cpu $(${CPU_LINE})"
echo "@@start t=$(cut -d' ' -f1 /proc/uptime)"
mdadm /dev/${t.md} --add ${dev} >/dev/null`;
}

/** Ends the recovery (unless done) and the load; prints the load's figures and the CPU line. */
function stopScript(t: Target, abort: boolean): string {
    const dev = `/dev/${t.member}`;
    return `${abort ? `mdadm /dev/${t.md} --fail ${dev} --remove ${dev} >/dev/null 2>&1` : ':'}
echo "@@cpu $(${CPU_LINE})"
if [ -f /tmp/load.pid ]; then
  pid=$(cat /tmp/load.pid); kill -TERM $pid
  while kill -0 $pid 2>/dev/null; do usleep 50000; done
  cat /tmp/load.out; rm -f /tmp/load.pid
fi`;
}

const syncing = (a: ArrayModel | undefined) => a?.sync?.action === 'recover' && a.sync.runState === 'running' && a.sync.doneKiB !== null;
const inSync = (a: ArrayModel | undefined) => !!a && a.health === 'clean' && !a.sync;
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

interface Measured {
    rateKiBs: number;
    seconds: number;
    projected: boolean;
    /** The last model of the window (its samples feed the diagnosis). */
    host: HostModel;
    array: ArrayModel;
    load: ReturnType<typeof loadFigures> | null;
    cpuBusy: number;
}

/** One recovery under the current settings: the steady window's rate, the time to in sync. */
async function measureRebuild(b: BenchGuest, model: DiskModel, c: Case): Promise<Measured> {
    const { guest } = b;
    const target = targetOf(c);
    const started = await guest.runOk(startScript(target, c.loadRealMBs * model.scale * 1000));
    const t0 = fields(started, '@@start').t;
    const cpu0 = tagged(started, '@@cpu');
    let host: HostModel | null = null;
    let first: { t: number; done: number } | null = null;
    let last: { t: number; done: number } | null = null;
    let array: ArrayModel | undefined;
    for (;;) {
        const began = performance.now();
        const next = await readModel(guest, host);
        const a = next.arrays.find(x => x.name === target.md);
        const t = next.takenAt / 1000;
        if (!syncing(a)) {
            if (inSync(a) || (first && !a?.sync)) break;
            host = null; // not started yet: no samples to keep
        } else {
            host = next;
            array = a;
            const point = { t, done: a!.sync!.doneKiB! };
            if (t - t0 >= WARMUP_S) first ??= point;
            if (first) last = point;
            if (first && t - first.t >= WINDOW_S) break;
        }
        if (t - t0 > 600) throw new Error('the recovery did not start within 10 minutes');
        await sleep(Math.max(0, SAMPLE_MS - (performance.now() - began)));
    }
    if (!host || !array || !first || !last || last.t <= first.t) throw new Error(`no steady window sampled (${c.name})`);
    const rateKiBs = (last.done - first.done) / (last.t - first.t);
    const componentKiB = array.sync!.totalKiB ?? 0;
    const remainingS = rateKiBs > 0 ? (componentKiB - last.done) / rateKiBs : Infinity;
    let seconds: number;
    let projected = false;
    if (remainingS <= FINISH_BUDGET_S) {
        const md = mdDir(target.md);
        const out = await guest.runOk(`until [ "$(cat ${md}/degraded)" = 0 ] && [ "$(cat ${md}/sync_action)" = idle ]; do usleep 200000; done; cut -d' ' -f1 /proc/uptime`,
            { timeoutMs: (FINISH_BUDGET_S * 5 + 60) * 1000 });
        seconds = Number(out.trim()) - t0;
    } else {
        projected = true;
        seconds = componentKiB / rateKiBs;
    }
    const stop = await guest.runOk(stopScript(target, projected), { timeoutMs: 60000 });
    const cpu1 = tagged(stop, '@@cpu');
    return {
        rateKiBs, seconds, projected, host, array, load: c.loadRealMBs > 0 ? loadFigures(stop) : null,
        cpuBusy: cpuBusy(cpu0, cpu1),
    };
}

async function runCase(b: BenchGuest, kernel: string, model: DiskModel, c: Case, hasDepth: boolean): Promise<Row[]> {
    await createArrays(b, c);
    const target = targetOf(c);
    const limitMBs = rebuildLimitMBs({
        members: c.members, readMBs: modelMBs(model), writeMBs: modelMBs(model), loadMBs: c.loadRealMBs * model.scale,
        loadBlockBytes: LOAD_BLOCK_KIB * 1024, requestFloorBytes: model.requestFloorBytes,
    });
    const where = c.layout === 'rhel' ? `${target.md} on partitions 3, load on ${target.loadOn} (partitions 2)` : 'whole disks';
    console.log(`  ${c.name} (seed ${c.seed}): ${c.level} of ${c.members} (${where}), load ${round(c.loadRealMBs * model.scale)} MB/s, limit ${round(limitMBs)} MB/s`);
    const rows: Row[] = [];
    let judge: ReturnType<typeof verdict> | null = null;
    for (let setting of c.settings.filter(s => s.kind !== 'sync-io-depth' || hasDepth)) {
        const before = (await readModel(b.guest, null)).arrays.find(a => a.name === target.md)!;
        await writeDefaults(b.guest, model, before);
        if (setting.kind === 'fix') setting = judge?.fix ?? setting;
        await applySetting(b.guest, model, target, setting);
        const hostLoad = loadavg()[0];
        const m = await measureRebuild(b, model, c);
        const own = verdict(m.host, m.array, model.scale);
        judge ??= own; // the defaults row (first): what raidtune says before any change
        const predicted = judge.predict(setting);
        const rebuildMBs = kiBsToMBs(m.rateKiBs);
        const row: Row = {
            kernel, model: model.name, case: c.name, seed: c.seed, setting: settingLabel(setting),
            rebuildMBs: round(rebuildMBs), limitMBs: round(limitMBs),
            predictedMBs: predicted?.kiBs == null ? null : round(kiBsToMBs(predicted.kiBs)),
            predictedUpperBound: predicted?.upperBound ?? false,
            predictedFaster: predicted?.likelyFaster ?? false,
            error: predicted?.kiBs == null || rebuildMBs <= 0
                ? null : round((kiBsToMBs(predicted.kiBs) - rebuildMBs) / rebuildMBs, 3),
            seconds: round(m.seconds, 1), projected: m.projected,
            loadMBs: round(m.load?.mbs ?? 0), loadLatencyMs: m.load ? round(m.load.meanMs, 1) : null,
            loadLatencyP95Ms: m.load ? round(m.load.p95Ms, 1) : null,
            scale: model.scale, findings: own.diagnosis.findings.map(f => f.kind),
            cache: cacheOf(own.diagnosis.window),
            members: (own.diagnosis.window?.members ?? []).map(w => ({
                disk: w.disk, role: w.role, MBs: round(kiBsToMBs(w.kiBs)), busy: round(w.busyShare),
                msPerMiB: w.msPerMiB === null ? null : round(w.msPerMiB, 1),
            })),
            guestCpuBusy: round(m.cpuBusy), hostLoad: round(hostLoad),
        };
        console.log(`    ${row.setting}: ${row.rebuildMBs} MB/s (predicted ${predictionText(row)}), ${row.seconds} s${row.projected ? ' projected' : ''}` +
            `${m.load ? `, load ${row.loadMBs} MB/s ${row.loadLatencyMs} ms` : ''}; findings ${row.findings.join(', ') || 'none'}; ` +
            `guest CPU ${Math.round(m.cpuBusy * 100)}% busy, host load ${row.hostLoad}`);
        rows.push(row);
    }
    await destroyArrays(b, c);
    return rows;
}

/** What the model does with small vs large requests: one member, read as fast as it goes. */
async function probeModel(b: BenchGuest, model: DiskModel): Promise<void> {
    const results: string[] = [];
    for (const kib of [4, 64, 512]) {
        const out = await b.guest.runOk(`/tmp/ratedread /dev/vda 1000000 ${kib} 4`, { timeoutMs: 30000 });
        results.push(`${kib} KiB: ${round(loadFigures(out).mbs)} MB/s`);
    }
    console.log(`  ${model.name} (x${model.scale} of ${model.realMBs} MB/s): random reads of one member, 64 in flight: ${results.join(', ')}`);
}

/** Flags: a fix that made the rebuild slower, a finding whose remedy did not help. */
function flags(rows: Row[]): string[] {
    const out: string[] = [];
    const byCase = new Map<string, Row[]>();
    for (const r of rows) byCase.set(`${r.kernel} ${r.model} ${r.case}`, [...(byCase.get(`${r.kernel} ${r.model} ${r.case}`) ?? []), r]);
    for (const [key, list] of byCase) {
        const base = list[0];
        const fix = list.find(r => r.setting.startsWith('diagnosis: ') && r.setting !== 'diagnosis: none');
        if (fix && fix.rebuildMBs < base.rebuildMBs * 0.95) out.push(`${key}: the fix (${fix.setting}) made the rebuild slower: ${base.rebuildMBs} -> ${fix.rebuildMBs} MB/s`);
        if (fix && fix.rebuildMBs < base.rebuildMBs * 1.05 && (fix.predictedMBs ?? 0) > base.rebuildMBs * 1.05)
            out.push(`${key}: the fix (${fix.setting}) was predicted ${fix.predictedMBs} MB/s and gave ${fix.rebuildMBs} (from ${base.rebuildMBs}): wrong bottleneck`);
        if (fix?.predictedFaster && fix.rebuildMBs < base.rebuildMBs * 1.05)
            out.push(`${key}: the fix (${fix.setting}) was said to be faster and gave ${fix.rebuildMBs} (from ${base.rebuildMBs}): wrong bottleneck`);
        if (base.findings.includes('starved') && base.rebuildMBs >= 0.8 * base.limitMBs)
            out.push(`${key}: "held at the minimum" at ${base.rebuildMBs} MB/s, ${Math.round((100 * base.rebuildMBs) / base.limitMBs)}% of the disks' limit`);
    }
    return out;
}

function median(values: number[]): number | null {
    if (!values.length) return null;
    const s = [...values].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** As the tables print it: "≤ " before an upper bound, "faster" where the page gives no amount. */
function predictionText(r: Row): string {
    if (r.predictedFaster) return 'faster';
    return r.predictedMBs === null ? '-' : `${r.predictedUpperBound ? '≤ ' : ''}${r.predictedMBs}`;
}

function table(rows: Row[]): string {
    const head = '| kernel | model | case | setting | limit MB/s | rebuild MB/s | predicted MB/s | error | time s | load MB/s | load latency ms | findings |\n' +
        '|---|---|---|---|---|---|---|---|---|---|---|---|\n';
    return head + rows.map(r => `| ${r.kernel} | ${r.model} | ${r.case} | ${r.setting} | ${r.limitMBs} | ${r.rebuildMBs} | ${predictionText(r)} | ` +
        `${r.error === null ? '-' : `${Math.round(r.error * 100)}%`} | ${r.seconds}${r.projected ? ' (p)' : ''} | ${r.loadMBs || '-'} | ` +
        `${r.loadLatencyMs ?? '-'} | ${r.findings.join(', ') || '-'} |`).join('\n') + '\n';
}

/** The file's rows of the cases and kernels not run now, then this run's (cases no longer defined: dropped). */
function mergedRows(file: string, rows: Row[]): Row[] {
    const ran = new Set(rows.map(r => `${r.kernel} ${r.case}`));
    const defined = new Set(CASES.map(c => c.name));
    const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Row[])
        .filter(r => defined.has(r.case) && !ran.has(`${r.kernel} ${r.case}`)) : [];
    return [...kept, ...rows];
}

async function main() {
    const t0 = performance.now();
    const helper = buildHelper();
    const rows: Row[] = [];
    for (const kernel of KERNELS) {
        for (const name of Object.keys(DISK_MODELS) as ModelName[]) {
            const model = DISK_MODELS[name];
            const ofModel = CASES.filter(c => c.model === name && (!CASE_FILTER || CASE_FILTER.includes(c.name)));
            // One guest per disk size: the seeking model's seeks are shares of the disk.
            for (const size of [...new Set(ofModel.map(diskMiB))]) {
                const cases = ofModel.filter(c => diskMiB(c) === size);
                console.log(`kernel ${kernel}, ${name} model: ${round(modelMBs(model))} MB/s per member (x${model.scale}), ${size} MiB disks`);
                const disks = Math.max(...cases.map(c => c.members));
                const b = await startHelperGuest(helper, { kernel, model, diskMiB: size, disks });
                try {
                    const depth = (await b.guest.run(`cat ${SYNC_IO_DEPTH_PATH}`)).code === 0;
                    await probeModel(b, model);
                    for (const c of cases) {
                        if (c.needsDepth && !depth) continue;
                        rows.push(...await runCase(b, kernel, model, c, depth));
                    }
                } finally {
                    await b.stop();
                }
            }
        }
    }
    const predicted = rows.filter(r => r.error !== null && !r.setting.startsWith('kernel defaults'));
    const errors = predicted.filter(r => !r.predictedUpperBound).map(r => Math.abs(r.error!));
    const bounds = predicted.filter(r => r.predictedUpperBound);
    console.log(`\n${table(rows)}`);
    console.log(`median |error| of the predictions (defaults rows and upper bounds excluded): ${median(errors) === null ? '-' : `${Math.round(median(errors)! * 100)}%`} over ${errors.length} rows`);
    // An upper bound holds when the rebuild stayed under it (5%: the measurement's wobble).
    const held = bounds.filter(r => r.rebuildMBs <= r.predictedMBs! * 1.05).length;
    if (bounds.length) console.log(`upper bounds ("faster, if the member disks keep up"): ${held} of ${bounds.length} held; measured / bound: ${bounds.map(r => `${Math.round((100 * r.rebuildMBs) / r.predictedMBs!)}%`).join(', ')}`);
    // "Faster" without an amount is right when the rebuild went 5% over the case's defaults row.
    const faster = rows.filter(r => r.predictedFaster);
    const defaultsOf = (r: Row) => rows.find(d => d.kernel === r.kernel && d.case === r.case && d.setting === 'kernel defaults');
    const right = faster.filter(r => r.rebuildMBs > (defaultsOf(r)?.rebuildMBs ?? Infinity) * 1.05);
    if (faster.length) console.log(`"faster" without an amount: ${right.length} of ${faster.length} measured faster; x ${faster.map(r => round(r.rebuildMBs / (defaultsOf(r)?.rebuildMBs ?? NaN), 1)).join(', ')}`);
    for (const f of flags(rows)) console.log(`FLAG ${f}`);
    const outArg = process.argv.indexOf('--out');
    const file = outArg >= 0 ? process.argv[outArg + 1]
        : short ? join(repoRoot(), 'test-results', 'bench', 'rebuild-short.json') : join(repoRoot(), 'bench', 'rebuild.json');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(process.argv.includes('--merge') ? mergedRows(file, rows) : rows, null, 2) + '\n');
    console.log(`written: ${file} (${round((performance.now() - t0) / 1000, 0)} s)`);
}

main().catch(error => {
    console.error(error);
    process.exit(1);
});

