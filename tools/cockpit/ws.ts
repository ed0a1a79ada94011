// SPDX-License-Identifier: LGPL-2.1-or-later
// A private, real cockpit-ws + cockpit-bridge serving one plugin folder, without TLS or login.
//
// Everything is isolated in a temp dir:
//   <tmp>/data/cockpit/<plugin> -> the plugin folder (XDG_DATA_HOME; /usr/share/cockpit still serves
//                                  base1, shell, static)
//   <tmp>/etc                      (XDG_CONFIG_DIRS: replaces /etc, so no /etc/cockpit overrides)
//   <tmp>/config/cockpit/<plugin>.override.json   (XDG_CONFIG_HOME: our manifest override)
//   <tmp>/bus                      a private session D-Bus (the bridge would otherwise start its own
//                                  dbus-daemon that outlives it)
// Packages are scanned when the bridge starts: a changed override needs a new startCockpit().
// Rebuilt plugin files are served live, except with `runAs`: then each package is a copy (see
// servePackage).
//
// With `localSession` the session is some other program (e.g. a pipe to a cockpit-bridge inside a
// VM, tools/vm/ws.ts): no bridge, D-Bus daemon, plugin folder or override here; only ws itself
// (XDG_CONFIG_DIRS still hides the host's /etc/cockpit/cockpit.conf).
import { execFileSync } from 'node:child_process';
import {
    cpSync, existsSync, lchownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync,
    writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openKeepAlive, type KeepAlive } from './keepalive';
import { describeExit, formatOutput, repoRoot, sleep, startChild, type Child } from './proc';
import { cockpitUnderTest, type CockpitInstall } from './versions';


/** The plugin's manifest `config` (all optional: Cockpit merge-patches it over the manifest's). */
export interface RaidtuneConfig {
    procRoot?: string;
    sysRoot?: string;
    mdadm?: string;
    [key: string]: unknown;
}

export interface CockpitOptions {
    /** Folder served as the package (default: <repo>/dist). */
    pluginDir?: string;
    /** Package name, i.e. the URL path segment (default: raidtune). */
    pluginName?: string;
    /** Written to <plugin>.override.json as { "config": ... }; omitted = no override. */
    config?: RaidtuneConfig;
    /**
     * Other top-level manifest keys for <plugin>.override.json, e.g. `conditions` pointing at a
     * simulated host (see simulatedHostConditions()). Merged next to `config`.
     */
    manifest?: Record<string, unknown>;
    /** More packages to serve: name -> folder (e.g. a stand-in "storage" package). */
    extraPackages?: Record<string, string>;
    /** Listen address (default 127.0.0.1). */
    address?: string;
    /** Port (default: a free one). */
    port?: number;
    /**
     * Hold one websocket open so the session never times out (default true). Without it the
     * session ends ~15 s after the last page closes and every later request gets 401.
     */
    keepAlive?: boolean;
    /**
     * How long to wait for cockpit-ws to answer and, with the keep-alive, for the session to
     * send its init (default 15 s).
     */
    timeoutMs?: number;
    /**
     * Program ws runs as the session (`--local-session=PROGRAM`, the session on its stdin/stdout)
     * instead of the host's cockpit-bridge. The packages, their overrides and D-Bus are then the
     * session's business: pluginDir, config, manifest and extraPackages are refused.
     */
    localSession?: string;
    /** Which Cockpit runs (default: the one RAIDTUNE_COCKPIT names, see versions.ts). */
    cockpit?: CockpitInstall;
    /** Called with cockpit-ws's pid as soon as it is spawned (e.g. to record it for a clean-up). */
    onSpawn?: (pid: number) => void;
    /**
     * Run ws, the bridge and the session bus as this (unprivileged) user, so the page sees what a
     * user without administrative access sees. The packages are copied into the session's own
     * folder for that user, wherever the plugin folder lies.
     */
    runAs?: string;
    /**
     * Run udisks2's daemon (as root) on a private system bus that the session uses, for Cockpit's
     * own Storage page (cockpit-storaged reads everything from it): `make bench` loads that page
     * beside raidtune's. It sees this machine's real block devices.
     */
    udisks?: boolean;
}

/** Where Debian's udisks2 puts its daemon (tools/install-deps.sh installs it). */
export const UDISKSD = '/usr/libexec/udisks2/udisksd';

