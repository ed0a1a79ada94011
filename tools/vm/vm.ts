// SPDX-License-Identifier: LGPL-2.1-or-later
// The real-kernel test guest: QEMU running Debian's stock kernel from the initramfs that
// tools/vm/build-guest.sh builds (busybox, mdadm, md modules, cockpit-bridge), with N empty raw
// disks. See test/vm/README.md.
//
//     const guest = await startGuest({ disks: 8, diskMiB: 256 });
//     const { out, code } = await guest.run('mdadm --create /dev/md0 --run --level=1 -n2 /dev/vda /dev/vdb');
//     const cockpit = await startGuestCockpit(guest);   // tools/vm/ws.ts: host ws -> guest bridge
//     ...
//     await cockpit.stop(); await guest.stop();
//
// Host <-> guest channels (all QEMU chardev sockets in the run dir, server side in QEMU):
//   bridge.sock   virtio-serial port "bridge": the guest runs one cockpit-bridge per connection
//   control.sock  virtio-serial port "control": run(cmd) (line protocol, see guest-init)
//   shell.sock    virtio-serial port "shell": an interactive guest shell (tools/vm/guest.sh shell)
//   console.log   the serial console (kernel + guest-init messages, "RAIDTUNE_VM_READY")
//   share/        9p "host" -> guest /host (bridge.log lands here; config/ is the guest bridge's
//                 XDG_CONFIG_HOME: tools/vm/ws.ts writes the manifest override there); the plugin
//                 folder is 9p "plugin"
import { randomBytes } from 'node:crypto';
import {
    accessSync, appendFileSync, constants, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync,
    readdirSync, rmSync, readlinkSync, statSync, symlinkSync, truncateSync, unlinkSync, writeFileSync, openSync,
    closeSync,
} from 'node:fs';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { release } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { describeExit, repoRoot, sleep, startChild } from '../cockpit/proc';
import { memoryBase, memoryDir } from '../memoryDir';
import { startSeekingDisk, type SeekingDisk, type SeekingDiskStats } from './nbdDisk';
import type { SeekingDiskFigures } from './seekModel';

export type Accel = 'kvm' | 'tcg';

export interface GuestOptions {
    /** Number of empty raw disks (virtio-blk: /dev/vda, /dev/vdb, ...). Default 8. */
    disks?: number;
    /** Size of each disk in MiB (sparse files on /dev/shm). Default 256. */
    diskMiB?: number;
    /** 'virtio' (default, /dev/vdX) or 'scsi' (virtio-scsi, /dev/sdX, has device/queue_depth). */
    diskInterface?: 'virtio' | 'scsi';
    /**
     * Disks of their own size and block sizes after the `disks` uniform ones, on the same interface;
     * their names go on from there (8 disks: the first extra one is vdi or sdi). Default: none.
     */
    extraDisks?: ExtraDisk[];
    /**
     * QEMU I/O throttling of every disk (`throttling.<option>=<value>` on each -drive), a disk model
     * for make bench-rebuild (tools/vm/diskModels.ts). Default: none.
     */
    diskThrottle?: DiskThrottle;
    /**
     * The seeking disk model (issue #38, tools/vm/nbdDisk.ts): each uniform disk served by a block
     * server of its own (a socket in the run dir) that charges every request its seek, rotation and
     * transfer, one at a time. Not with diskThrottle. Default: none (QEMU opens the files).
     */
    seekingDisks?: SeekingDisks;
    /** Guest RAM in MiB (default 1024) and vCPUs (default 2; 1 also boots with acpi=off: ~1.3 s faster). */
    memMiB?: number;
    cpus?: number;
    /** Folder served to the guest bridge as the raidtune package (default <repo>/dist); null: none. */
    pluginDir?: string | null;
    /**
     * Serve a copy of the plugin folder taken at boot instead of the live folder (default false).
     * Tests want this: the bridge lists packages once, when it starts, and a rebuild running at
     * that moment (build.mjs deletes dist/ first) would leave it without the plugin (404) or
     * serve a half-written build.
     */
    pluginCopy?: boolean;
    /** 'auto' (default; env RAIDTUNE_VM_ACCEL): KVM only if a probe boot works, else TCG. */
    accel?: 'auto' | Accel;
    /** Build dir of build-guest.sh (default vmBuildDir(): <repo>/build/vm/<RAIDTUNE_VM_KERNEL>). */
    buildDir?: string;
    /** Time for the boot to READY (default 180 s: TCG on 2 busy cores can be slow). */
    bootTimeoutMs?: number;
    /** Keep the run dir (disks, logs) after stop() (default env RAIDTUNE_VM_KEEP=1). */
    keep?: boolean;
    // ---- a reboot: the boot mode, the kept /etc folders and disks that outlive the guest ----
    /**
     * 'systemd': guest-init boots the way systemd does for md (systemd-modules-load, systemd-sysctl,
     * systemd-udevd + trigger + settle; md_mod not loaded before), logging to <run>/share/boot.log.
     */
    bootMode?: 'systemd';
    /** Host folder shared as 9p "persist": its sysctl.d, udev/rules.d, modules-load.d are the guest's /etc ones. */
    persistDir?: string;
    /**
     * Folder of the disk images (d0.img, ...): an image there is reused, a missing one created; stop()
     * leaves them. A guest started on the disks and persistDir of a stopped one is that one rebooted.
     */
    diskDir?: string;
}

