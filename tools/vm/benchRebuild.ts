// SPDX-License-Identifier: LGPL-2.1-or-later
// `make bench-rebuild`: full recoveries of a RAID5 and a RAID6 on the real kernel (the test
// guest, tools/vm/vm.ts), every member disk throttled by QEMU, with a steady competing read load
// on the array, under the kernel defaults and each raidtune preset. Measures, never asserts: it
// fails only when the benchmark itself breaks. See "Rebuild benchmark" in the README.
//
//   node build/bench-rebuild.mjs            full run: bench/rebuild.json
//   node build/bench-rebuild.mjs --short    small members, no CPU calibration: test-results/bench/
//
// The presets are applied with raidtune's own code: the gather script runs in the guest, its
// output becomes a HostModel (parseGatherOutput + buildModel), presetPlan() makes the Plan, and
// its write-attribute steps are written with tee and read back like src/host/executor.ts does.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { GATHER_SCRIPT } from '../../src/host/gatherScript';
import { buildModel } from '../../src/md/model';
import { readBackMatches } from '../../src/md/readBack';
import { parseGatherOutput } from '../../src/md/snapshot';
import { PRESET_NAMES, presetPlan, type PresetName } from '../../src/md/tuning/presets';
import { repoRoot } from '../cockpit/proc';
import { degradedLoadShare, rebuildLimitMBs } from './rebuildLimit';
import { shellQuote, startGuest, type Guest, type GuestControl } from './vm';

const MB = 1e6;

interface Settings {
    short: boolean;
    /** Size of each member disk, MiB. */
    diskMiB: number;
    /** Each member's read and write bandwidth (QEMU throttling), MB/s: well below the CPU's rate. */
    diskMBs: number;
    /** The competing load's rate on the array, MB/s. */
    loadMBs: number;
}

/** --short; --disk-mib N, --disk-mbs N, --load-mbs N (to explore; the README's figures use the defaults). */
function parseSettings(argv: string[]): Settings {
    const short = argv.includes('--short');
    const value = (name: string, fallback: number) => {
        const i = argv.indexOf(name);
        const n = i < 0 ? fallback : Number(argv[i + 1]);
        if (!(n > 0)) throw new Error(`${name}: a positive number, not ${argv[i + 1]}`);
        return n;
    };
    return { short, diskMiB: value('--disk-mib', short ? 64 : 256), diskMBs: value('--disk-mbs', 8), loadMBs: value('--load-mbs', 4) };
}

const settings = parseSettings(process.argv.slice(2));
/** The competing load reads random blocks of this size with O_DIRECT. */
const LOAD_BLOCK_KIB = 64;
/** The load runs alone this long before the rebuild starts (its window starts with the rebuild). */
const LOAD_WARMUP_S = 2;
/** The CPU's rate should be this many times the disks' (a busy host slows the emulated CPU). */
const CPU_MARGIN = 2;
/** Recoveries sampled over a shorter time (unthrottled ones) are rated over their whole time. */
const MIN_SAMPLED_S = 2;
/** Load alone on the degraded array, to compare each member's share with the derivation. */
const SHARE_PROBE_S = 5;
const LEVELS = [{ level: 'raid5', members: 4 }, { level: 'raid6', members: 5 }] as const;
const GUEST_HELPER = '/tmp/ratedread';
/** The member every case fails and rebuilds. */
const REBUILT = 'vdb';
const STATE_DIR = '/run/raidtune-state';

type Level = (typeof LEVELS)[number];

interface Row {
    level: string;
    preset: PresetName;
    limitMBs: number;
    rebuildMBs: number;
    seconds: number;
    loadMBs: number;
    loadLatencyMs: number;
}

interface LoadFigures { mbs: number; meanMs: number; p95Ms: number; maxMs: number }

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** `key=value` fields of the line starting with `tag` in a guest's output. */
function fields(out: string, tag: string): Record<string, number> {
    const line = out.split('\n').find(l => l.startsWith(`${tag} `));
    if (!line) throw new Error(`no "${tag}" line in the guest's output:\n${out}`);
    return Object.fromEntries(line.slice(tag.length + 1).trim().split(/\s+/).map(kv => {
        const [key, value] = kv.split('=');
        return [key, Number(value)];
    }));
}

function loadFigures(out: string): LoadFigures {
    const f = fields(out, 'ratedread');
    return { mbs: f.bytes / MB / f.seconds, meanMs: f.latency_mean_ms, p95Ms: f.latency_p95_ms, maxMs: f.latency_max_ms };
}