export interface Cockpit {
    /** cockpit-ws's process id. */
    readonly pid: number;
    readonly port: number;
    readonly origin: string;
    /** `url('/cockpit/@localhost/raidtune/index.html')` -> absolute URL. */
    url(path: string): string;
    /** The plugin page alone: http://HOST:PORT/cockpit/@localhost/<plugin>/index.html */
    readonly barePageUrl: string;
    /** The plugin inside the shell (iframe `cockpit1:localhost/<plugin>`): http://HOST:PORT/<plugin> */
    readonly shellUrl: string;
    /** Name of the shell's iframe that holds the plugin. */
    readonly shellFrameName: string;
    readonly tmpDir: string;
    /**
     * Milliseconds from spawning cockpit-ws (incl. the D-Bus daemon) to the first HTTP answer;
     * with `localSession` and the keep-alive, until the session answered.
     */
    readonly startMs: number;
    /** cockpit-ws (+ bridge) output so far. */
    logs(): string;
    /**
     * Resolves with a reason when the session is gone without stop() being called: cockpit-ws
     * exited or the keep-alive websocket closed. Never rejects.
     */
    readonly lost: Promise<string>;
    /** True when an authenticated resource still answers 200 (false once the session is gone). */
    sessionAlive(): Promise<boolean>;
    /** Stops cockpit-ws, the bridge and the D-Bus daemon, removes the temp dir. Idempotent. */
    stop(): Promise<void>;
}

