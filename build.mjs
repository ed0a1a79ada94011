// SPDX-License-Identifier: LGPL-2.1-or-later
// Builds the plugin into dist/ and the simulated host into build/.
// `node build.mjs --watch` rebuilds on change (used by `make watch`).
import * as esbuild from 'esbuild';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';

const watch = process.argv.includes('--watch');
const production = !watch && process.env.NODE_ENV !== 'development';

// Translations: po/<lang>.po -> dist/po.<lang>.js, the script Cockpit serves for "po.js" to a user
// of that language (tools/i18n/po.ts, TypeScript, loaded here through esbuild).
async function loadPoTools() {
    const { outputFiles } = await esbuild.build({
        entryPoints: ['tools/i18n/po.ts'], bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'warning',
    });
    return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
}
const poTools = await loadPoTools();

async function compileTranslations() {
    for (const file of (await readdir('po')).filter(f => f.endsWith('.po')).sort()) {
        const language = poTools.poLanguage(file);
        const po = poTools.parsePo(await readFile(`po/${file}`, 'utf8'), `po/${file}`);
        await writeFile(`dist/po.${language}.js`, poTools.compilePoJs(po, language));
    }
}

const copyStatic = {
    name: 'copy-static',
    setup(build) {
        build.onEnd(async result => {
            if (result.errors.length) return;
            for (const file of ['index.html', 'manifest.json'])
                await copyFile(`src/${file}`, `dist/${file}`);
            await compileTranslations();
        });
    },
};

const plugin = {
    entryPoints: { index: 'src/index.tsx' },
    outdir: 'dist',
    bundle: true,
    format: 'iife',
    target: ['es2020'],
    minify: production,
    sourcemap: production ? false : 'linked',
    legalComments: 'external',
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    loader: { '.woff': 'file', '.woff2': 'file', '.svg': 'file', '.png': 'file', '.jpg': 'file' },
    assetNames: 'assets/[name]-[hash]',
    logLevel: 'warning',
    metafile: true,
    plugins: [copyStatic],
};

const simulator = {
    entryPoints: { 'mdsim': 'sim/main.ts', 'demo': 'tools/demo.ts', 'mdadm-sim': 'sim/mdadm/main.ts', 'tee-sim': 'sim/tee/main.ts' },
    outdir: 'build',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: ['node20'],
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
};

// Node tools that drive Chromium: playwright-core stays in node_modules, not in the bundle.
const tools = {
    ...simulator,
    entryPoints: { 'bench': 'tools/bench.ts', 'bench-rebuild': 'tools/vm/benchRebuild.ts', 'bench-eta': 'tools/vm/benchEta.ts', 'pot': 'tools/i18n/pot.ts' },
    packages: 'external',
};

await rm('dist', { recursive: true, force: true });
await mkdir('dist', { recursive: true });
if (watch) {
    for (const options of [plugin, simulator, tools])
        await (await esbuild.context(options)).watch();
    console.log('watching src/ and sim/ for changes');
} else {
    const [result] = await Promise.all([esbuild.build(plugin), esbuild.build(simulator), esbuild.build(tools)]);
    await writeBundledPackages(result.metafile);
}

// build/bundled-provides.txt: the npm packages whose code or files are in dist/, one
// "Provides: bundled(npm(NAME)) = VERSION" line each, for the RPM spec (make cockpit-raidtune.spec).
async function writeBundledPackages(metafile) {
    const packages = new Map();
    for (const input of Object.keys(metafile.inputs)) {
        const m = input.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)\//);
        if (m && !packages.has(m[1]))
            packages.set(m[1], JSON.parse(await readFile(`node_modules/${m[1]}/package.json`, 'utf8')).version);
    }
    const lines = [...packages].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, version]) => `Provides: bundled(npm(${name})) = ${version}`);
    await writeFile('build/bundled-provides.txt', lines.join('\n') + '\n');
}