/** The load generator, static so the guest's busybox userland can run it. */
function buildHelper(): string {
    const out = join(repoRoot(), 'build', 'bench', 'ratedread');
    mkdirSync(join(repoRoot(), 'build', 'bench'), { recursive: true });
    execFileSync('gcc', ['-static', '-O2', '-Wall', '-o', out, join(repoRoot(), 'tools', 'vm', 'ratedread.c')], { stdio: 'inherit' });
    return out;
}

interface BenchGuest {
    guest: Guest;
    stop(): Promise<void>;
}

async function bootGuest(helper: string, throttled: boolean): Promise<BenchGuest> {
    const guest = await startGuest({
        disks: Math.max(...LEVELS.map(l => l.members)),
        diskMiB: settings.diskMiB,
        // The RAID6 stripe cache of "Fast rebuild" (8192 entries x 4 KiB x 5 members) must fit the
        // preset's memory budget (10% of MemAvailable), or the preset would shrink it.
        memMiB: 2048,
        pluginDir: null,
        diskThrottle: throttled ? { readBytesPerS: settings.diskMBs * MB, writeBytesPerS: settings.diskMBs * MB } : undefined,
    });
    // guest-init polls for a host on the bridge and shell ports (a grep every 30 ms under TCG): half
    // of an idle guest's CPU. Connected, they wait quietly (the bridge for its init message).
    const holds = [guest.bridgeSocket, guest.shellSocket].map(path => net.connect(path).on('error', () => {}));
    const stop = async () => {
        holds.forEach(socket => socket.destroy());
        await guest.stop();
    };
    try {
        copyFileSync(helper, join(guest.runDir, 'share', 'ratedread'));
        await guest.runOk(`cp /host/ratedread ${GUEST_HELPER} && chmod 755 ${GUEST_HELPER}`);
    } catch (error) {
        await stop();
        throw error;
    }
    return { guest, stop };
}

/** raidtune's view of the guest: its gather script run by the guest's sh, parsed and modelled. */
async function readModel(guest: GuestControl) {
    const argv = ['/usr/bin/sh', '-c', GATHER_SCRIPT, 'raidtune-gather', '/proc', '/sys', 'pagesize', STATE_DIR,
        '/etc/sysctl.d', '/etc/udev/rules.d'];
    const out = await guest.runOk(`LC_ALL=C ${argv.map(shellQuote).join(' ')}`);
    return buildModel(parseGatherOutput(out), performance.now());
}

/** Writes the preset's plan into the guest as the product does (tee, then read back); returns the step count. */
async function applyPreset(guest: GuestControl, name: PresetName): Promise<number> {
    const result = presetPlan(await readModel(guest), name);
    if (!result.plan) throw new Error(`preset ${name}: ${JSON.stringify(result.errors)}`);
    if (result.warnings.length) console.log(`  preset ${name} warns: ${JSON.stringify(result.warnings)}`);
    for (const step of result.plan.steps) {
        if (step.kind !== 'write-attribute') throw new Error(`preset ${name}: unexpected ${step.kind} step`);
        const readBack = await guest.runOk(`printf '%s\\n' ${shellQuote(step.to)} | /usr/bin/tee ${shellQuote(step.path)} >/dev/null && cat ${shellQuote(step.path)}`);
        if (!readBackMatches(step.path, step.to, readBack)) throw new Error(`${step.path}: wrote ${step.to}, reads ${readBack.trim()}`);
    }
    return result.plan.steps.length;
}

const memberDevices = (guest: Guest, level: Level) => guest.disks.slice(0, level.members).map(d => `/dev/${d}`);

async function createArray(guest: Guest, level: Level): Promise<void> {
    // --assume-clean: no initial sync, so each case starts from a clean array.
    await guest.runOk(`mdadm --create /dev/md0 --run --assume-clean --level=${level.level} ` +
        `--raid-devices=${level.members} ${memberDevices(guest, level).join(' ')}`);
}

async function destroyArray(guest: Guest, level: Level): Promise<void> {
    await guest.runOk(`mdadm --stop /dev/md0 && mdadm --zero-superblock ${memberDevices(guest, level).join(' ')}`);
}

/**
 * Fails and removes the member that gets rebuilt (unless it is out already) and wipes it, so
 * --add makes a full recovery.
 */
