// SPDX-License-Identifier: LGPL-2.1-or-later
// A write into the simulated tree through the simulated `tee`: applied by the simulator at once,
// like a sysfs/procfs store function runs inside write(2), so when tee exits the tree reads what
// the kernel would read back and a refused write failed with the kernel's errno (a plain write
// into the tree is noticed only at the simulator's next tick: too late for a read-back).

import type { MdadmOutcome } from '../mdadm/args';
import type { HostState } from '../model/types';
import { applyAttributeWrite, type WriteOutcome } from '../writes/attributes';

export interface WriteRequest {
    write: {
        /** Relative to the simulated root: "sys/block/sda/queue/nr_requests". */
        path: string;
        /** The path as tee was given it, for its error message. */
        shown: string;
        value: string;
    };
}

export function isWriteRequest(data: unknown): data is WriteRequest {
    const w = (data as WriteRequest)?.write;
    return typeof w?.path === 'string' && typeof w.shown === 'string' && typeof w.value === 'string';
}

/** strerror() of the errnos the simulated store functions return, as GNU tee prints them. */
const ERRNO_TEXT: Record<string, string> = {
    EINVAL: 'Invalid argument',
    ERANGE: 'Numerical result out of range',
    EBUSY: 'Device or resource busy',
};

/** Apply the write; `outcome` is null for a file the simulated kernel takes no writes to. */
export function applyWriteRequest(state: HostState,
    { write }: WriteRequest): { outcome: WriteOutcome | null; result: MdadmOutcome } {
    const outcome = applyAttributeWrite(state, write.path, write.value);
    const failed = (reason: string): MdadmOutcome => ({ exitCode: 1, stdout: '', stderr: `tee: ${write.shown}: ${reason}\n` });
    if (outcome === null) return { outcome, result: failed('Permission denied') };
    if (outcome.applied) return { outcome, result: { exitCode: 0, stdout: '', stderr: '' } };
    return { outcome, result: failed(ERRNO_TEXT[outcome.error] ?? `Operation not supported (${outcome.error})`) };
}