/** How the seeking disk servers charge requests: tools/vm/seekModel.ts, scaled (0.05: every time x 20). */
export interface SeekingDisks {
    figures: SeekingDiskFigures;
    scale: number;
    /** Command queueing: the disk may reorder among this many waiting requests (1: none). */
    ncqWindow: number;
}

/** A disk that differs from the uniform ones: its size and what block sizes the guest sees. */
export interface ExtraDisk {
    /** Size in MiB (a sparse file on /dev/shm like the others). */
    miB: number;
    /**
     * The logical block size the guest's kernel reads in queue/logical_block_size (QEMU's
     * logical_block_size): 4096 is a 4Kn disk. Default QEMU's, 512.
     */
    logicalBlockBytes?: 512 | 4096;
    /**
     * queue/physical_block_size (QEMU's physical_block_size): 4096 with 512 logical is a 512e disk.
     * Default the logical size when that is given (QEMU refuses a physical one below it), else QEMU's.
     */
    physicalBlockBytes?: number;
}

/**
 * The -device suffix for an extra disk's block sizes; '' when it sets none, so such a disk gets
 * the same QEMU command line as a uniform one. Throws on what QEMU or the kernel would refuse.
 */
export function blockSizeDeviceOptions(disk: ExtraDisk): string {
    const logical = disk.logicalBlockBytes;
    const physical = disk.physicalBlockBytes ?? logical;
    if (logical !== undefined && logical !== 512 && logical !== 4096)
        throw new Error(`extraDisks: logicalBlockBytes ${logical}, not 512 or 4096`);
    if (physical !== undefined && !isBlockSize(physical))
        throw new Error(`extraDisks: physicalBlockBytes ${physical}, not a power of two from 512 to 32768`);
    if (physical !== undefined && physical < (logical ?? 512))
        throw new Error(`extraDisks: physicalBlockBytes ${physical} below the logical block size ${logical ?? 512}`);
    return (logical !== undefined ? `,logical_block_size=${logical}` : '') +
        (physical !== undefined ? `,physical_block_size=${physical}` : '');
}

// A power of two, as QEMU requires; 512 to 32 KiB spans what real disks report, and keeps a typo
// (4069, 40960) from booting a guest that tests something no disk does.
function isBlockSize(n: number): boolean {
    return Number.isInteger(n) && n >= 512 && n <= 32768 && (n & (n - 1)) === 0;
}

/** An extra disk's size: a whole number of MiB, at least 1 (the image is truncated to it). */
function checkedMiB(disk: ExtraDisk): number {
    if (!Number.isInteger(disk.miB) || disk.miB < 1)
        throw new Error(`extraDisks: miB ${disk.miB}, not a whole number of MiB >= 1`);
    return disk.miB;
}

/** One disk of the guest as startGuest() builds its image and QEMU options. */
export interface DiskSpec {
    miB: number;
    /** Appended to the disk's -device option (block sizes), '' for a uniform disk. */
    deviceOptions: string;
}

/** The uniform disks, then the extra ones: index i is the guest's i-th disk (d<i>.img, serial raidtune<i>). */
export function diskSpecs(disks: number, diskMiB: number, extra: ExtraDisk[] = []): DiskSpec[] {
    const uniform: DiskSpec[] = Array.from({ length: disks }, () => ({ miB: diskMiB, deviceOptions: '' }));
    return [...uniform, ...extra.map(d => ({ miB: checkedMiB(d), deviceOptions: blockSizeDeviceOptions(d) }))];
}

/** The guest's name for its i-th disk: vda..vdz, vdaa.. (sda.. on SCSI), as the kernel names them. */
export function guestDiskName(i: number, scsi: boolean): string {
    return (scsi ? 'sd' : 'vd') + diskLetter(i);
}

/**
 * QEMU's block throttling options (its docs, "-drive ... throttling.*"): bytes or requests per
 * second, each a bucket of its own that a request must pass; `iops-size` makes a request larger
 * than that many bytes count as size/iops-size requests; `*-max` bursts for `*-max-length` s.
 */
export const THROTTLE_OPTIONS = [
    'bps-total', 'bps-read', 'bps-write', 'iops-total', 'iops-read', 'iops-write', 'iops-size',
    'bps-total-max', 'bps-read-max', 'bps-write-max', 'iops-total-max', 'iops-read-max', 'iops-write-max',
    'bps-total-max-length', 'bps-read-max-length', 'bps-write-max-length',
    'iops-total-max-length', 'iops-read-max-length', 'iops-write-max-length',
] as const;
export type DiskThrottle = Partial<Record<(typeof THROTTLE_OPTIONS)[number], number>>;

