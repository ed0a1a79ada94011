// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulator's side of the simulated mdadm and tee: requests found in <root>/.mdadm/ are applied
// at the tick's start, next to the attribute writes, or at once when the simulator is told one
// arrived (main.ts watches the folder), and answered after the tree was rewritten, so when the
// program exits a reader already sees what it did (as with the real ones).

import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { HostState } from '../model/types';
import { MANAGE_OPERATIONS, type BitmapRequest, type ManageRequest, type MdadmOutcome, type MdadmRequest, type StopRequest } from './args';
import { stopArray } from './stop';
import { growBitmap } from './grow';
import { manageMembers } from './manage';
import { answerPath, inboxDir, REQUEST_SUFFIX, writeAtomically } from './protocol';
import { applyWriteRequest, isWriteRequest, type WriteRequest } from '../tee/request';
import { applyBlockdevRequest, isBlockdevRequest, type BlockdevRequest } from '../blockdev/request';
import type { WriteOutcome } from '../writes/attributes';

export interface MdadmEvent {
    request: MdadmRequest | null;
    outcome: MdadmOutcome;
}

/** A request of the simulated lsblk, wipefs or sfdisk and its answer, as SimulatedHostOptions.onBlockdev reports it. */
export interface BlockdevEvent {
    request: BlockdevRequest['blockdev'];
    outcome: MdadmOutcome;
}

/** A write through the simulated tee, as SimulatedHostOptions.onWrite reports it. */
export type TeeWriteHandler = (write: WriteRequest['write'], outcome: WriteOutcome | null) => void;

function isBitmapRequest(data: unknown): data is BitmapRequest {
    const r = data as BitmapRequest;
    return typeof r?.device === 'string' && typeof r.array === 'string' && (r.bitmap === 'internal' || r.bitmap === 'none') &&
        (r.chunkBytes === null || (Number.isSafeInteger(r.chunkBytes) && r.chunkBytes > 0));
}

function isManageRequest(data: unknown): data is ManageRequest {
    const r = data as ManageRequest;
    return typeof r?.device === 'string' && typeof r.array === 'string' && Array.isArray(r.operations) &&
        r.operations.every(o => MANAGE_OPERATIONS.includes(o?.operation) && typeof o.member === 'string');
}

function isStopRequest(data: unknown): data is StopRequest {
    const r = data as StopRequest;
    return typeof r?.device === 'string' && typeof r.array === 'string' && r.stop === true;
}

function apply(state: HostState, request: MdadmRequest): MdadmOutcome {
    if ('stop' in request) return stopArray(state, request);
    return 'operations' in request ? manageMembers(state, request) : growBitmap(state, request);
}

const BAD_REQUEST: MdadmOutcome = { exitCode: 1, stdout: '', stderr: 'mdadm (simulated): the simulator could not read the request\n' };

export class MdadmInbox {
    private answers: { id: string; outcome: MdadmOutcome }[] = [];

    /** Starts empty: requests left by an earlier run of the simulator on this root are dropped. */
    constructor(private readonly root: string) {
        rmSync(inboxDir(root), { recursive: true, force: true });
        mkdirSync(inboxDir(root));
    }

    /** Apply the requests that arrived since the last tick, oldest first (ids start with the time). */
    receive(state: HostState, onRequest?: (event: MdadmEvent) => void, onWrite?: TeeWriteHandler,
        onBlockdev?: (event: BlockdevEvent) => void): void {
        const ids = readdirSync(inboxDir(this.root)).filter(name => name.endsWith(REQUEST_SUFFIX))
            .map(name => name.slice(0, -REQUEST_SUFFIX.length)).sort();
        for (const id of ids) {
            const path = join(inboxDir(this.root), id + REQUEST_SUFFIX);
            let request: MdadmRequest | null = null;
            let data: unknown = null;
            try {
                data = JSON.parse(readFileSync(path, 'utf8'));
                if (isBitmapRequest(data) || isManageRequest(data) || isStopRequest(data)) request = data;
            } catch {
                // answered as a bad request below
            }
            rmSync(path, { force: true });
            if (isWriteRequest(data)) {
                const { outcome, result } = applyWriteRequest(state, data);
                onWrite?.(data.write, outcome);
                this.answers.push({ id, outcome: result });
                continue;
            }
            if (isBlockdevRequest(data)) {
                const outcome = applyBlockdevRequest(state, data);
                onBlockdev?.({ request: data.blockdev, outcome });
                this.answers.push({ id, outcome });
                continue;
            }
            const outcome = request ? apply(state, request) : BAD_REQUEST;
            onRequest?.({ request, outcome });
            this.answers.push({ id, outcome });
        }
    }

    /** Answer what receive() applied; call once the tree shows it. */
    reply(): void {
        for (const { id, outcome } of this.answers.splice(0)) writeAtomically(answerPath(this.root, id), outcome);
    }
}
