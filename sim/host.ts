// SPDX-License-Identifier: LGPL-2.1-or-later
// A simulated md host: a scenario's state, kept alive over a /proc + /sys shaped tree. Each
// tick first applies what was written into the tree since the last one (like the kernel's
// store functions), then advances time, then rewrites what changed.

import { join } from 'node:path';
import { markReady, prepareRoot, TreeWriter } from './fs/tree';
import { renderTree } from './kernel/render';
import { MdadmInbox, type BlockdevEvent, type MdadmEvent } from './mdadm/inbox';
import { buildHostState } from './model/build';
import type { HostState } from './model/types';
import { advanceHost, startHost } from './physics/tick';
import { createRng, type Rng } from './random';
import { loadScenario, parseScenario } from './scenario/load';
import type { ScenarioSpec } from './scenario/types';
import { applyAttributeWrite, type WriteOutcome } from './writes/attributes';

export interface WriteEvent {
    /** Relative to the root ("sys/block/md0/md/sync_action"). */
    path: string;
    value: string;
    /** null: not a file the simulator accepts writes to. */
    outcome: WriteOutcome | null;
}

export interface SimulatedHostOptions {
    /** Seeds the speed jitter. Default 1. */
    seed?: number;
    /** Told about every external write found, applied or refused. */
    onWrite?: (event: WriteEvent) => void;
    /** Told about every request of the simulated mdadm (sim/mdadm/README.md) and its outcome. */
    onMdadm?: (event: MdadmEvent) => void;
    /** Told about every request of the simulated lsblk, wipefs and sfdisk and its outcome. */
    onBlockdev?: (event: BlockdevEvent) => void;
}

export interface SimulatedHost {
    readonly root: string;
    readonly state: HostState;
    /** Apply pending writes, advance `seconds` of simulated time, rewrite the tree. */
    tick(seconds: number): void;
    /**
     * Apply pending writes and the simulated programs' requests now, without advancing time, and
     * answer them: a tee write takes effect inside the write, as in the kernel.
     */
    serveRequests(): void;
    /** Stop: the tree stays on disk as it is. */
    close(): void;
}

class Host implements SimulatedHost {
    readonly state: HostState;
    private readonly writer: TreeWriter;
    private readonly rng: Rng;
    private readonly mdadm: MdadmInbox;
    private closed = false;

    constructor(spec: ScenarioSpec, readonly root: string, private readonly options: SimulatedHostOptions) {
        this.state = buildHostState(spec);
        this.rng = createRng(options.seed ?? 1);
        prepareRoot(root);
        this.writer = new TreeWriter(root);
        this.mdadm = new MdadmInbox(root);
        const resumed = new Set((spec.arrays ?? []).filter(a => a.sync && !a.sync.frozen).map(a => a.name));
        startHost(this.state, resumed);
        this.writer.sync(renderTree(this.state));
        markReady(root);
    }

    tick(seconds: number): void {
        if (this.closed) throw new Error('mdsim: tick() after close()');
        this.takeWrites();
        advanceHost(this.state, seconds, this.rng);
        this.publish();
    }

    serveRequests(): void {
        if (this.closed) throw new Error('mdsim: serveRequests() after close()');
        this.takeWrites();
        this.publish();
    }

    /** Apply what was written into the tree and what the simulated programs asked for. */
    private takeWrites(): void {
        for (const [path, value] of this.writer.collectExternalWrites()) {
            const outcome = applyAttributeWrite(this.state, path, value);
            this.options.onWrite?.({ path, value, outcome });
        }
        this.mdadm.receive(this.state, this.options.onMdadm, (write, outcome) =>
            this.options.onWrite?.({ path: write.path, value: write.value, outcome }), this.options.onBlockdev);
    }

    /** Rewrite the tree, then answer the programs: when one exits, the tree shows what it did. */
    private publish(): void {
        this.writer.sync(renderTree(this.state));
        this.mdadm.reply();
    }

    close(): void {
        this.closed = true;
    }
}

/**
 * Create the tree for a scenario under `root` (root/proc, root/sys, then root/.ready) and return
 * the host to drive. `scenario` is a built-in name, a file path, or a scenario object.
 */
export function createSimulatedHost(scenario: ScenarioSpec | string, root: string,
    options: SimulatedHostOptions = {}): SimulatedHost {
    const spec = typeof scenario === 'string' ? loadScenario(scenario) : parseScenario(scenario, scenario.name ?? 'scenario');
    return new Host(spec, root, options);
}

export const procRoot = (root: string): string => join(root, 'proc');
export const sysRoot = (root: string): string => join(root, 'sys');
