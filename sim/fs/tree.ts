// SPDX-License-Identifier: LGPL-2.1-or-later
// Keeps the directory tree equal to the rendered files. Every file is replaced atomically (temp
// file + rename), so a reader never sees half a file. Writable attributes are also watched:
// `tee FILE` truncates and writes the same inode in place, which changes its size or mtime
// without a rename, so comparing against what we last wrote finds every external write.

import {
    closeSync, existsSync, fchmodSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync,
    rmdirSync, statSync, unlinkSync, writeFileSync, writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { RenderedFile } from '../kernel/files';

/** Marks a directory tree as ours: only then is an old proc/, sys/ and run/udev/ under the root cleared. */
const MARKER = '.mdsim';
const READY = '.ready';

interface Written {
    content: string;
    writable: boolean;
    ino: bigint;
    mtimeNs: bigint;
    size: bigint;
    /** Changed behind our back: write it again even if the rendered content is the same. */
    stale: boolean;
}

/**
 * Make `root` ready for a fresh tree: create it, or clear the proc/, sys/ and run/udev/ (udev's
 * database) a previous run left. Refuses a root holding one of them that this simulator did not
 * create (think --root /).
 */
export function prepareRoot(root: string): void {
    const ours = existsSync(join(root, MARKER));
    for (const name of ['proc', 'sys', 'run/udev']) {
        const path = join(root, name);
        if (!existsSync(path)) continue;
        if (!ours) throw new Error(`${root} already has a ${name}/ that mdsim did not create; choose an empty or new directory`);
        rmSync(path, { recursive: true, force: true });
    }
    rmSync(join(root, READY), { force: true });
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, MARKER), 'A simulated md host tree written by mdsim (sim/README.md).\n');
}

export function markReady(root: string): void {
    writeFileSync(join(root, READY), `${process.pid}\n`);
}

export class TreeWriter {
    private readonly written = new Map<string, Written>();
    private readonly knownDirs = new Set<string>();
    /** Files found empty once: `tee` may have truncated without writing yet. */
    private readonly emptyOnce = new Set<string>();

    constructor(readonly root: string) {}

    /** Writable files whose content someone else changed since we wrote them: path -> content. */
    collectExternalWrites(): Map<string, string> {
        const changed = new Map<string, string>();
        for (const [path, record] of this.written) {
            if (!record.writable) continue;
            const full = join(this.root, path);
            const stat = statSync(full, { bigint: true, throwIfNoEntry: false });
            if (!stat) {
                record.stale = true; // removed: put it back
                continue;
            }
            if (stat.ino === record.ino && stat.mtimeNs === record.mtimeNs && stat.size === record.size) continue;
            const content = readFileSync(full, 'utf8');
            if (content === '' && !this.emptyOnce.has(path)) {
                this.emptyOnce.add(path);
                continue;
            }
            this.emptyOnce.delete(path);
            record.stale = true; // show what the kernel would read back, whatever was written
            if (content !== record.content) changed.set(path, content);
        }
        return changed;
    }

    /** Bring the tree in line with `files`: replace what changed, remove what is gone. Returns files written. */
    sync(files: Map<string, RenderedFile>): number {
        let count = 0;
        for (const [path, file] of files) {
            const record = this.written.get(path);
            if (record && !record.stale && record.content === file.content && record.writable === file.writable) {
                continue;
            }
            this.replace(path, file);
            count++;
        }
        const emptied = new Set<string>();
        for (const path of [...this.written.keys()]) {
            if (files.has(path)) continue;
            rmSync(join(this.root, path), { force: true });
            this.written.delete(path);
            emptied.add(dirname(join(this.root, path)));
        }
        for (const dir of emptied) this.removeEmptyDirs(dir);
        return count;
    }

    /** A directory whose last file went goes too (a removed md member's dev-X/), and so on upwards. */
    private removeEmptyDirs(dir: string): void {
        while (dir.startsWith(`${this.root}/`) && existsSync(dir) && readdirSync(dir).length === 0) {
            rmdirSync(dir);
            this.knownDirs.delete(dir);
            dir = dirname(dir);
        }
    }

    private replace(path: string, file: RenderedFile): void {
        const full = join(this.root, path);
        const dir = dirname(full);
        if (!this.knownDirs.has(dir)) {
            mkdirSync(dir, { recursive: true });
            this.knownDirs.add(dir);
        }
        // A dot name keeps the temp file out of the readers' globs (block/*/..., dev-*).
        const temp = join(dir, `.${basename(full)}.mdsim-tmp`);
        const mode = file.writable ? 0o644 : 0o444;
        const fd = this.openTemp(temp, mode);
        let stat;
        try {
            fchmodSync(fd, mode); // sysfs modes do not depend on the umask
            writeSync(fd, file.content);
            stat = fstatSync(fd, { bigint: true });
        } finally {
            closeSync(fd);
        }
        renameSync(temp, full);
        this.written.set(path, {
            content: file.content, writable: file.writable, ino: stat.ino, mtimeNs: stat.mtimeNs, size: stat.size,
            stale: false,
        });
    }

    private openTemp(temp: string, mode: number): number {
        try {
            return openSync(temp, 'w', mode);
        } catch {
            unlinkSync(temp); // a read-only leftover of an interrupted run
            return openSync(temp, 'w', mode);
        }
    }
}
