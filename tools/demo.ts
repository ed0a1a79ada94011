// SPDX-License-Identifier: LGPL-2.1-or-later
// `make demo` (node build/demo.mjs): raidtune in a real Cockpit on 127.0.0.1, no TLS, no login.
//
// If this machine's /proc/mdstat lists an md array, raidtune shows the machine itself. Otherwise
// (or with --sim) it starts the simulated md host and points raidtune's config at it.
// Runs until Ctrl-C / SIGTERM and then stops everything it started.
//
// Only imports the Node-side parts of tools/cockpit (not playwright).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './cockpit/proc';
import { simulatedHostConfig, startSimulatedHost, type SimulatedHost } from './cockpit/sim';
import { cockpitUnderTest, type CockpitInstall } from './cockpit/versions';
import { isPluginDir, simulatedHostConditions, startCockpit, type Cockpit, type RaidtuneConfig } from './cockpit/ws';

const USAGE = `usage: node build/demo.mjs [--sim] [--scenario NAME] [--cockpit 287|337|372] [--port N] [--address ADDR]

  --sim            use the simulated md host even if this machine has md arrays
  --scenario NAME  simulate this scenario (implies --sim; default raid6-recovery)
  --cockpit V      the Cockpit to run: 287 (the system's, default), 337 or 372 (the Python bridge of
                   RHEL and Fedora, from Debian's backports: tools/install-cockpit.sh puts it beside
                   the system's the first time)
  --port N         port of cockpit-ws (default 9091)
  --address ADDR   listen address (default 127.0.0.1; there is no TLS and no login: keep it local)
`;

interface Args {
    sim: boolean;
    scenario: string;
    cockpit: string;
    port: number;
    address: string;
}

function parseArgs(argv: string[]): Args {
    const args: Args = { sim: false, scenario: 'raid6-recovery', cockpit: process.env.RAIDTUNE_COCKPIT || '287', port: 9091, address: '127.0.0.1' };
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
        const value = () => {
            const v = inline ?? argv[++i];
            if (v === undefined || v === '')
                usage(`${name} needs a value`);
            return v;
        };
        switch (name) {
        case '--sim': args.sim = true; break;
        case '--scenario': args.scenario = value(); args.sim = true; break;
        case '--cockpit': {
            args.cockpit = value();
            if (!['287', '337', '372'].includes(args.cockpit))
                usage(`--cockpit: 287, 337 or 372, not ${args.cockpit}`);
            break;
        }
        case '--port': {
            const v = value();
            args.port = Number(v);
            if (!Number.isInteger(args.port) || args.port < 1 || args.port > 65535)
                usage(`--port: not a port: ${v}`);
            break;
        }
        case '--address': args.address = value(); break;
        case '-h': case '--help':
            process.stdout.write(USAGE);
            process.exit(0);
            break;
        default:
            usage(`unknown argument: ${arg}`);
        }
    }
    return args;
}

function usage(message: string): never {
    process.stderr.write(`demo: ${message}\n${USAGE}`);
    process.exit(2);
}

/** Names of the md arrays /proc/mdstat lists ("md0 : active raid1 ..."), [] if none or no md. */
function realArrays(): string[] {
    let mdstat: string;
    try {
        mdstat = readFileSync('/proc/mdstat', 'utf8');
    } catch {
        return [];
    }
    return [...mdstat.matchAll(/^(md[\w/]*)\s*:/gm)].map(m => m[1]);
}

/** The Cockpit to run, installed beside the system's first when it is a newer one. */
function chosenCockpit(key: string): CockpitInstall {
    if (key !== '287')
        execFileSync(join(repoRoot(), 'tools', 'install-cockpit.sh'), [key], { stdio: 'inherit' });
    return cockpitUnderTest(key);
}

function log(message: string) {
    process.stdout.write(`${message}\n`);
}

