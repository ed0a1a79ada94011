// SPDX-License-Identifier: LGPL-2.1-or-later
// Every source file says its license on its first line, as Cockpit's do, with the project's
// license from package.json.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const LICENSE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).license;

/** Source files under `dir`, without test fixtures and what a build or a run leaves. */
function sources(dir: string): string[] {
    return readdirSync(dir).flatMap(name => {
        const path = join(dir, name);
        if (['node_modules', 'fixtures', 'dist', 'build', 'results'].includes(name)) return [];
        if (statSync(path).isDirectory()) return sources(path);
        return /\.(ts|tsx|js|mjs)$/.test(name) ? [relative(ROOT, path)] : [];
    });
}

test('every source file starts with an SPDX line naming the project license', () => {
    const files = ['src', 'sim', 'tools', 'test', 'bench'].flatMap(dir => sources(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(100);
    // Jest reads a test's environment only from a docblock that opens the file: the line follows it there.
    const first = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/^\/\*\*[^]*?\*\/\n/, '').split('\n')[0];
    expect(files.filter(f => first(f) !== `// SPDX-License-Identifier: ${LICENSE}`)).toEqual([]);
});
