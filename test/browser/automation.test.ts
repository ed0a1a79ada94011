// SPDX-License-Identifier: LGPL-2.1-or-later
// The change dialog's automation script view: the shell script it shows for "Fast rebuild", run as
// copied on another simulated host where the same array (same UUID) is md127, leaves the values
// the page's own Apply leaves on its host; the playbook view is there too. The presets are a host
// setting: the page opens at the overview, where the host settings are.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulatedHost } from '../../sim';
import type { ScenarioSpec } from '../../sim/scenario/types';
import { setupRaidtune } from './harness/env';
import {
    changeDialog, closeLeftoverDialog, dialogButton, KERNEL_DONE, openDialog, simValue,
} from './harness/raidtunePage';

const temp = mkdtempSync(join(tmpdir(), 'raidtune-automation-'));
const env = setupRaidtune({
    scenario: 'raid6-recovery', readySelector: '#global-limits',
    config: { stateDir: join(temp, 'state'), sysctlDir: join(temp, 'sysctl.d'), udevRulesDir: join(temp, 'rules.d') },
});

const dialog = () => changeDialog(env.page);
const FILES = ['/proc/sys/dev/raid/speed_limit_min', '/proc/sys/dev/raid/speed_limit_max', '/sys/block/md0/md/stripe_cache_size'];

beforeEach(() => closeLeftoverDialog(env.page));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** raid6-recovery where the page's array, with its UUID, is md127. */
function otherHost(uuid: string) {
    const base = JSON.parse(readFileSync(join(__dirname, '../../sim/scenarios/raid6-recovery.json'), 'utf8')) as ScenarioSpec;
    const spec = { ...base, arrays: (base.arrays ?? []).map(a => ({ ...a, name: 'md127', uuid })) } as ScenarioSpec;
    return createSimulatedHost(spec, join(temp, 'other'), { seed: 1 });
}

test('the shell script shown for "Fast rebuild" does on another host what Apply does here', async () => {
    await openDialog(env.page.locator('#global-limits').getByRole('button', { name: 'Presets…' }));
    await dialog().getByLabel('Fast rebuild').check();
    await dialog().getByRole('button', { name: 'Shell script' }).click();
    const script = await dialog().locator('#raidtune-shell-script-code').innerText();
    expect(script).toMatch(/^#!\/bin\/sh\n/);
    await dialog().getByRole('button', { name: 'Ansible playbook' }).click();
    expect(await dialog().locator('#raidtune-ansible-playbook-code').innerText()).toContain('ansible.builtin.command');
    await expect(dialog().getByRole('button', { name: 'Copy the shell script' }).count()).resolves.toBe(1);

    const other = otherHost(await simValue(env, '/sys/block/md0/md/uuid'));
    try {
        const run = spawnSync('sh', ['-c', script, 'raidtune'], { encoding: 'utf8', env: { PATH: process.env.PATH, RAIDTUNE_ROOT: other.root } });
        expect(run.stderr).toBe('');
        expect(run.status).toBe(0);
        other.tick(0);

        await dialogButton(env.page, 'Apply').click();
        await dialog().getByText(KERNEL_DONE).waitFor();
        const here = await Promise.all(FILES.map(f => simValue(env, f)));
        expect(here).toEqual(['51200', '2048000', '8192']);
        const there = FILES.map(f => readFileSync(join(other.root, f.replace('/md0/', '/md127/')), 'utf8').trim());
        expect(there).toEqual(here);
    } finally {
        other.close();
    }
});