function degradeScript(device: string): string {
    return `{ ! grep -q '${device.slice(5)}\\[' /proc/mdstat || mdadm /dev/md0 --fail ${device} --remove ${device} >/dev/null; } && ` +
        `mdadm --zero-superblock ${device}`;
}

/**
 * The load alone on the degraded array: MB/s each surviving member read, measured from
 * /proc/diskstats (sectors read), to check the derivation of the limit.
 */
async function measureLoadShare(guest: Guest, level: Level): Promise<number[]> {
    const survivors = guest.disks.slice(0, level.members).filter(d => d !== REBUILT);
    const pattern = survivors.map(d => `$3 == "${d}"`).join(' || ');
    const sectors = `awk '${pattern} { print $3, $6 }' /proc/diskstats`;
    // The array stays degraded: the first case rebuilds it.
    const out = await guest.runOk(`${degradeScript(`/dev/${REBUILT}`)}
${sectors} | sed 's/^/@@before /'
${GUEST_HELPER} /dev/md0 ${settings.loadMBs * 1000} ${LOAD_BLOCK_KIB} ${SHARE_PROBE_S}
${sectors} | sed 's/^/@@after /'`, { timeoutMs: 60000 });
    const read = (tag: string) => new Map(out.split('\n').filter(l => l.startsWith(tag))
        .map(l => l.split(' ')).map(([, disk, n]) => [disk, Number(n)]));
    const before = read('@@before');
    const after = read('@@after');
    const seconds = fields(out, 'ratedread').seconds;
    return survivors.map(d => ((after.get(d)! - before.get(d)!) * 512) / MB / seconds);
}

/**
 * Rebuilds `device` in md0 and waits for the recovery to end (degraded back to 0, sync idle);
 * reports its start and end uptime, md's progress (sync_completed) at the first and the last
 * sample while recovering (the rate without the start and the spare's activation at the end),
 * and the load's figures over the whole time when there is a load.
 */
function rebuildScript(device: string, loadSeconds: number | null): string {
    const load = loadSeconds === null
        ? ['', '', '']
        : [`${GUEST_HELPER} /dev/md0 ${settings.loadMBs * 1000} ${LOAD_BLOCK_KIB} ${loadSeconds} > /tmp/load.out 2>&1 &
load=$!
sleep ${LOAD_WARMUP_S}
kill -USR1 $load`, 'kill -TERM $load\nwait $load || { cat /tmp/load.out; exit 1; }', 'cat /tmp/load.out'];
    return `M=/sys/block/md0/md
now() { cut -d' ' -f1 /proc/uptime; }
${degradeScript(device)} || exit 1
${load[0]}
t0=$(now)
cpu0=$(head -1 /proc/stat)
mdadm /dev/md0 --add ${device} >/dev/null || exit 1
first=; last=
until [ "$(cat $M/degraded)" = 0 ] && [ "$(cat $M/sync_action)" = idle ]; do
  done_sectors=$(cut -d' ' -f1 $M/sync_completed)
  case $done_sectors in ''|*[!0-9]*) ;; *) last="$(now) $done_sectors"; first=\${first:-$last} ;; esac
  usleep 200000
done
t1=$(now)
cpu1=$(head -1 /proc/stat)
${load[1]}
${load[2]}
set -- $first $last
echo "@@rebuild t0=$t0 t1=$t1 componentKiB=$(cat $M/component_size) firstT=$1 firstSectors=$2 lastT=$3 lastSectors=$4" \
  "cpuBusy=$(echo "$cpu0 $cpu1" | awk '{ for (i = 2; i <= 11; i++) { t += $(i + 11) - $i } idle = $(16) - $5 + $(17) - $6; print (t - idle) / t }')"`;
}

