// Everything the tree holds at this moment, rendered from the host state.

import type { HostState } from '../model/types';
import { FileSet, type RenderedFile } from './files';
import { renderProc } from './proc';
import { renderSysfs } from './sysfs';

export function renderTree(state: HostState): Map<string, RenderedFile> {
    const files = new FileSet();
    renderProc(files, state);
    renderSysfs(files, state);
    return files.files;
}