/** The -drive suffix for a throttle; every value a positive integer (QEMU's own rule). */
export function throttleDriveOptions(throttle: DiskThrottle | undefined): string {
    if (!throttle) return '';
    return Object.entries(throttle).map(([option, value]) => {
        if (!(THROTTLE_OPTIONS as readonly string[]).includes(option)) throw new Error(`diskThrottle: unknown option ${option}`);
        const n = Math.round(value);
        if (!(n >= 1)) throw new Error(`diskThrottle: ${option}=${value}, not a positive number`);
        return `,throttling.${option}=${n}`;
    }).join('');
}

export interface RunResult {
    /** stdout and stderr of the command, interleaved as the guest wrote them. */
    out: string;
    /** Exit code (137 when the guest-side timeout killed it). */
    code: number;
}

export interface RunOptions {
    /** Kill the command in the guest after this long (default 60 s). */
    timeoutMs?: number;
}

/** run() and friends: what a test file needs from a guest booted elsewhere (see attachGuest). */
export interface GuestControl {
    /** Runs `cmd` with /bin/sh (busybox) as root in the guest, cwd /, stdin /dev/null. */
    run(cmd: string, options?: RunOptions): Promise<RunResult>;
    /** run() that throws (with the output) unless the exit code is 0; returns the output. */
    runOk(cmd: string, options?: RunOptions): Promise<string>;
    /** Closes the control connection (the guest keeps running). Idempotent. */
    detach(): Promise<void>;
}

/** Where a running guest can be reached; what attachGuest() needs (JSON-serializable). */
export interface GuestInfo {
    runDir: string;
    bridgeSocket: string;
    controlSocket: string;
    shellSocket: string;
    consoleLog: string;
    accel: Accel;
    /** Guest block device names of the disks: ['vda', 'vdb', ...]. */
    disks: string[];
}

export interface Guest extends GuestControl, GuestInfo {
    /** Milliseconds from spawning QEMU to READY (+ the first control round trip). */
    readonly bootMs: number;
    /** The serial console so far. */
    console(): string;
    /** Resolves with a reason when QEMU exits without stop(). Never rejects. */
    readonly lost: Promise<string>;
    /** Host CPU seconds QEMU has used so far (null once it has exited): what the guest costs the run. */
    cpuSeconds(): number | null;
    /** What each seeking disk server has served so far (uniform disks in order; [] without seekingDisks). */
    seekingDiskStats(): SeekingDiskStats[];
    /** Kills QEMU, saves the logs to <build>/logs/, removes the run dir (unless keep). Idempotent. */
    stop(): Promise<void>;
}

const READY = 'RAIDTUNE_VM_READY';

/**
 * The kernel the guest runs (env RAIDTUNE_VM_KERNEL, as build-guest.sh reads it): 6.1 (default,
 * Debian 12's), 6.12 (bookworm-backports'), 7 (trixie-backports' newest) or a package name.
 */
export function vmKernelChoice(): string {
    const choice = process.env.RAIDTUNE_VM_KERNEL || '6.1';
    if (!/^(6\.1|6\.12|7|linux-image-[A-Za-z0-9.+_-]+)$/.test(choice))
        throw new Error(`RAIDTUNE_VM_KERNEL=${choice}: 6.1, 6.12, 7 or a package name linux-image-VERSION`);
    return choice;
}

/** build-guest.sh's output for that kernel: env RAIDTUNE_VM_BUILD or <repo>/build/vm/<kernel choice>. */
export function vmBuildDir(): string {
    return resolve(process.env.RAIDTUNE_VM_BUILD ?? join(repoRoot(), 'build', 'vm', vmKernelChoice()));
}