async function main(): Promise<number> {
    const args = parseArgs(process.argv.slice(2));
    const pluginDir = join(repoRoot(), 'dist');
    if (!isPluginDir(pluginDir)) {
        process.stderr.write(`demo: ${pluginDir} is not built: run make first\n`);
        return 1;
    }

    let shutdownReason: string | undefined;
    let requestShutdown!: (reason: string) => void;
    const shutdown = new Promise<string>(resolve => { requestShutdown = resolve; });
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
        process.on(signal, () => {
            if (shutdownReason) {
                process.stderr.write('demo: stopping now\n');
                process.exit(130); // the 'exit' hook kills what is left
            }
            shutdownReason = signal;
            requestShutdown(signal);
        });
    }

    let sim: SimulatedHost | undefined;
    let cockpit: Cockpit | undefined;
    try {
        const install = chosenCockpit(args.cockpit);
        const arrays = realArrays();
        let config: RaidtuneConfig | undefined;
        let what: string;
        if (arrays.length && !args.sim) {
            what = `this machine's md arrays (${arrays.join(', ')})`;
        } else {
            sim = await startSimulatedHost({ scenario: args.scenario });
            config = simulatedHostConfig(sim);
            what = `a simulated md host, scenario ${args.scenario} (${arrays.length ? '--sim' : 'no md arrays on this machine'})\n` +
                `  simulated /proc and /sys: ${sim.procRoot} ${sim.sysRoot}`;
        }

        const restarts: number[] = [];
        for (let first = true; ; first = false) {
            try {
                cockpit = await startCockpit({
                    pluginDir, config, port: args.port, address: args.address, cockpit: install,
                    manifest: sim ? simulatedHostConditions(sim.procRoot) : undefined,
                });
            } catch (err) {
                const message = err instanceof Error ? err.message : String(err);
                if (/in use/i.test(message))
                    throw new Error(`port ${args.port} is in use: choose another with --port\n${message}`);
                throw err;
            }
            if (first) {
                log(`raidtune demo: ${what}`);
                log(`  Cockpit ${install.key} (${install.version || 'version unknown'}, ${install.pythonBridge ? 'Python' : 'C'} bridge)`);
                log(`  cockpit-ws ${cockpit.origin} (no TLS, no login; session of user ${userInfo().username})`);
                log('');
                log(`  raidtune alone:      ${cockpit.barePageUrl}`);
                log(`  inside Cockpit:      ${cockpit.shellUrl}`);
                log('');
                if (process.getuid?.() !== 0)
                    log('  (not root: raidtune can show, but not change, kernel settings)');
                log('Ctrl-C stops it.');
            }

            const reason = await Promise.race([
                shutdown.then(() => 'shutdown'),
                cockpit.lost,
                sim ? sim.lost.then(r => `the simulated host stopped: ${r}`) : new Promise<string>(() => {}),
            ]);
            if (reason === 'shutdown')
                break;
            if (reason.startsWith('the simulated host stopped'))
                throw new Error(reason);

            // The Cockpit session ended (cockpit-ws exited or dropped our websocket): start a new
            // one on the same port, so a reload in the browser just works.
            const logs = cockpit.logs().trim().split('\n').slice(-10).join('\n');
            await cockpit.stop();
            cockpit = undefined;
            const now = Date.now();
            restarts.push(now);
            while (restarts.length && now - restarts[0] > 60000)
                restarts.shift();
            if (restarts.length > 5)
                throw new Error(`cockpit-ws keeps failing (${reason}); its last output:\n${logs}`);
            log(`demo: ${reason}; restarting cockpit-ws on port ${args.port} (reload the page)`);
        }
        return 0;
    } catch (err) {
        process.stderr.write(`demo: ${err instanceof Error ? err.message : String(err)}\n`);
        return 1;
    } finally {
        await cockpit?.stop().catch(() => {});
        await sim?.stop().catch(() => {});
        if (shutdownReason)
            log('demo: stopped');
    }
}

process.exitCode = await main();
