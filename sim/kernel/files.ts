// SPDX-License-Identifier: LGPL-2.1-or-later
// The rendered tree: relative path -> file content, plus which files accept writes (the ones
// sim/writes/ handles). Kernel attribute files end in a newline; the writers add it.

export interface RenderedFile {
    content: string;
    /** Accepts `tee` writes that the simulator applies (mode 0644); others are read-only (0444). */
    writable: boolean;
}

export class FileSet {
    readonly files = new Map<string, RenderedFile>();

    /** One-line attribute: the value plus the newline the kernel prints. */
    attribute(path: string, value: string | number, writable = false): void {
        this.files.set(path, { content: `${value}\n`, writable });
    }

    /** A whole file, exactly as given. */
    file(path: string, content: string, writable = false): void {
        this.files.set(path, { content, writable });
    }
}
