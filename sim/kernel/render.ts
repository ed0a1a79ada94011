// SPDX-License-Identifier: LGPL-2.1-or-later
// Everything the tree holds at this moment, rendered from the host state.

import type { HostState } from '../model/types';
import { FileSet, type RenderedFile } from './files';
import { renderProc } from './proc';
import { renderSysfs } from './sysfs';
import { renderUdevDatabase } from './udev';

export function renderTree(state: HostState): Map<string, RenderedFile> {
    const files = new FileSet();
    renderProc(files, state);
    renderSysfs(files, state);
    renderUdevDatabase(files, state);
    leaveOutLacking(files, state.kernel.lacks);
    return files.files;
}

/** The attributes an older kernel does not have (scenario `kernel.lacks`), gone from every device. */
function leaveOutLacking(files: FileSet, lacks: string[]): void {
    if (!lacks.length) return;
    const lacking = new Set(lacks);
    for (const path of files.files.keys()) {
        const underDevice = /^sys\/block\/[^/]+\/(.+)$/.exec(path)?.[1];
        if (underDevice !== undefined && lacking.has(underDevice)) files.files.delete(path);
    }
}