export async function startCockpit(options: CockpitOptions = {}): Promise<Cockpit> {
    const pluginName = options.pluginName ?? 'raidtune';
    const localSession = options.localSession;
    const pluginDir = resolve(options.pluginDir ?? join(repoRoot(), 'dist'));
    const address = options.address ?? '127.0.0.1';
    const timeoutMs = options.timeoutMs ?? 15000;
    const cockpit = options.cockpit ?? cockpitUnderTest();
    if (!existsSync(cockpit.ws))
        throw new Error(`${cockpit.ws} is missing: run tools/install-deps.sh`);
    if (localSession !== undefined) {
        const local = (['pluginDir', 'config', 'manifest', 'extraPackages'] as const).filter(k => options[k] !== undefined);
        if (local.length)
            throw new Error(`startCockpit: ${local.join(', ')} cannot apply with localSession (the session serves the packages)`);
    } else if (!existsSync(join(pluginDir, 'manifest.json'))) {
        throw new Error(`${pluginDir}/manifest.json is missing: run make first`);
    }

    const user = options.runAs === undefined ? undefined : lookUpUser(options.runAs);
    const tmpDir = mkdtempSync(join(tmpdir(), 'raidtune-ws-'));
    const cleanups: (() => Promise<unknown> | void)[] = [() => rmSync(tmpDir, { recursive: true, force: true })];
    const cleanup = async () => {
        while (cleanups.length)
            await cleanups.pop()!();
    };

    try {
        mkdirSync(join(tmpDir, 'etc'), { recursive: true });
        const t0 = performance.now();
        let env: NodeJS.ProcessEnv;
        if (localSession === undefined) {
            mkdirSync(join(tmpDir, 'data', 'cockpit'), { recursive: true });
            mkdirSync(join(tmpDir, 'config', 'cockpit'), { recursive: true });
            const packages = { ...options.extraPackages, [pluginName]: pluginDir };
            for (const [name, dir] of Object.entries(packages))
                servePackage(resolve(dir), join(tmpDir, 'data', 'cockpit', name), user !== undefined);
            if (options.config || options.manifest) {
                writeFileSync(join(tmpDir, 'config', 'cockpit', `${pluginName}.override.json`),
                    JSON.stringify({ ...options.manifest, ...(options.config ? { config: options.config } : {}) }, null, 2) + '\n');
            }
            if (user) handOver(tmpDir, user);
            const bus = await startSessionBus(join(tmpDir, 'bus'), user);
            cleanups.push(() => bus.stop());
            // The shell's idea of the system: a bus with nothing on it is enough for the Python
            // bridge, which crashes without one (the C bridge just reports that it cannot connect).
            const systemBus = cockpit.needsSystemBus || options.udisks
                ? await startSessionBus(join(tmpDir, 'system-bus'), user) : undefined;
            if (systemBus)
                cleanups.push(() => systemBus.stop());
            if (systemBus && options.udisks) {
                const udisks = await startUdisks(systemBus.address, timeoutMs);
                cleanups.push(() => udisks.stop());
            }
            env = {
                ...process.env,
                ...cockpit.env,
                ...(systemBus ? { DBUS_SYSTEM_BUS_ADDRESS: systemBus.address } : {}),
                XDG_DATA_HOME: join(tmpDir, 'data'),
                XDG_CONFIG_DIRS: join(tmpDir, 'etc'),
                XDG_CONFIG_HOME: join(tmpDir, 'config'),
                DBUS_SESSION_BUS_ADDRESS: bus.address,
                ...(user ? { HOME: join(tmpDir, 'home'), USER: options.runAs, LOGNAME: options.runAs } : {}),
            };
        } else {
            env = { ...process.env, ...cockpit.env, XDG_CONFIG_DIRS: join(tmpDir, 'etc') };
            delete env.XDG_RUNTIME_DIR;
        }

        // A free port can be taken between probing and binding: retry with another one.
        let ws: Child | undefined;
        let port = 0;
        for (let attempt = 0; ; attempt++) {
            port = options.port ?? await freePort(address);
            // Another server on the port would answer our readiness probe: check it is free first.
            if (options.port !== undefined && !await portIsFree(address, port))
                throw new Error(`${address}:${port} is already in use`);
            ws = startChild(cockpit.ws, ['--no-tls', '--address', address, '--port', String(port),
                `--local-session=${localSession ?? cockpit.bridge}`],
            { name: localSession === undefined ? 'cockpit-ws' : `cockpit-ws (session ${localSession})`, env, user });
            const started = ws;
            cleanups.push(() => started.stop());
            options.onSpawn?.(ws.pid);
            const up = await waitForHttp(ws, `http://${address}:${port}/cockpit/static/login.html`, timeoutMs);
            if (up === 'up')
                break;
            const output = formatOutput(ws);
            await cleanups.pop()!();
            if (options.port !== undefined || attempt >= 2 || !/already in use/i.test(output))
                throw new Error(`cockpit-ws did not start on ${address}:${port}: ${up}${output}`);
        }
        const wsChild = ws;
        let startMs = performance.now() - t0;

        const origin = `http://${address}:${port}`;
        let keepAlive: KeepAlive | undefined;
        if (options.keepAlive ?? true) {
            try {
                keepAlive = await openKeepAlive(address, port, timeoutMs);
            } catch (err) {
                throw new Error(`${(err as Error).message}${formatOutput(wsChild)}`);
            }
            const ka = keepAlive;
            cleanups.push(() => ka.close());
            // The session's own start (a bridge behind a pipe into a VM) is what takes the time.
            if (localSession !== undefined)
                startMs = performance.now() - t0;
        }

        let stopped = false;
        const lost = Promise.race([
            wsChild.exited.then(exit => describeExit(wsChild, exit)),
            keepAlive ? keepAlive.lost : new Promise<string>(() => {}),
        ]).then(reason => (stopped ? new Promise<string>(() => {}) : reason));

        const url = (path: string) => origin + (path.startsWith('/') ? path : `/${path}`);
        return {
            pid: wsChild.pid,
            port,
            origin,
            url,
            barePageUrl: url(`/cockpit/@localhost/${pluginName}/index.html`),
            shellUrl: url(`/${pluginName}`),
            shellFrameName: `cockpit1:localhost/${pluginName}`,
            tmpDir,
            startMs,
            logs: () => wsChild.output(),
            lost,
            async sessionAlive() {
                try {
                    const res = await fetch(url('/cockpit/@localhost/manifests.json'));
                    await res.arrayBuffer();
                    return res.status === 200;
                } catch {
                    return false;
                }
            },
            async stop() {
                stopped = true;
                await cleanup();
            },
        };
    } catch (err) {
        await cleanup();
        throw err;
    }
}

/**
 * Puts a package where the session finds it: a link to the folder, or a copy when the session runs
 * as another user, who may not be able to reach the folder itself (a clone under /root or another
 * mode-700 folder: the bridge would find no package and the page would answer 404).
 */
function servePackage(dir: string, target: string, copy: boolean): void {
    if (copy)
        cpSync(dir, target, { recursive: true, dereference: true });
    else
        symlinkSync(dir, target);
}

/** uid and gid of a local user (`id`: Node has no getpwnam). */
function lookUpUser(name: string): { uid: number; gid: number } {
    const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
}