/** KERNEL= and KEY= from build-guest.sh's guest.env; throws with a hint when not built. */
export function guestBuild(buildDir = vmBuildDir()): { kernel: string; key: string; image: string; initrd: string } {
    const vmlinuz = join(buildDir, 'vmlinuz');
    const initrd = join(buildDir, 'initrd.img');
    const envFile = join(buildDir, 'guest.env');
    if (!existsSync(vmlinuz) || !existsSync(initrd) || !existsSync(envFile))
        throw new Error(`the test guest is not built in ${buildDir}: run tools/vm/build-guest.sh (as root, with the same RAIDTUNE_VM_KERNEL)`);
    const env = Object.fromEntries(readFileSync(envFile, 'utf8').split('\n').filter(l => l.includes('='))
        .map(l => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    // IMAGE=vmlinux: the uncompressed ELF (PVH boot), much faster under TCG than the bzImage.
    const image = env.IMAGE && existsSync(join(buildDir, env.IMAGE)) ? join(buildDir, env.IMAGE) : vmlinuz;
    return { kernel: env.KERNEL ?? '?', key: env.KEY ?? '?', image, initrd };
}

/**
 * True when KVM really runs the guest kernel. /dev/kvm can exist and still hang a stock kernel
 * (nested PVM: it stops after "Probing EDD" and QEMU's exit code looks fine), so a 10 s boot
 * without root must reach the kernel's own panic message. Cached per kernel and host kernel in
 * <build>/kvm-probe.json.
 */
export async function kvmWorks(buildDir = vmBuildDir()): Promise<boolean> {
    try {
        accessSync('/dev/kvm', constants.R_OK | constants.W_OK);
    } catch {
        return false;
    }
    const { kernel, image } = guestBuild(buildDir);
    const cacheFile = join(buildDir, 'kvm-probe.json');
    const key = `${kernel} on ${release()}`;
    try {
        const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as { key: string; works: boolean };
        if (cached.key === key)
            return cached.works;
    } catch {
        // no cache yet
    }
    const probe = startChild('qemu-system-x86_64', ['-accel', 'kvm', '-cpu', 'host', '-m', '256', '-nodefaults',
        '-display', 'none', '-no-reboot', '-monitor', 'none', '-serial', 'stdio', '-kernel', image,
        '-append', 'console=ttyS0 panic=-1'], { name: 'qemu (kvm probe)' });
    const deadline = performance.now() + 10000;
    while (!probe.hasExited() && performance.now() < deadline && !/Kernel panic/.test(probe.output()))
        await sleep(100);
    await probe.stop(1000);
    const works = /Kernel panic/.test(probe.output());
    writeFileSync(cacheFile, JSON.stringify({ key, works, probedAt: new Date().toISOString() }) + '\n');
    writeFileSync(join(buildDir, 'kvm-probe.log'), probe.output());
    return works;
}

function newRunDir(): string {
    cleanStaleRuns(memoryBase());
    return memoryDir('raidtune-vm-');
}

/** Running (not a zombie: PID 1 here does not reap orphans). */
function alive(pid: number): boolean {
    try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
        return false;
    }
}

/** Newest mtime and file count below `dir` (to notice a build writing while we copy). */
function treeState(dir: string): string {
    let newest = 0;
    let count = 0;
    const walk = (d: string) => {
        for (const entry of readdirSync(d, { withFileTypes: true })) {
            const path = join(d, entry.name);
            if (entry.isDirectory()) {
                walk(path);
            } else {
                count++;
                newest = Math.max(newest, statSync(path).mtimeMs);
            }
        }
    };
    walk(dir);
    return `${count} ${newest}`;
}

/** Copies a plugin build that nobody is writing: same tree before and after, manifest/index present. */
async function copyPluginWhenStable(from: string, to: string): Promise<void> {
    let last = '';
    for (let attempt = 0; attempt < 20; attempt++) {
        try {
            const before = treeState(from);
            rmSync(to, { recursive: true, force: true });
            mkdirSync(dirname(to), { recursive: true });
            cpSync(from, to, { recursive: true, dereference: true });
            const complete = ['manifest.json', 'index.html'].every(f => existsSync(join(to, f)));
            if (complete && treeState(from) === before) {
                compressTextFiles(to);
                return;
            }
            last = complete ? 'it changed while being copied' : 'manifest.json or index.html missing';
        } catch (err) {
            last = String(err);
        }
        await sleep(500);
    }
    throw new Error(`could not copy a complete plugin build from ${from} (${last}); is a build running?`);
}

/**
 * The copy's scripts and styles as name.gz only, as Cockpit ships its own: the guest's bridge serves
 * them compressed, so a page open moves ~0.35 MB instead of ~1.6 MB through 9p, the emulated
 * bridge and virtio-serial (measured on kernel 6.12's tuning files: 1.93 s to 1.70 s an open).
 */
function compressTextFiles(dir: string): void {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
            compressTextFiles(path);
        } else if (/\.(js|css)$/.test(entry.name)) {
            writeFileSync(path + '.gz', gzipSync(readFileSync(path), { level: 9 }));
            unlinkSync(path);
        }
    }
}

/**
 * Run dirs of harness processes that died without stop() (SIGKILL, OOM): their disks live in RAM
 * (/dev/shm) and their QEMU may still run. Each run dir records its owner and QEMU pids; the QEMU
 * is killed only if its command line names that very run dir (so never a reused pid).
 */
function cleanStaleRuns(base: string) {
    for (const name of readdirSync(base)) {
        if (!name.startsWith('raidtune-vm-'))
            continue;
        const dir = join(base, name);
        let owner: { pid: number; keep?: boolean };
        try {
            owner = JSON.parse(readFileSync(join(dir, 'owner.json'), 'utf8'));
        } catch {
            continue; // being created, or not ours: leave it
        }
        if (owner.keep || alive(owner.pid))
            continue;
        for (const { pid, mark } of readRunChildren(dir)) {
            try {
                if (alive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(mark))
                    process.kill(pid, 'SIGKILL');
            } catch {
                // gone meanwhile
            }
        }
        rmSync(dir, { recursive: true, force: true });
    }
}

