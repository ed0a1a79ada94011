// The host's real cockpit-ws whose local session is the cockpit-bridge INSIDE the test guest:
//
//   chromium --ws--> cockpit-ws --local-session=<run>/local-session.sh --stdio--> socat
//     --> <run>/bridge.sock (QEMU chardev) --> virtio-serial "bridge" --> guest cockpit-bridge
//
// Everything the page reads or spawns (cockpit.js, manifests, the plugin from the 9p share,
// /proc, /sys, mdadm) comes from the guest. ws itself only serves /cockpit/static/ from the host.
//
// (A local copy of the few lines of tools/cockpit/ws.ts that differ: startCockpit() there always
// runs the host's cockpit-bridge. With a `localSession` option there, this file can go.)
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { openKeepAlive, type KeepAlive } from '../cockpit/keepalive';
import { describeExit, formatOutput, sleep, startChild, type Child } from '../cockpit/proc';
import { COCKPIT_WS } from '../cockpit/ws';
import { recordRunChild, shellQuote, type GuestInfo } from './vm';

export interface GuestCockpitOptions {
    address?: string;
    /** Default: a free port. */
    port?: number;
    /** Package name (URL path segment); the guest serves the plugin as "raidtune". */
    pluginName?: string;
    /** For cockpit-ws to answer, and for the guest bridge to send its init (default 60 s: TCG). */
    timeoutMs?: number;
}

export interface GuestCockpit {
    readonly port: number;
    readonly origin: string;
    url(path: string): string;
    /** http://HOST:PORT/cockpit/@localhost/raidtune/index.html, served by the guest's bridge. */
    readonly barePageUrl: string;
    /** Milliseconds from spawning cockpit-ws until the guest's bridge answered the session. */
    readonly startMs: number;
    /** cockpit-ws (+ socat) output so far; the guest bridge's stderr is in <run>/share/bridge.log. */
    logs(): string;
    /** Resolves with a reason when ws exits or the keep-alive websocket closes without stop(). */
    readonly lost: Promise<string>;
    stop(): Promise<void>;
}

export async function startGuestCockpit(guest: Pick<GuestInfo, 'bridgeSocket'>,
    options: GuestCockpitOptions = {}): Promise<GuestCockpit> {
    const address = options.address ?? '127.0.0.1';
    const pluginName = options.pluginName ?? 'raidtune';
    const timeoutMs = options.timeoutMs ?? 60000;
    if (!existsSync(COCKPIT_WS))
        throw new Error(`${COCKPIT_WS} is missing: run tools/vm/build-guest.sh (installs cockpit-ws)`);

    const tmpDir = mkdtempSync(join(tmpdir(), 'raidtune-vmws-'));
    let ws: Child | undefined;
    let keepAlive: KeepAlive | undefined;
    let stopped = false;
    const stop = async () => {
        stopped = true;
        keepAlive?.close();
        await ws?.stop();
        rmSync(tmpDir, { recursive: true, force: true });
    };
    try {
        // --local-session takes a program; ws gives it the session on stdin/stdout.
        const script = join(tmpDir, 'local-session.sh');
        writeFileSync(script, `#!/bin/sh\nexec socat STDIO UNIX-CONNECT:${shellQuote(guest.bridgeSocket)}\n`);
        chmodSync(script, 0o755);
        mkdirSync(join(tmpDir, 'etc')); // XDG_CONFIG_DIRS: no /etc/cockpit/cockpit.conf of the host
        const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_DIRS: join(tmpDir, 'etc') };
        delete env.XDG_RUNTIME_DIR;

        const t0 = performance.now();
        let port = 0;
        for (let attempt = 0; ; attempt++) {
            port = options.port ?? await freePort(address);
            ws = startChild(COCKPIT_WS, ['--no-tls', '--address', address, '--port', String(port),
                `--local-session=${script}`], { name: 'cockpit-ws (guest session)', env });
            recordRunChild(dirname(guest.bridgeSocket), ws.pid, script);
            const up = await waitForHttp(ws, `http://${address}:${port}/cockpit/static/login.html`, timeoutMs);
            if (up === 'up')
                break;
            const output = formatOutput(ws);
            await ws.stop();
            if (options.port !== undefined || attempt >= 2 || !/already in use/i.test(output))
                throw new Error(`cockpit-ws did not start on ${address}:${port}: ${up}${output}`);
        }
        // The first websocket starts the local session: socat connects, the guest sees the host
        // connected and starts cockpit-bridge, whose init message completes the keep-alive.
        keepAlive = await openKeepAlive(address, port, timeoutMs);
        const startMs = performance.now() - t0;
        const wsChild = ws!;
        const ka = keepAlive;
        const lost = Promise.race([wsChild.exited.then(exit => describeExit(wsChild, exit)), ka.lost])
            .then(reason => (stopped ? new Promise<string>(() => {}) : reason));
        const origin = `http://${address}:${port}`;
        const url = (path: string) => origin + (path.startsWith('/') ? path : `/${path}`);
        return {
            port,
            origin,
            url,
            barePageUrl: url(`/cockpit/@localhost/${pluginName}/index.html`),
            startMs,
            logs: () => wsChild.output(),
            lost,
            stop,
        };
    } catch (err) {
        const logs = ws ? formatOutput(ws) : '';
        await stop();
        throw new Error(`${(err as Error).message}${logs}`);
    }
}

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