/** The session's folders (and a HOME) belong to the user it runs as. */
function handOver(dir: string, user: { uid: number; gid: number }): void {
    mkdirSync(join(dir, 'home'), { recursive: true });
    const walk = (path: string) => {
        lchownSync(path, user.uid, user.gid);
        if (lstatSync(path).isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
    };
    walk(dir);
}

/** A private `dbus-daemon --session` (not forked, so it stays our child and gets reaped). */
async function startSessionBus(socketPath: string,
    user?: { uid: number; gid: number }): Promise<{ address: string; stop(): Promise<unknown> }> {
    let address = '';
    let gotAddress!: () => void;
    const ready = new Promise<void>(r => { gotAddress = r; });
    const bus = startChild('dbus-daemon', ['--session', '--nofork', '--nopidfile', `--address=unix:path=${socketPath}`,
        '--print-address=1'], {
        name: 'dbus-daemon',
        user,
        onStdout: () => {
            const line = bus.output().split('\n').find(l => l.startsWith('unix:'));
            if (line && !address) {
                address = line.trim();
                gotAddress();
            }
        },
    });
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
        ready.then(() => 'ready' as const),
        bus.exited.then(exit => describeExit(bus, exit)),
        new Promise<string>(r => { timer = setTimeout(() => r('dbus-daemon printed no address within 10 s'), 10000); }),
    ]);
    clearTimeout(timer);
    if (result !== 'ready') {
        await bus.stop();
        throw new Error(result);
    }
    return { address, stop: () => bus.stop() };
}

/** udisksd on the bus at `address`, once it owns its name there (the Storage page asks for it at once). */
async function startUdisks(address: string, timeoutMs: number): Promise<Child> {
    if (!existsSync(UDISKSD))
        throw new Error(`${UDISKSD} is missing: run tools/install-deps.sh`);
    const daemon = startChild(UDISKSD, ['--no-sigint'], {
        name: 'udisksd', env: { ...process.env, DBUS_SYSTEM_BUS_ADDRESS: address },
    });
    const owned = () => {
        try {
            return execFileSync('dbus-send', [`--bus=${address}`, '--print-reply', '--dest=org.freedesktop.DBus', '/',
                'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.UDisks2'], { encoding: 'utf8' })
                .includes('boolean true');
        } catch {
            return false;
        }
    };
    const deadline = performance.now() + timeoutMs;
    while (!owned()) {
        if (daemon.hasExited() || performance.now() > deadline) {
            const why = daemon.hasExited() ? describeExit(daemon, await daemon.exited) : `no name within ${timeoutMs} ms`;
            await daemon.stop();
            throw new Error(`udisksd did not start: ${why}${formatOutput(daemon)}`);
        }
        await sleep(50);
    }
    return daemon;
}

/** Polls `url` until it answers 200. Returns 'up' or why not. */
async function waitForHttp(child: Child, url: string, timeoutMs: number): Promise<string> {
    const deadline = performance.now() + timeoutMs;
    let delay = 10;
    let last = '';
    while (performance.now() < deadline) {
        if (child.hasExited())
            return describeExit(child, await child.exited);
        try {
            const res = await fetch(url);
            await res.arrayBuffer();
            if (res.status === 200)
                return 'up';
            last = `HTTP ${res.status}`;
        } catch (err) {
            last = String((err as { cause?: unknown }).cause ?? err);
        }
        await sleep(delay);
        delay = Math.min(delay * 2, 100);
    }
    return `no answer from ${url} within ${timeoutMs} ms (${last})`;
}

function portIsFree(address: string, port: number): Promise<boolean> {
    return new Promise(resolveFree => {
        const server = net.createServer();
        server.unref();
        server.on('error', () => resolveFree(false));
        server.listen({ port, host: address, exclusive: true }, () => server.close(() => resolveFree(true)));
    });
}

function freePort(address: string): Promise<number> {
    return new Promise((resolvePort, reject) => {
        const server = net.createServer();
        server.unref();
        server.on('error', reject);
        server.listen(0, address, () => {
            const { port } = server.address() as net.AddressInfo;
            server.close(() => resolvePort(port));
        });
    });
}

/**
 * The manifest's `conditions` for a simulated host: raidtune's manifest shows the page only where
 * /proc/mdstat exists (Cockpit's Python bridge evaluates it on the real host; 287's C bridge
 * ignores it). A machine without md would hide the page from a demo of the simulated host, so the
 * demo and the tests point the condition at the simulated /proc instead.
 */
export function simulatedHostConditions(procRoot: string): Record<string, unknown> {
    return { conditions: [{ 'path-exists': `${procRoot}/mdstat` }] };
}

/** True when `dir` looks like a built plugin (has manifest.json and index.html). */
export function isPluginDir(dir: string): boolean {
    try {
        return statSync(join(dir, 'manifest.json')).isFile() && statSync(join(dir, 'index.html')).isFile();
    } catch {
        return false;
    }
}
