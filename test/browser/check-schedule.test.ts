// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15, the host's own check scheduler, read only, per array (shared-disks: md0 and md1). The
// simulated host starts with Debian's checkarray cron job; then it gets the RHEL layout
// (/etc/sysconfig/raid-check listing md0 to check and md1 to repair, run by raid-check.timer with
// systemd's next run) and the page, reloaded, shows that instead; AUTOCHECK=false switches Debian's off.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setupRaidtune } from './harness/env';
import { writeUnit } from '../../sim/monitor/hostFiles';

const env = setupRaidtune({ scenario: 'shared-disks', readySelector: '#check-schedule' });

/** The table as the user reads it: one [array, scheduled by, action, next run] per row. */
async function rows(): Promise<string[][]> {
    return env.page.locator('#check-schedule tbody tr').evaluateAll(trs =>
        trs.map(tr => [...tr.querySelectorAll('th, td')].map(c => (c as HTMLElement).innerText.trim())));
}

function writeEtc(path: string, text: string | null): void {
    const file = join(env.sim.root, 'etc', path);
    if (text === null) return rmSync(file, { force: true });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
}

async function reload(): Promise<void> {
    await env.page.reload();
    await env.page.locator('#check-schedule').waitFor();
}

test('Debian: checkarray from cron checks every array', async () => {
    expect(await rows()).toEqual([
        ['md0', 'checkarray', 'check', 'cron: 30 1 * * 0'],
        ['md1', 'checkarray', 'check', 'cron: 30 1 * * 0'],
    ]);
});

test('Debian: AUTOCHECK=false in /etc/default/mdadm switches it off', async () => {
    writeEtc('default/mdadm', 'AUTOCHECK=false\n');
    await reload();
    expect((await rows()).map(r => [r[2], r[3]])).toEqual([['not checked', 'disabled'], ['not checked', 'disabled']]);
});

test('RHEL: raid-check\'s own lists decide per array, raid-check.timer the next run', async () => {
    writeEtc('cron.d/mdadm', null);
    writeEtc('sysconfig/raid-check', 'ENABLED=yes\nCHECK=check\nCHECK_DEVS="md0"\nREPAIR_DEVS="md1"\nSKIP_DEVS=""\n');
    writeUnit(env.sim.root, 'raid-check.timer', { activeState: 'active', unitFileState: 'enabled', nextElapse: 'Sun 2026-11-29 01:00:00 UTC' });
    await reload();
    expect(await rows()).toEqual([
        ['md0', 'raid-check', 'check', 'Sun 2026-11-29 01:00:00 UTC'],
        ['md1', 'raid-check', 'repair', 'Sun 2026-11-29 01:00:00 UTC'],
    ]);
});