function readRunChildren(runDir: string): { pid: number; mark: string }[] {
    try {
        return readFileSync(join(runDir, 'children'), 'utf8').split('\n').filter(Boolean)
            .map(line => JSON.parse(line) as { pid: number; mark: string });
    } catch {
        return [];
    }
}

/**
 * Records a process that belongs to the guest run in `runDir` (QEMU, the guest's cockpit-ws), for
 * the clean-up after an owner that died without stop(). `mark` must occur in its command line.
 */
export function recordRunChild(runDir: string, pid: number, mark: string): void {
    try {
        appendFileSync(join(runDir, 'children'), JSON.stringify({ pid, mark }) + '\n');
    } catch {
        // the run dir is gone: nothing to clean up later either
    }
}

export async function startGuest(options: GuestOptions = {}): Promise<Guest> {
    const buildDir = resolve(options.buildDir ?? vmBuildDir());
    const build = guestBuild(buildDir);
    // Checked before anything starts: a bad extra disk throws here, not from QEMU.
    const uniformDisks = options.disks ?? 8;
    const disks = diskSpecs(uniformDisks, options.diskMiB ?? 256, options.extraDisks);
    if (options.seekingDisks && options.diskThrottle)
        throw new Error('seekingDisks and diskThrottle are two disk models: choose one');
    const scsi = options.diskInterface === 'scsi';
    const pluginDir = options.pluginDir === null ? null : resolve(options.pluginDir ?? join(repoRoot(), 'dist'));
    if (pluginDir && !existsSync(join(pluginDir, 'manifest.json')))
        throw new Error(`${pluginDir}/manifest.json is missing: build the plugin first (node build.mjs)`);
    if (pluginDir && !/^[\w.+-]+$/.test(basename(pluginDir)))
        throw new Error(`plugin folder name ${JSON.stringify(basename(pluginDir))}: only letters, digits, . _ + - (kernel command line)`);
    const keep = options.keep ?? process.env.RAIDTUNE_VM_KEEP === '1';
    const wanted = options.accel ?? (process.env.RAIDTUNE_VM_ACCEL as GuestOptions['accel']) ?? 'auto';
    const accel: Accel = wanted === 'auto' ? (await kvmWorks(buildDir) ? 'kvm' : 'tcg') : wanted;

    const cpus = options.cpus ?? 2;
    const runDir = newRunDir();
    const info: GuestInfo = {
        runDir,
        bridgeSocket: join(runDir, 'bridge.sock'),
        controlSocket: join(runDir, 'control.sock'),
        shellSocket: join(runDir, 'shell.sock'),
        consoleLog: join(runDir, 'console.log'),
        accel,
        disks: disks.map((_, i) => guestDiskName(i, scsi)),
    };
    let servedPlugin = pluginDir;
    if (pluginDir && options.pluginCopy) {
        servedPlugin = join(runDir, 'plugin', 'raidtune');
        await copyPluginWhenStable(pluginDir, servedPlugin);
    }
    const share = join(runDir, 'share');
    const diskDir = options.diskDir ? resolve(options.diskDir) : join(runDir, 'disks');
    mkdirSync(share);
    mkdirSync(diskDir, { recursive: true });
    if (options.persistDir)
        mkdirSync(options.persistDir, { recursive: true });
    closeSync(openSync(info.consoleLog, 'w'));

    const drives: string[] = scsi ? ['-device', 'virtio-scsi-pci,id=scsi0'] : [];
    const throttle = throttleDriveOptions(options.diskThrottle);
    const images = disks.map((disk, i) => {
        const file = join(diskDir, `d${i}.img`);
        if (!existsSync(file)) {
            closeSync(openSync(file, 'w'));
            truncateSync(file, disk.miB * 1024 * 1024);
        }
        return file;
    });
    const seekingDisks = await startSeekingDisks(options, images.slice(0, uniformDisks), runDir).catch(err => {
        // Nothing runs yet that stop() would end: the run dir (the disks, unless in diskDir) goes.
        rmSync(runDir, { recursive: true, force: true });
        throw err;
    });
    disks.forEach((disk, i) => {
        // A seeking disk's QEMU reads and writes through its server (NBD on a unix socket); the
        // protocol driver takes no aio= option.
        const source = i < seekingDisks.length
            ? `file=nbd+unix:///?socket=${seekingDisks[i].socketPath},if=none,id=d${i},format=raw,cache=unsafe`
            : `file=${images[i]},if=none,id=d${i},format=raw,cache=unsafe,aio=threads${throttle}`;
        drives.push('-drive', source,
            '-device', `${scsi ? `scsi-hd,bus=scsi0.0,wwn=${scsiWwn(i)}` : 'virtio-blk-pci'},drive=d${i},serial=raidtune${i}${disk.deviceOptions}`);
    });
    const port = (name: string, socket: string) => [
        '-chardev', `socket,id=${name},path=${socket},server=on,wait=off`,
        '-device', `virtserialport,bus=vser0.0,chardev=${name},name=${name}`,
    ];
    const args = [
        // TCG with one host thread for all vCPUs: with a thread each (thread=multi), Linux 7.3
        // patching its own code at boot (static keys, int3 first) panicked 2 boots in 120 ("Oops:
        // int3" in sched_clock_cpu: a vCPU still ran the int3 its peer had already replaced); one
        // thread, 0 in 240 (2 guests at once on 2 cores, each booted past its initcalls).
        ...(accel === 'kvm' ? ['-accel', 'kvm', '-cpu', 'host'] : ['-accel', 'tcg,thread=single', '-cpu', 'max']),
        '-m', String(options.memMiB ?? 1024), '-smp', String(cpus),
        '-nodefaults', '-display', 'none', '-no-reboot', '-monitor', 'none',
        '-chardev', `file,id=con,path=${info.consoleLog}`, '-serial', 'chardev:con',
        '-kernel', build.image, '-initrd', build.initrd,
        '-append', kernelCommandLine(cpus, servedPlugin ? basename(servedPlugin) : null) + (options.bootMode ? ` raidtune.boot=${options.bootMode}` : ''),
        '-virtfs', `local,path=${share},mount_tag=host,security_model=none,id=host`,
        // The plugin folder's PARENT is shared: build.mjs deletes and recreates dist/, and a share
        // of dist/ itself would then show the deleted folder until QEMU restarts.
        ...(servedPlugin ? ['-virtfs', `local,path=${dirname(servedPlugin)},mount_tag=plugin,security_model=none,readonly=on,id=plugin`] : []),
        ...(options.persistDir ? ['-virtfs', `local,path=${resolve(options.persistDir)},mount_tag=persist,security_model=none,id=persist`] : []),
        '-device', 'virtio-serial-pci,id=vser0',
        ...port('bridge', info.bridgeSocket),
        ...port('control', info.controlSocket),
        ...port('shell', info.shellSocket),
        ...drives,
    ];
    writeFileSync(join(runDir, 'qemu.args'), ['qemu-system-x86_64', ...args].map(shellQuote).join(' ') + '\n');

    const t0 = performance.now();
    const qemu = startChild('qemu-system-x86_64', args, { name: `qemu (${accel})` });
    writeFileSync(join(runDir, 'owner.json'), JSON.stringify({ pid: process.pid, keep }) + '\n');
    recordRunChild(runDir, qemu.pid, `${runDir}/`);
    const consoleText = () => {
        try {
            return readFileSync(info.consoleLog, 'utf8');
        } catch {
            return '';
        }
    };
    let control: ControlClient | undefined;
    let stopped = false;
    const stop = async () => {
        if (stopped)
            return;
        stopped = true;
        await control?.detach();
        await qemu.stop(2000);
        await Promise.all(seekingDisks.map(d => d.close()));
        saveLogs(runDir, buildDir);
        unlinkIfLinkTo(join(buildDir, 'run'), runDir);
        if (!keep)
            rmSync(runDir, { recursive: true, force: true });
    };

    try {
        const timeoutMs = options.bootTimeoutMs ?? 180000;
        const deadline = t0 + timeoutMs;
        for (;;) {
            if (consoleText().includes(READY))
                break;
            if (qemu.hasExited())
                throw new Error(`${describeExit(qemu, await qemu.exited)}\nconsole:\n${tail(consoleText())}`);
            if (performance.now() > deadline)
                throw new Error(`the guest did not print ${READY} within ${timeoutMs} ms (accel ${accel}); console:\n${tail(consoleText())}`);
            await sleep(50);
        }
        control = new ControlClient(info.controlSocket);
        await control.handshake(Math.max(10000, deadline - performance.now()));
        const bootMs = performance.now() - t0;
        try {
            unlinkSync(join(buildDir, 'run'));
        } catch {
            // none
        }
        try {
            symlinkSync(runDir, join(buildDir, 'run'));
        } catch {
            // a read-only or shared build dir: only a convenience for guest.sh shell
        }
        writeFileSync(join(runDir, 'guest.json'), JSON.stringify(info, null, 2) + '\n');

        const lost = qemu.exited.then(exit => (stopped ? new Promise<string>(() => {}) : describeExit(qemu, exit)));
        const ctl = control;
        return {
            ...info,
            bootMs,
            console: consoleText,
            lost,
            cpuSeconds: () => processCpuSeconds(qemu.pid),
            seekingDiskStats: () => seekingDisks.map(d => d.stats()),
            run: (cmd, o) => ctl.run(cmd, o),
            runOk: (cmd, o) => ctl.runOk(cmd, o),
            detach: () => ctl.detach(),
            stop,
        };
    } catch (err) {
        await stop();
        throw err;
    }
}

