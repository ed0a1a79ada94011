// SPDX-License-Identifier: LGPL-2.1-or-later
// A temporary tree shaped like sysfs (and procfs, state dirs) for the host scripts' tests: each test
// gets a fresh one, removed after it. Plain files take any value, so the kernel's own part is left
// to the VM tier.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface FakeTree {
    /** The path of `path` inside the current test's tree. */
    at(path: string): string;
    /** Writes `text` and a newline, as sysfs shows a value. */
    write(path: string, text: string): void;
    /** md attributes of array `name` under sys/block/NAME/md. */
    md(name: string, attributes: Record<string, string>): void;
}

/** Sets up beforeEach/afterEach for a fresh tree named after `prefix`. */
export function fakeTree(prefix: string): FakeTree {
    let root = '';
    beforeEach(() => { root = mkdtempSync(join(tmpdir(), prefix)); });
    afterEach(() => rmSync(root, { recursive: true, force: true }));
    const at = (path: string) => join(root, path);
    const write = (path: string, text: string) => {
        mkdirSync(dirname(at(path)), { recursive: true });
        writeFileSync(at(path), `${text}\n`);
    };
    const md = (name: string, attributes: Record<string, string>) => {
        for (const [file, value] of Object.entries(attributes)) write(`sys/block/${name}/md/${file}`, value);
    };
    return { at, write, md };
}
