// SPDX-License-Identifier: LGPL-2.1-or-later
// No import cycle anywhere in src/, type-only imports included: a cycle makes load order decide
// whether a constant exists yet, and it ties modules together that should be read one at a time.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SRC = resolve(__dirname, '../../../src');

function sourceFiles(dir: string): string[] {
    return readdirSync(dir).flatMap(name => {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) return sourceFiles(path);
        return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
    });
}

/** The file a relative specifier names, or null for a package or a non-source file. */
function resolveImport(from: string, specifier: string): string | null {
    if (!specifier.startsWith('.')) return null;
    const base = resolve(dirname(from), specifier);
    const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
    return candidates.find(path => existsSync(path) && statSync(path).isFile() && /\.tsx?$/.test(path)) ?? null;
}

/** Every module a file imports or re-exports, `import type` and `export type ... from` included. */
function importsOf(file: string): string[] {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    return info.importedFiles
        .map(ref => resolveImport(file, ref.fileName))
        .filter((path): path is string => path !== null);
}

/** One cycle per strongly connected part of the graph (Tarjan), each as a list of files. */
function findCycles(graph: Map<string, string[]>): string[][] {
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    let next = 0;
    const visit = (node: string): void => {
        index.set(node, next);
        low.set(node, next);
        next++;
        stack.push(node);
        onStack.add(node);
        for (const to of graph.get(node) ?? []) {
            if (!index.has(to)) {
                visit(to);
                low.set(node, Math.min(low.get(node)!, low.get(to)!));
            } else if (onStack.has(to)) {
                low.set(node, Math.min(low.get(node)!, index.get(to)!));
            }
        }
        if (low.get(node) !== index.get(node)) return;
        const part: string[] = [];
        let member: string;
        do {
            member = stack.pop()!;
            onStack.delete(member);
            part.push(member);
        } while (member !== node);
        const selfImport = (graph.get(node) ?? []).includes(node);
        if (part.length > 1 || selfImport) cycles.push(part.sort());
    };
    for (const node of graph.keys()) if (!index.has(node)) visit(node);
    return cycles;
}

describe('import cycles', () => {
    test('the checker finds a cycle, a self-import and no false one', () => {
        const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['d']], ['e', ['a']]]);
        expect(findCycles(graph)).toEqual([['a', 'b', 'c'], ['d']]);
    });

    test('the checker reads type-only imports and re-exports', () => {
        const file = join(SRC, 'md/diagnosis/samples.ts');
        expect(importsOf(file).map(path => relative(SRC, path))).toContain('md/sysfs.ts');
    });

    test('src/ has none', () => {
        const graph = new Map(sourceFiles(SRC).map(file => [file, importsOf(file)]));
        const cycles = findCycles(graph).map(part => part.map(file => relative(SRC, file)));
        expect(cycles).toEqual([]);
    });

    // One direction between the UI's areas (app -> arrays -> sync, diagnosis, tuning -> plan ->
    // common): what two areas share lives in common, which imports no other area.
    test('the folders of src/ui import each other in one direction only', () => {
        const UI = join(SRC, 'ui');
        const folderOf = (file: string) => relative(UI, file).split('/')[0];
        const folders = new Map<string, Set<string>>();
        for (const file of sourceFiles(UI).filter(f => relative(UI, f).includes('/'))) {
            const from = folderOf(file);
            const to = importsOf(file).filter(f => f.startsWith(UI + '/') && relative(UI, f).includes('/')).map(folderOf);
            const set = folders.get(from) ?? new Set<string>();
            to.filter(folder => folder !== from).forEach(folder => set.add(folder));
            folders.set(from, set);
        }
        expect(findCycles(new Map([...folders].map(([k, v]) => [k, [...v]])))).toEqual([]);
        expect([...folders.get('common') ?? []]).toEqual([]);
    });
});