/**
 * A server for each of `images` (the uniform disks) when the options ask for seeking disks, listening
 * on <run>/nbd-dN.sock before QEMU starts; none otherwise. One that fails to start closes the others.
 */
async function startSeekingDisks(options: GuestOptions, images: string[], runDir: string): Promise<SeekingDisk[]> {
    const model = options.seekingDisks;
    if (!model)
        return [];
    const started = await Promise.allSettled(images.map((file, i) => startSeekingDisk({
        file, socketPath: join(runDir, `nbd-d${i}.sock`), ...model,
    })));
    const servers = started.flatMap(r => (r.status === 'fulfilled' ? [r.value] : []));
    const failed = started.find(r => r.status === 'rejected');
    if (failed) {
        await Promise.all(servers.map(s => s.close()));
        throw (failed as PromiseRejectedResult).reason;
    }
    return servers;
}

/** Control of a guest that someone else started (e.g. a jest globalSetup; see test/vm/harness). */
export async function attachGuest(info: Pick<GuestInfo, 'controlSocket'>, timeoutMs = 30000): Promise<GuestControl> {
    const control = new ControlClient(info.controlSocket);
    await control.handshake(timeoutMs);
    return control;
}

/** Single-quotes a string for the guest's (or any POSIX) shell. */
export function shellQuote(s: string): string {
    return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

// ---- the control channel ----

interface Pending {
    resolve(result: RunResult): void;
    reject(err: Error): void;
    timer: NodeJS.Timeout;
    out?: string[];
}

/**
 * Client side of guest-init's control loop. Requests are lines "<id> <timeout-s> <base64 script>";
 * the guest answers "@@OUT <id>", base64 lines, "@@END <id> <code>", one request at a time.
 * Connections are made lazily and may be closed and reopened (QEMU takes one client at a time).
 */
class ControlClient implements GuestControl {
    private socket: net.Socket | undefined;
    private connecting: Promise<net.Socket> | undefined;
    private buffer = '';
    private current: { id: string; lines: string[] } | undefined;
    private readonly pending = new Map<string, Pending>();
    private seq = 0;
    /** The connection on which a ping was answered. */
    private verified: net.Socket | undefined;
    private handshaking: Promise<void> | undefined;
    private readonly prefix = randomBytes(3).toString('hex');

    constructor(private readonly path: string) {}

    /**
     * Connects and makes sure the guest reads this connection: a request sent in the moment the
     * guest closes the port after the previous client left can be discarded by the guest kernel,
     * so ping until a ping is answered.
     */
    async handshake(timeoutMs: number): Promise<void> {
        const deadline = performance.now() + timeoutMs;
        let last: unknown;
        // Short waits first: after a previous client left, the first ping is usually the one lost.
        for (let wait = 300; performance.now() < deadline; wait = Math.min(wait * 2, 3000)) {
            try {
                const { out } = await this.send('echo pong', Math.min(wait, Math.max(100, deadline - performance.now())), 5);
                if (out.trim() === 'pong') {
                    this.verified = this.socket;
                    return;
                }
                last = new Error(`unexpected answer ${JSON.stringify(out)}`);
            } catch (err) {
                last = err;
                if (!/no answer/.test(String(err)))
                    await sleep(200);
            }
        }
        throw new Error(`the guest's control port did not answer within ${timeoutMs} ms: ${String(last)}`);
    }

    async run(cmd: string, options: RunOptions = {}): Promise<RunResult> {
        const timeoutMs = options.timeoutMs ?? 60000;
        // A new connection (first use, or after detach()) is pinged before it carries a command.
        if (!this.socket || this.socket.destroyed || this.socket !== this.verified) {
            this.handshaking ??= this.handshake(30000).finally(() => { this.handshaking = undefined; });
            await this.handshaking;
        }
        // The guest kills the command after timeoutMs; we give up 15 s later (a stuck guest).
        return this.send(cmd, timeoutMs + 15000, Math.max(1, Math.ceil(timeoutMs / 1000)));
    }

    async runOk(cmd: string, options?: RunOptions): Promise<string> {
        const { out, code } = await this.run(cmd, options);
        if (code !== 0)
            throw new Error(`guest command failed (exit ${code}): ${cmd}\n${out}`);
        return out;
    }

    async detach(): Promise<void> {
        const socket = this.socket;
        this.socket = undefined;
        this.connecting = undefined;
        this.failAll(new Error('control connection closed'));
        if (socket && !socket.destroyed) {
            await new Promise<void>(r => {
                socket.once('close', () => r());
                socket.end();
                setTimeout(() => { socket.destroy(); r(); }, 500).unref();
            });
        }
    }

    private async send(cmd: string, hostTimeoutMs: number, guestTimeoutS: number): Promise<RunResult> {
        const socket = await this.connect();
        const id = `${this.prefix}-${++this.seq}`;
        const line = `${id} ${guestTimeoutS} ${Buffer.from(cmd, 'utf8').toString('base64')}\n`;
        return new Promise<RunResult>((resolveRun, rejectRun) => {
            const timer = setTimeout(() => {
                this.pending.delete(id);
                rejectRun(new Error(`no answer from the guest within ${hostTimeoutMs} ms to: ${cmd}`));
            }, hostTimeoutMs);
            this.pending.set(id, { resolve: resolveRun, reject: rejectRun, timer });
            socket.write(line);
        });
    }

    private connect(): Promise<net.Socket> {
        if (this.socket && !this.socket.destroyed)
            return Promise.resolve(this.socket);
        this.connecting ??= new Promise<net.Socket>((resolveConn, rejectConn) => {
            const socket = net.connect(this.path);
            socket.setEncoding('utf8');
            socket.once('connect', () => {
                this.socket = socket;
                this.buffer = '';
                this.current = undefined;
                resolveConn(socket);
            });
            socket.on('data', (chunk: string) => this.onData(chunk));
            socket.on('error', err => {
                this.connecting = undefined;
                rejectConn(err);
                this.failAll(new Error(`control connection: ${err.message}`));
            });
            socket.on('close', () => {
                if (this.socket === socket)
                    this.socket = undefined;
                this.connecting = undefined;
                this.failAll(new Error('control connection closed'));
            });
        });
        return this.connecting;
    }

    private onData(chunk: string) {
        this.buffer += chunk;
        let nl: number;
        while ((nl = this.buffer.indexOf('\n')) >= 0) {
            const line = this.buffer.slice(0, nl).replace(/\r$/, '');
            this.buffer = this.buffer.slice(nl + 1);
            if (line.startsWith('@@OUT ')) {
                this.current = { id: line.slice(6).trim(), lines: [] };
            } else if (line.startsWith('@@END ')) {
                const [, id, code] = line.split(' ');
                const out = this.current?.id === id ? Buffer.from(this.current.lines.join(''), 'base64').toString('utf8') : '';
                this.current = undefined;
                const p = this.pending.get(id);
                if (p) {
                    this.pending.delete(id);
                    clearTimeout(p.timer);
                    p.resolve({ out, code: Number(code) });
                }
            } else if (this.current) {
                this.current.lines.push(line.trim());
            }
        }
    }

    private failAll(err: Error) {
        for (const [id, p] of this.pending) {
            clearTimeout(p.timer);
            this.pending.delete(id);
            p.reject(err);
        }
    }
}

// ---- helpers ----

/** User plus system CPU seconds of a running process (/proc/PID/stat), null when it is gone. */
export function processCpuSeconds(pid: number): number | null {
    try {
        // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
        return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    } catch {
        return null;
    }
}
// sysconf(_SC_CLK_TCK): 100 on every Linux architecture this runs on.
const CLOCK_TICKS = 100;

function kernelCommandLine(cpus: number, pluginName: string | null): string {
    // no_timer_check: under emulation on a busy host the IO-APIC timer check can miss its ticks and
    // panic the boot ("IO-APIC + timer doesn't work!", seen once with 4 guests on 2 cores).
    const args = ['console=ttyS0', 'quiet', 'loglevel=3', 'panic=-1', 'mitigations=off', 'i8042.noaux', 'i8042.nokbd',
        '8250.nr_uarts=1', 'no_timer_check'];
    // guest-init links /opt/xdg/cockpit/raidtune to <9p "plugin">/<this name>.
    if (pluginName)
        args.push(`raidtune.plugin=${pluginName}`);
    // Without ACPI the guest boots ~1.3 s faster under TCG, but then sees only one CPU.
    if (cpus === 1)
        args.push('acpi=off');
    return args.join(' ');
}

/**
 * A SCSI disk's World Wide Name (NAA 5), as real SAS/SATA disks report one: without it QEMU's
 * scsi-hd gives the kernel no usable identifier and `device/wwid` fails with EINVAL. The guest
 * reads it as `naa.5000c5000000000N`; it stays with the image across boots, its name sdX may not.
 */
export function scsiWwn(i: number): string {
    return `0x5000c500${(i + 1).toString(16).padStart(8, '0')}`;
}

function diskLetter(i: number): string {
    // vda..vdz, vdaa.. like the kernel names them
    return i < 26
        ? String.fromCharCode(97 + i)
        : diskLetter(Math.floor(i / 26) - 1) + String.fromCharCode(97 + (i % 26));
}

function tail(text: string, lines = 40): string {
    return text.trim().split('\n').slice(-lines).join('\n');
}

/** Keeps the last run's console and bridge logs in <build>/logs/ (the run dir is removed). */
function saveLogs(runDir: string, buildDir: string) {
    try {
        const logs = join(buildDir, 'logs');
        mkdirSync(logs, { recursive: true });
        for (const f of readdirSync(logs))
            rmSync(join(logs, f), { force: true });
        const copy = (from: string, name: string) => {
            if (existsSync(from))
                copyFileSync(from, join(logs, name));
        };
        copy(join(runDir, 'console.log'), 'console.log');
        copy(join(runDir, 'qemu.args'), 'qemu.args');
        copy(join(runDir, 'share', 'bridge.log'), 'bridge.log');
    } catch {
        // logs are a convenience
    }
}

function unlinkIfLinkTo(link: string, target: string) {
    try {
        if (readlinkSync(link) === target)
            unlinkSync(link);
    } catch {
        // not there / not ours
    }
}
