// SPDX-License-Identifier: LGPL-2.1-or-later
// Turns a real-kernel capture folder (test/fixtures/real-kernel/NAME) into what the host would
// hold: a map of canonical path -> file content, and helpers to lay it out as a directory tree.

import { mkdirSync, readFileSync, existsSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const CAPTURES = join(__dirname, '../../fixtures/real-kernel');
/** Captures of Debian's 7.3 kernel (tools/vm/capture-states.sh), same format. */
export const CAPTURES_7 = join(__dirname, '../../fixtures/real-kernel-7');

/** Lines "path: value" (multi-line values joined by a literal \n; symlinks "a -> b"; unreadable markers). */
function parsePathValueLines(text: string, files: Map<string, string>): void {
    for (const line of text.split('\n')) {
        const m = line.match(/^(\/[^:\s]+): ?(.*)$/);
        if (!m || m[2].startsWith('<unreadable')) continue;
        files.set(m[1], m[2].split('\\n').join('\n') + '\n');
    }
}

export function loadCaptureFiles(name: string, captures = CAPTURES): Map<string, string> {
    const dir = join(captures, name);
    const files = new Map<string, string>();
    for (const part of ['sysfs.txt', 'members-sysfs.txt', 'proc-sys-dev-raid.txt']) {
        const path = join(dir, part);
        if (existsSync(path)) parsePathValueLines(readFileSync(path, 'utf8'), files);
    }
    files.set('/proc/mdstat', readFileSync(join(dir, 'mdstat'), 'utf8'));
    return files;
}

/** Write the files under root/proc and root/sys, as a simulated host would hold them. */
export function writeTree(root: string, files: Map<string, string>): void {
    for (const [path, content] of files) {
        const target = join(root, path);
        mkdirSync(dirname(target), { recursive: true });
        replaceFile(target, content);
    }
}

/**
 * Writes a file whole, as the kernel's files read: a page reading it meanwhile gets the old text or
 * the new one. Written in place, a read between the truncation and the write got an empty
 * /proc/mdstat (a CI run's errors.test.ts saw an empty overview that way).
 */
export function replaceFile(path: string, content: string): void {
    const temp = join(dirname(path), `.${basename(path)}.test-tmp`);
    writeFileSync(temp, content);
    renameSync(temp, path);
}
