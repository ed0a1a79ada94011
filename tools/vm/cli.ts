// SPDX-License-Identifier: LGPL-2.1-or-later
// Command line for the test guest (run through tools/vm/guest.sh, which bundles this file).
//
//   guest.sh serve [--disks N] [--disk-mib M] [--port P]   boot + host cockpit-ws; prints the URL
//         (every boot also takes --extra-disk MIB[:LOGICAL[:PHYSICAL]], repeatable: a disk of its
//         own size and block sizes after the uniform ones, e.g. --extra-disk 64:4096, a 4Kn disk)
//                                                           and stays until Ctrl-C
//   guest.sh run [--disks N] [--disk-mib M] 'CMD' ...       boot, run each CMD in the guest, print
//                                                           the output, stop; exit code of the last
//   guest.sh exec 'CMD' ...                                 run CMDs in the running guest (the one
//                                                           build/vm/<kernel>/run points at, e.g. of serve)
//   guest.sh shell                                          interactive shell in the running guest
//                                                           (the one build/vm/<kernel>/run points at), or in
//                                                           a new one
import { existsSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { attachGuest, startGuest, vmBuildDir, type ExtraDisk, type Guest, type GuestControl, type GuestOptions } from './vm';
import { startGuestCockpit, type GuestCockpit } from './ws';

function parse(argv: string[]): { options: GuestOptions; port?: number; rest: string[] } {
    const options: GuestOptions = {};
    let port: number | undefined;
    const rest: string[] = [];
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--disks') options.disks = Number(argv[++i]);
        else if (a === '--disk-mib') options.diskMiB = Number(argv[++i]);
        else if (a === '--port') port = Number(argv[++i]);
        else if (a === '--scsi') options.diskInterface = 'scsi';
        else if (a === '--keep') options.keep = true;
        // A reboot by hand: boot in systemd's order on disks and kept /etc folders that outlive the guest.
        else if (a === '--boot-systemd') options.bootMode = 'systemd';
        else if (a === '--disk-dir') options.diskDir = argv[++i];
        else if (a === '--persist-dir') options.persistDir = argv[++i];
        else if (a === '--extra-disk') (options.extraDisks ??= []).push(parseExtraDisk(argv[++i]));
        else rest.push(a);
    }
    return { options, port, rest };
}

/**
 * `--extra-disk MIB[:LOGICAL[:PHYSICAL]]`, e.g. 64:4096 for a 4Kn disk of 64 MiB; vm.ts checks
 * the values when the guest starts.
 */
function parseExtraDisk(text: string | undefined): ExtraDisk {
    const m = /^(\d+)(?::(\d+))?(?::(\d+))?$/.exec(text ?? '');
    if (!m)
        throw new Error(`--extra-disk ${text ?? ''}: MIB[:LOGICAL[:PHYSICAL]] (block sizes in bytes), e.g. 64:4096`);
    const disk: ExtraDisk = { miB: Number(m[1]) };
    if (m[2] !== undefined)
        disk.logicalBlockBytes = Number(m[2]) as ExtraDisk['logicalBlockBytes'];
    if (m[3] !== undefined)
        disk.physicalBlockBytes = Number(m[3]);
    return disk;
}

/**
 * The guest's `sh -i` on the "shell" port. The guest side has no tty: the local terminal stays in
 * its normal (cooked) mode and does the echo and line editing; lines go out on Enter. Ctrl-D
 * (or `exit`) leaves; the guest keeps running and the next attach gets a new shell.
 */
function attachShell(socket: string): Promise<number> {
    process.stderr.write(`guest shell (${socket}); Ctrl-D or exit leaves\n`);
    return new Promise(resolveShell => {
        const conn = net.connect(socket);
        conn.on('error', err => {
            process.stderr.write(`${err.message}\n`);
            resolveShell(1);
        });
        conn.on('close', () => {
            process.stdin.unpipe(conn);
            process.stdin.pause();
            resolveShell(0);
        });
        conn.pipe(process.stdout);
        process.stdin.pipe(conn);
    });
}

async function main() {
    const [command, ...argv] = process.argv.slice(2);
    const { options, port, rest } = parse(argv);
    let guest: Guest | undefined;
    let cockpit: GuestCockpit | undefined;
    const stop = async () => {
        await cockpit?.stop();
        await guest?.stop();
    };
    process.on('SIGINT', () => { void stop().then(() => process.exit(130)); });
    process.on('SIGTERM', () => { void stop().then(() => process.exit(143)); });

    const boot = async () => {
        const t0 = performance.now();
        guest = await startGuest(options);
        process.stderr.write(`guest up in ${(guest.bootMs / 1000).toFixed(1)} s (${guest.accel}), ` +
            `disks ${guest.disks.join(' ')}, run dir ${guest.runDir}\n`);
        return t0;
    };

    switch (command) {
    case 'serve': {
        await boot();
        await guest!.detach(); // leave the control port to `guest.sh exec` (one client at a time)
        cockpit = await startGuestCockpit(guest!, { port });
        process.stderr.write(`cockpit-ws up, guest bridge answered in ${(cockpit.startMs / 1000).toFixed(1)} s\n` +
            `  page:    ${cockpit.barePageUrl}\n` +
            `  shell:   tools/vm/guest.sh shell\n` +
            `  console: ${guest!.consoleLog}\n` +
            `  bridge:  ${join(guest!.runDir, 'share', 'bridge.log')}\nCtrl-C stops.\n`);
        const reason = await Promise.race([guest!.lost, cockpit.lost]);
        process.stderr.write(`lost: ${reason}\n`);
        await stop();
        process.exit(1);
        break;
    }
    case 'run':
    case 'exec': {
        let control: GuestControl;
        if (command === 'exec') {
            const socket = join(vmBuildDir(), 'run', 'control.sock');
            if (!existsSync(socket))
                throw new Error(`no running guest (${socket}): start one with tools/vm/guest.sh serve`);
            control = await attachGuest({ controlSocket: socket }, 10000);
        } else {
            await boot();
            control = guest!;
        }
        let code = 0;
        for (const cmd of rest) {
            const t = performance.now();
            const result = await control.run(cmd);
            process.stdout.write(result.out);
            process.stderr.write(`[exit ${result.code}, ${(performance.now() - t).toFixed(0)} ms]\n`);
            code = result.code;
        }
        await control.detach();
        await stop();
        process.exit(code);
        break;
    }
    case 'shell': {
        const running = join(vmBuildDir(), 'run', 'shell.sock');
        if (existsSync(running)) {
            process.exit(await attachShell(running));
        }
        await boot();
        const code = await attachShell(guest!.shellSocket);
        await stop();
        process.exit(code);
        break;
    }
    default:
        process.stderr.write('usage: guest.sh serve|run|shell [--disks N] [--disk-mib M] [--port P] [--scsi] [--keep]\n' +
            '       [--extra-disk MIB[:LOGICAL[:PHYSICAL]]]... [--boot-systemd] [--disk-dir DIR] [--persist-dir DIR] [CMD...]\n');
        process.exit(2);
    }
}

main().catch(async err => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
});
