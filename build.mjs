// Builds the plugin into dist/ and the simulated host into build/.
// `node build.mjs --watch` rebuilds on change (used by `make watch`).
import * as esbuild from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';

const watch = process.argv.includes('--watch');
const production = !watch && process.env.NODE_ENV !== 'development';

const copyStatic = {
    name: 'copy-static',
    setup(build) {
        build.onEnd(async result => {
            if (result.errors.length) return;
            for (const file of ['index.html', 'manifest.json'])
                await copyFile(`src/${file}`, `dist/${file}`);
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
    entryPoints: { 'mdsim': 'sim/main.ts', 'demo': 'tools/demo.ts' },
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
    entryPoints: { 'bench': 'tools/bench.ts' },
    packages: 'external',
};

await rm('dist', { recursive: true, force: true });
await mkdir('dist', { recursive: true });
if (watch) {
    for (const options of [plugin, simulator, tools])
        await (await esbuild.context(options)).watch();
    console.log('watching src/ and sim/ for changes');
} else {
    await Promise.all([esbuild.build(plugin), esbuild.build(simulator), esbuild.build(tools)]);
}
