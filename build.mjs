// SPDX-License-Identifier: LGPL-2.1-or-later
// Builds the plugin into dist/ and the simulated host into build/.
// `node build.mjs --watch` rebuilds on change (used by `make watch`).
import * as esbuild from 'esbuild';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

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
            await copyFile('src/manifest.json', 'dist/manifest.json');
            await writeIndexHtml(result.metafile);
            await compileTranslations();
        });
    },
};

// PatternFly's base stylesheet without its two icon fonts' classes (Font Awesome, pficon: 78 KB
// raw): PatternFly's React components draw their icons as inline SVG and raidtune uses no `fa-*` or
// `pf-v6-pficon-*` class. The cut is of those files' exact text, so a PatternFly release that
// changes them fails the build instead of shipping them again.
const BASE_CSS = /@patternfly\/patternfly\/patternfly-base\.css$/;
const patternflyBaseWithoutIconFonts = {
    name: 'patternfly-base-without-icon-fonts',
    setup(build) {
        build.onLoad({ filter: BASE_CSS }, async ({ path }) => {
            let css = await readFile(path, 'utf8');
            for (const part of ['patternfly-fa-icons.css', 'patternfly-pf-icons.css']) {
                const text = (await readFile(path.replace(BASE_CSS, `@patternfly/patternfly/base/${part}`), 'utf8')).trim();
                if (!css.includes(text)) throw new Error(`${part} is no longer part of patternfly-base.css as it was`);
                css = css.replace(text, '');
            }
            return { contents: css, loader: 'css', resolveDir: path.replace(/\/[^/]*$/, '') };
        });
    },
};

// The styles build writes only the CSS (and the fonts it refers to), not its JavaScript.
const writeStylesOnly = {
    name: 'write-styles-only',
    setup(build) {
        build.onEnd(async result => {
            for (const file of result.outputFiles ?? []) {
                if (/\.js(\.map|\.LEGAL\.txt)?$/.test(file.path)) continue;
                await mkdir(dirname(file.path), { recursive: true });
                await writeFile(file.path, file.contents);
            }
        });
    },
};

const common = {
    entryPoints: { index: 'src/index.tsx' },
    outdir: 'dist',
    bundle: true,
    target: ['es2020'],
    minify: production,
    sourcemap: production ? false : 'linked',
    legalComments: 'external',
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    loader: { '.woff': 'file', '.woff2': 'file', '.svg': 'file', '.png': 'file', '.jpg': 'file' },
    assetNames: 'assets/[name]-[hash]',
    logLevel: 'warning',
    metafile: true,
};

// The page's JavaScript as ES modules split into chunks: what the first view does not need (the
// change dialogs, the layout details) is imported when first used (src/ui/common/lazyPart.tsx).
// Its CSS imports are left out here: esbuild would split the CSS too, into files nothing loads.
const plugin = {
    ...common,
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    loader: { ...common.loader, '.css': 'empty' },
    plugins: [copyStatic],
};

// All the page's CSS, the later chunks' included, in one index.css that index.html links: it
// is small beside the JavaScript, and a dialog then never shows unstyled.
const styles = {
    ...common,
    format: 'iife',
    write: false,
    plugins: [patternflyBaseWithoutIconFonts, writeStylesOnly],
};

const simulator = {
    entryPoints: { 'mdsim': 'sim/main.ts', 'demo': 'tools/demo.ts', 'mdadm-sim': 'sim/mdadm/main.ts', 'tee-sim': 'sim/tee/main.ts',
        'blockdev-sim': 'sim/blockdev/main.ts' },
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
    entryPoints: { 'bench': 'tools/bench.ts', 'bench-rebuild': 'tools/vm/benchRebuild.ts', 'bench-disk': 'tools/vm/benchDisk.ts', 'bench-eta': 'tools/vm/benchEta.ts', 'eta-replay': 'tools/vm/etaReplay.ts', 'pot': 'tools/i18n/pot.ts',
        'page-timeline': 'tools/pageLoadTimeline.ts' },
    packages: 'external',
};

