// SPDX-License-Identifier: LGPL-2.1-or-later
// `mdadm --monitor --scan --oneshot --test [--config=FILE]` on a simulated host, as mdadm 4.2's
// Monitor() does it: every array in /proc/mdstat gets a TestMessage event, and one the config has
// no ARRAY line for a NewArray event after it (seen from Debian's mdadm 4.2 in test/vm/alerts.test.ts);
// PROGRAM (from the config) runs with the event and the device, and MAILADDR gets the mail, handed
// to the simulated host's <root>/usr/sbin/sendmail -t (its stand-in appends it to
// <root>/var/mail/mdadm-sent); where there is none, the shell's "not found" and no mail, as mdadm's
// popen() gives, and mdadm still exits 0. Without MAILADDR and PROGRAM, mdadm says so and exits 1,
// as the real one does.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProgramOutcome } from '../program';

export const SENT_MAIL_FILE = 'var/mail/mdadm-sent';
/** Where the simulated host's mail program is (mdadm's MAILCMD, /usr/sbin/sendmail -t). */
export const SENDMAIL = 'usr/sbin/sendmail';

/** The words raidtune gives; other monitor modes are not simulated. */
export function isTestAlert(argv: readonly string[]): boolean {
    const words = argv.filter(a => !a.startsWith('--config='));
    return ['--monitor', '--scan', '--oneshot', '--test'].every(w => words.includes(w)) && words.length === 4;
}

function configPath(argv: readonly string[], root: string): string {
    const given = argv.find(a => a.startsWith('--config='))?.slice('--config='.length);
    return given ?? join(root, 'etc/mdadm/mdadm.conf');
}

interface Recipients { mailAddr?: string; mailFrom?: string; program?: string; arrays: string[] }

/**
 * mdadm's own reading, kept apart from raidtune's (src/md/alerts/mdadmConf.ts) so a test compares
 * the two: continuation lines joined, comments dropped, a keyword matched by its first three
 * letters or more, the first line of each keyword kept. Quotes are not simulated.
 */
export function readRecipients(text: string): Recipients {
    const joined = text.replace(/\n[ \t]+/g, ' ').split('\n').map(line => line.replace(/(^|\s)#.*$/, '').trim().split(/\s+/));
    const found: Recipients = { arrays: [] };
    const keys: [Exclude<keyof Recipients, 'arrays'>, string][] = [['mailAddr', 'MAILADDR'], ['mailFrom', 'MAILFROM'], ['program', 'PROGRAM']];
    for (const [keyword, ...args] of joined) {
        if (keyword.length < 3 || !args.length) continue;
        // "ARRAY /dev/md/0" and "ARRAY /dev/md0" name the same array.
        if ('ARRAY'.startsWith(keyword.toUpperCase())) found.arrays.push(args[0].replace(/^\/dev\/md\/(\d+)$/, '/dev/md$1'));
        const key = keys.find(([, k]) => k.startsWith(keyword.toUpperCase()))?.[0];
        if (key && found[key] === undefined) found[key] = key === 'mailFrom' ? args.join(' ') : args[0];
    }
    return found;
}

function arraysOf(root: string): string[] {
    const mdstat = readFileSync(join(root, 'proc/mdstat'), 'utf8');
    return [...mdstat.matchAll(/^(md\d+) : active/gm)].map(m => `/dev/${m[1]}`);
}

export function runTestAlert(argv: readonly string[], root: string): ProgramOutcome {
    const path = configPath(argv, root);
    if (!existsSync(path)) return { exitCode: 1, stdout: '', stderr: `mdadm: cannot open ${path}: No such file or directory\n` };
    const conf = readRecipients(readFileSync(path, 'utf8'));
    if (!conf.mailAddr && !conf.program) {
        return { exitCode: 1, stdout: '', stderr: 'mdadm: No mail address or alert command - not monitoring.\n' };
    }
    let stderr = '';
    const events = arraysOf(root).flatMap(device => [['TestMessage', device], ...(conf.arrays.includes(device) ? [] : [['NewArray', device]])]);
    for (const [event, device] of events) {
        if (conf.program) {
            const run = spawnSync(conf.program, [event, device], { encoding: 'utf8' });
            if (run.error) stderr += `mdadm: ${conf.program}: ${run.error.message}\n`;
        }
        // mdadm mails only events that matter; a test message is one.
        if (conf.mailAddr && event === 'TestMessage') {
            const sendmail = join(root, SENDMAIL);
            const mail = `To: ${conf.mailAddr}\nFrom: ${conf.mailFrom ?? 'mdadm monitoring'}\nSubject: ${event} event on ${device}\n\n`;
            // mdadm writes the mail into popen("sendmail -t") and does not look at how that ended.
            const run = spawnSync(sendmail, ['-t'], { input: mail, encoding: 'utf8' });
            if (run.error) stderr += `sh: 1: ${sendmail}: not found\n`;
        }
    }
    return { exitCode: 0, stdout: '', stderr };
}
