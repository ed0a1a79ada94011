// SPDX-License-Identifier: LGPL-2.1-or-later
// The guest of `make bench-rebuild` and `make bench-disk`: the test guest (tools/vm/vm.ts) of one
// kernel with member disks throttled by a disk model or served by the seeking disk model, and a
// helper program (the load generator ratedread.c, the probe diskprobe.c) copied in.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import { basename, join } from 'node:path';
import { repoRoot } from '../cockpit/proc';
import { modelDiskOptions, type DiskModel } from './diskModels';
import { startGuest, type Guest } from './vm';

const MB = 1e6;

export interface BenchGuest {
    guest: Guest;
    stop(): Promise<void>;
}

/** `key=value` fields of the line starting with `tag` in a guest's output. */
export function fields(out: string, tag: string): Record<string, number> {
    const line = out.split('\n').find(l => l.startsWith(`${tag} `));
    if (!line) throw new Error(`no "${tag}" line in the guest's output:\n${out}`);
    return Object.fromEntries(line.slice(tag.length + 1).trim().split(/\s+/).map(kv => {
        const [key, value] = kv.split('=');
        return [key, Number(value)];
    }));
}

/** The rest of the line starting with `tag`. */
export function tagged(out: string, tag: string): string {
    const line = out.split('\n').find(l => l.startsWith(`${tag} `));
    if (line === undefined) throw new Error(`no "${tag}" line in the guest's output:\n${out}`);
    return line.slice(tag.length + 1);
}

export function loadFigures(out: string): { mbs: number; meanMs: number; p95Ms: number; maxMs: number } {
    const f = fields(out, 'ratedread');
    return {
        mbs: f.bytes / MB / f.seconds, meanMs: f.latency_mean_ms, p95Ms: f.latency_p95_ms, maxMs: f.latency_max_ms,
    };
}

/** A helper program of tools/vm (the load generator, the disk probe), static for the guest's busybox userland. */
export function buildHelper(name: 'ratedread' | 'diskprobe' = 'ratedread'): string {
    const out = join(repoRoot(), 'build', 'bench', name);
    mkdirSync(join(repoRoot(), 'build', 'bench'), { recursive: true });
    execFileSync('gcc', ['-static', '-O2', '-Wall', '-pthread', '-o', out, join(repoRoot(), 'tools', 'vm', `${name}.c`)], { stdio: 'inherit' });
    return out;
}

export interface BenchGuestOptions {
    /** build/vm/<kernel> (tools/vm/build-guest.sh with RAIDTUNE_VM_KERNEL=<kernel>). */
    kernel: string;
    model: DiskModel;
    diskMiB: number;
    disks: number;
}

export async function startHelperGuest(helper: string, options: BenchGuestOptions): Promise<BenchGuest> {
    const { kernel, model, diskMiB, disks } = options;
    if (!/^[\w.+-]+$/.test(kernel)) throw new Error(`kernel ${kernel}: a build/vm folder name`);
    const guest = await startGuest({
        disks, diskMiB,
        buildDir: join(repoRoot(), 'build', 'vm', kernel),
        // 16384 stripe cache entries of a RAID5 of 4 take 256 MiB: within the guest's memory.
        memMiB: 3072,
        pluginDir: null,
        ...modelDiskOptions(model),
    });
    // guest-init polls for a host on the bridge and shell ports (a grep every 30 ms under TCG): half
    // of an idle guest's CPU. Connected, they wait quietly (the bridge for its init message).
    const holds = [guest.bridgeSocket, guest.shellSocket].map(path => net.connect(path).on('error', () => {}));
    const stop = async () => {
        holds.forEach(socket => socket.destroy());
        await guest.stop();
    };
    try {
        const name = basename(helper);
        copyFileSync(helper, join(guest.runDir, 'share', name));
        await guest.runOk(`cp /host/${name} /tmp/${name} && chmod 755 /tmp/${name}`);
    } catch (error) {
        await stop();
        throw error;
    }
    return { guest, stop };
}
