// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated md host: `node build/mdsim.mjs --scenario NAME --root DIR` keeps a fake
// <root>/proc and <root>/sys up to date, prints "mdsim: ready <root>" and creates <root>/.ready
// when the tree is complete, and exits on SIGTERM.
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeMdadmWrapper } from '../../sim/mdadm/wrapper';
import { BLOCKDEV_TOOLS, type BlockdevTool } from '../../sim/blockdev/request';
import { writeJournalctlStandIn, writeMonitorFiles, writeSendmailStandIn, writeSystemctlStandIn } from '../../sim/monitor/hostFiles';
import { UDEV_DATA } from '../../sim/kernel/udev';
import { describeExit, repoRoot, sleep, startChild, type Child } from './proc';
import { memoryDir } from '../memoryDir';

export interface SimulatedHostOptions {
    scenario: string;
    /** Root of the simulated tree (default: a new temp dir, removed by stop()). */
    root?: string;
    /** Path of the simulator (default: <repo>/build/mdsim.mjs). */
    simulator?: string;
    /** Extra command line arguments for the simulator. */
    args?: string[];
    timeoutMs?: number;
}

export interface SimulatedHost {
    readonly scenario: string;
    readonly root: string;
    readonly procRoot: string;
    readonly sysRoot: string;
    /** Milliseconds from spawning the simulator to "ready". */
    readonly startMs: number;
    /** Simulator output so far. */
    logs(): string;
    /** Resolves with a reason if the simulator exits before stop(). Never rejects. */
    readonly lost: Promise<string>;
    /** SIGTERM, wait, remove the root if we created it. Idempotent. */
    stop(): Promise<void>;
}

/** <repo>/build/mdsim.mjs, or $RAIDTUNE_MDSIM (e.g. a simulator under development). */
export function simulatorPath(): string {
    return process.env.RAIDTUNE_MDSIM || join(repoRoot(), 'build', 'mdsim.mjs');
}

export async function startSimulatedHost(options: SimulatedHostOptions): Promise<SimulatedHost> {
    const simulator = resolve(options.simulator ?? simulatorPath());
    if (!existsSync(simulator))
        throw new Error(`${simulator} is missing: run make first`);
    const ownRoot = options.root === undefined;
    const root = resolve(options.root ?? memoryDir('raidtune-sim-'));
    // 128 arrays take ~3 s to create on a quiet machine and several times that on a busy one.
    const timeoutMs = options.timeoutMs ?? 60000;

    let child: Child | undefined;
    const removeRoot = () => {
        if (ownRoot)
            rmSync(root, { recursive: true, force: true });
    };
    try {
        const t0 = performance.now();
        let sawReadyLine = false;
        child = startChild(process.execPath, [simulator, '--scenario', options.scenario, '--root', root,
            ...(options.args ?? [])], {
            name: `mdsim (${options.scenario})`,
            onStdout: () => {
                if (/^mdsim: ready\b/m.test(child!.output()))
                    sawReadyLine = true;
            },
        });
        const readyFile = join(root, '.ready');
        const deadline = t0 + timeoutMs;
        for (;;) {
            if (sawReadyLine || isFile(readyFile))
                break;
            if (child.hasExited())
                throw new Error(describeExit(child, await child.exited));
            if (performance.now() > deadline)
                throw new Error(`mdsim did not get ready within ${timeoutMs} ms; its output:\n${child.output()}`);
            await sleep(15);
        }
        const startMs = performance.now() - t0;

        const sim = child;
        let stopped = false;
        const lost = sim.exited.then(exit => (stopped ? new Promise<string>(() => {}) : describeExit(sim, exit)));
        return {
            scenario: options.scenario,
            root,
            procRoot: join(root, 'proc'),
            sysRoot: join(root, 'sys'),
            startMs,
            logs: () => sim.output(),
            lost,
            async stop() {
                stopped = true;
                await sim.stop();
                removeRoot();
            },
        };
    } catch (err) {
        await child?.stop();
        removeRoot();
        throw err;
    }
}

function isFile(path: string): boolean {
    try {
        return statSync(path).isFile();
    } catch {
        return false;
    }
}

/** Where simulatedHostConfig() puts the simulated host's own mdadm, tee, lsblk... (what raidtune runs). */
export function simulatedTool(sim: SimulatedHost, tool: 'mdadm' | 'tee' | 'systemctl' | 'journalctl' | BlockdevTool): string {
    return join(sim.root, 'bin', tool);
}

/**
 * raidtune's whole manifest config for a simulated host: the kernel roots, udev's database, and
 * everything raidtune would write or run outside them (its state, sysctl.d, udev rules, modules-load.d,
 * mdadm.conf, mdadm, systemctl, journalctl, the mail program, the Replace disk dialog's lsblk, wipefs and sfdisk)
 * inside the simulated root too, so a demo or a test never touches this machine's /etc, /var or
 * disks. Writes the wrappers of the simulated mdadm, tee and block-device tools: the simulated tee
 * applies an attribute write inside the write, as the kernel does.
 */
export function simulatedHostConfig(sim: SimulatedHost): Record<string, string> {
    const mdadm = simulatedTool(sim, 'mdadm');
    const tee = simulatedTool(sim, 'tee');
    mkdirSync(dirname(mdadm), { recursive: true });
    writeMdadmWrapper({ path: mdadm, root: sim.root, program: join(repoRoot(), 'build', 'mdadm-sim.mjs') });
    writeMdadmWrapper({ path: tee, root: sim.root, program: join(repoRoot(), 'build', 'tee-sim.mjs'), standsFor: 'tee' });
    const blockdev = Object.fromEntries(BLOCKDEV_TOOLS.map(tool => {
        const path = simulatedTool(sim, tool);
        writeMdadmWrapper({ path, root: sim.root, program: join(repoRoot(), 'build', 'blockdev-sim.mjs'), standsFor: tool, leadingArgs: [tool] });
        return [tool, path];
    })) as Record<BlockdevTool, string>;
    const systemctl = simulatedTool(sim, 'systemctl');
    writeSystemctlStandIn(systemctl, sim.root);
    const journalctl = simulatedTool(sim, 'journalctl');
    writeJournalctlStandIn(journalctl, sim.root);
    writeMonitorFiles(sim.root);
    const sendmail = writeSendmailStandIn(sim.root);
    return {
        procRoot: sim.procRoot,
        sysRoot: sim.sysRoot,
        stateDir: join(sim.root, 'var/lib/raidtune'),
        sysctlDir: join(sim.root, 'etc/sysctl.d'),
        udevRulesDir: join(sim.root, 'etc/udev/rules.d'),
        modulesLoadDir: join(sim.root, 'etc/modules-load.d'),
        udevDataDir: join(sim.root, UDEV_DATA),
        mdadmConfDir: join(sim.root, 'etc'),
        mdadm,
        tee,
        ...blockdev,
        systemctl,
        journalctl,
        sendmail,
    };
}
