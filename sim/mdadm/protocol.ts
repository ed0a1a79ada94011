// SPDX-License-Identifier: LGPL-2.1-or-later
// How the simulated mdadm talks to the running simulator: files in <root>/.mdadm/. The mdadm
// program writes <id>.request (JSON MdadmRequest) and waits; the simulator takes it at its next
// tick, applies it to its state, rewrites the tree, then writes <id>.answer (JSON MdadmOutcome).
// Both sides write a temp file and rename it, so neither ever reads half a message.

import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Outside proc/ and sys/, and a dot name, so nothing that reads the tree sees it. */
export const INBOX_DIR = '.mdadm';
export const REQUEST_SUFFIX = '.request';
export const ANSWER_SUFFIX = '.answer';

export function inboxDir(root: string): string {
    return join(root, INBOX_DIR);
}

export function requestPath(root: string, id: string): string {
    return join(inboxDir(root), id + REQUEST_SUFFIX);
}

export function answerPath(root: string, id: string): string {
    return join(inboxDir(root), id + ANSWER_SUFFIX);
}

/** Write then rename: the reader sees the whole file or none. */
export function writeAtomically(path: string, data: unknown): void {
    const temp = `${path}.tmp`;
    writeFileSync(temp, JSON.stringify(data));
    renameSync(temp, path);
}