// `make bench`'s floor page (tools/benchFloorPage.ts): the first view's reads, without the UI.
const benchFloor = {
    entryPoints: { 'bench-floor': 'tools/benchFloorPage.ts' },
    outdir: 'build',
    bundle: true,
    format: 'iife',
    target: ['es2020'],
    minify: true,
    logLevel: 'warning',
};

await rm('dist', { recursive: true, force: true });
await mkdir('dist', { recursive: true });
if (watch) {
    for (const options of [plugin, styles, simulator, tools, benchFloor])
        await (await esbuild.context(options)).watch();
    console.log('watching src/ and sim/ for changes');
} else {
    const [result, css] = await Promise.all([
        esbuild.build(plugin), esbuild.build(styles), esbuild.build(simulator), esbuild.build(tools),
        esbuild.build(benchFloor),
    ]);
    await writeBundledPackages({ inputs: { ...result.metafile.inputs, ...css.metafile.inputs } });
    await writeFirstView(result.metafile);
    await gatherLegalComments(result.metafile);
    // For a look at what makes up each chunk: npx esbuild --analyze, or https://esbuild.github.io/analyze/.
    await writeFile('build/plugin-meta.json', JSON.stringify(result.metafile));
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

// The files the page loads before its first view: the entry, the chunks it imports statically, and
// the one it waits for though it imports it dynamically (index.tsx imports main.tsx once the md read
// is asked for), each with its static imports.
function firstViewFiles(metafile) {
    const awaited = ['src/main.tsx'];
    const files = [];
    const visit = output => {
        if (files.includes(output)) return;
        files.push(output);
        for (const { path, kind } of metafile.outputs[output].imports)
            if (kind === 'import-statement' && metafile.outputs[path]) visit(path);
    };
    visit('dist/index.js');
    for (const entry of awaited) {
        const output = Object.keys(metafile.outputs).find(o => metafile.outputs[o].entryPoint === entry);
        if (!output) throw new Error(`${entry}: no chunk of its own any more (build.mjs firstViewFiles)`);
        visit(output);
    }
    return files;
}

function distRelative(list) {
    return list.map(o => o.replace(/^dist\//, ''));
}

// dist/index.html: src/index.html with a modulepreload link for each file of the first view but the
// entry, so that the browser fetches them all as it reads the page, not a level of imports at a time.
// After the entry, whose imports come first in the list: Cockpit serves a page's files about one at
// a time, and the entry starts the md read.
async function writeIndexHtml(metafile) {
    const html = await readFile('src/index.html', 'utf8');
    const entry = '  <script type="module" src="index.js"></script>\n';
    if (!html.includes(entry)) throw new Error('src/index.html: no index.js script to put the preloads before');
    const links = distRelative(firstViewFiles(metafile).slice(1))
        .map(file => `  <link rel="modulepreload" href="${file}">\n`).join('');
    await writeFile('dist/index.html', html.replace(entry, entry + links));
}

// build/first-view.json: the first view's files for `make bench`; the others come later.
async function writeFirstView(metafile) {
    const files = firstViewFiles(metafile);
    const later = Object.keys(metafile.outputs).filter(o => o.endsWith('.js') && !files.includes(o));
    await writeFile('build/first-view.json', JSON.stringify({ js: distRelative(files), css: ['index.css'], later: distRelative(later) }, null, 2) + '\n');
}

// The bundled packages' license notices in one dist/index.js.LEGAL.txt (the RPM's %license), not
// one file per chunk beside it.
async function gatherLegalComments(metafile) {
    const chunks = Object.keys(metafile.outputs).filter(o => o.startsWith('dist/chunks/') && o.endsWith('.LEGAL.txt'));
    if (!chunks.length) return;
    const texts = [];
    for (const file of ['dist/index.js.LEGAL.txt', ...chunks.sort()]) {
        texts.push((await readFile(file, 'utf8').catch(() => '')).trim());
        if (file !== 'dist/index.js.LEGAL.txt') await rm(file);
    }
    await writeFile('dist/index.js.LEGAL.txt', texts.filter(Boolean).join('\n\n') + '\n');
}