async function measureCase(guest: Guest, level: Level, preset: PresetName, withLoad: boolean): Promise<Row> {
    const steps = await applyPreset(guest, preset);
    // The slowest case runs at speed_limit_min (1000 KiB/s); allow for twice as long.
    const componentMB = Number((await guest.runOk('cat /sys/block/md0/md/component_size')).trim()) * 1024 / MB;
    const budgetS = Math.ceil(componentMB / 0.5) + 120;
    const out = await guest.runOk(rebuildScript(`/dev/${REBUILT}`, withLoad ? budgetS : null), { timeoutMs: budgetS * 1000 });
    const r = fields(out, '@@rebuild');
    const seconds = r.t1 - r.t0;
    const load = withLoad ? loadFigures(out) : null;
    const wholeMBs = (r.componentKiB * 1024) / MB / seconds;
    const row = {
        level: level.level,
        preset,
        limitMBs: round(rebuildLimitMBs({ members: level.members, readMBs: settings.diskMBs, writeMBs: settings.diskMBs, loadMBs: settings.loadMBs })),
        rebuildMBs: round(r.lastT - r.firstT >= MIN_SAMPLED_S ? ((r.lastSectors - r.firstSectors) * 512) / MB / (r.lastT - r.firstT) : wholeMBs),
        seconds: round(seconds, 1),
        loadMBs: round(load?.mbs ?? 0),
        loadLatencyMs: round(load?.meanMs ?? 0, 1),
    };
    console.log(`  ${level.level} ${preset} (${steps} writes): ${row.rebuildMBs} MB/s per member while recovering ` +
        `(${round(wholeMBs)} over the ${row.seconds} s from --add to in sync), guest CPU ${Math.round(r.cpuBusy * 100)}% busy` +
        (load ? `; load ${row.loadMBs} MB/s, latency mean ${row.loadLatencyMs} ms, p95 ${round(load.p95Ms, 1)} ms, max ${round(load.maxMs, 1)} ms` : ''));
    return row;
}

/** Unthrottled disks, no load, "Fast rebuild": the rate the emulated CPU can rebuild at. */
async function calibrate(helper: string): Promise<Record<string, number>> {
    console.log('CPU calibration: unthrottled disks, no load, preset fast-rebuild');
    const { guest, stop } = await bootGuest(helper, false);
    const rates: Record<string, number> = {};
    try {
        for (const level of LEVELS) {
            await createArray(guest, level);
            rates[level.level] = (await measureCase(guest, level, 'fast-rebuild', false)).rebuildMBs;
            await destroyArray(guest, level);
        }
    } finally {
        await stop();
    }
    return rates;
}

async function measureLevels(helper: string): Promise<Row[]> {
    console.log(`throttled disks: ${settings.diskMBs} MB/s read and write each; load ${settings.loadMBs} MB/s of random ${LOAD_BLOCK_KIB} KiB O_DIRECT reads`);
    const { guest, stop } = await bootGuest(helper, true);
    const rows: Row[] = [];
    try {
        for (const level of LEVELS) {
            await createArray(guest, level);
            const share = await measureLoadShare(guest, level);
            console.log(`${level.level}, ${level.members} members: load alone on the degraded array reads ` +
                `${share.map(s => round(s)).join(', ')} MB/s from the survivors (derived: ${round(settings.loadMBs * degradedLoadShare(level.members))} each)`);
            for (const preset of PRESET_NAMES) {
                rows.push(await measureCase(guest, level, preset, true));
            }
            await destroyArray(guest, level);
        }
    } finally {
        await stop();
    }
    return rows;
}

function table(rows: Row[]): string {
    const head = '| level | preset | limit MB/s | rebuild MB/s | % of limit | time s | load MB/s | load latency ms |\n|---|---|---|---|---|---|---|---|\n';
    return head + rows.map(r => `| ${r.level} | ${r.preset} | ${r.limitMBs} | ${r.rebuildMBs} | ${Math.round((100 * r.rebuildMBs) / r.limitMBs)}% | ` +
        `${r.seconds} | ${r.loadMBs} | ${r.loadLatencyMs} |`).join('\n') + '\n';
}

async function main() {
    const { short, diskMiB, diskMBs, loadMBs } = settings;
    const t0 = performance.now();
    const helper = buildHelper();
    if (!short) {
        const cpu = await calibrate(helper);
        console.log(`CPU rate (MB/s per member): ${JSON.stringify(cpu)}; throttle ${diskMBs}`);
        for (const [level, mbs] of Object.entries(cpu)) {
            if (mbs < CPU_MARGIN * diskMBs)
                console.log(`WARNING: ${level} rebuilds at only ${mbs} MB/s on this CPU now (under ${CPU_MARGIN} x the throttle): the CPU may limit its cases`);
        }
    }
    const rows = await measureLevels(helper);
    console.log(`\n${diskMiB} MiB members, ${diskMBs} MB/s per member, load ${loadMBs} MB/s\n${table(rows)}`);
    const file = short ? join(repoRoot(), 'test-results', 'bench', 'rebuild-short.json') : join(repoRoot(), 'bench', 'rebuild.json');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(rows, null, 2) + '\n');
    console.log(`written: ${file} (${round((performance.now() - t0) / 1000, 0)} s)`);
}

main().catch(error => {
    console.error(error);
    process.exit(1);
});
