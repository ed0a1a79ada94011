// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #34's automation export on the simulated host's replace-disk scenario: the shell script the
// Add a disk… dialog shows for md2 (sdk gets sde's partition table, then each array its partition),
// run as copied with the real sh on a fresh host of the same scenario through its simulated sfdisk,
// wipefs and mdadm, puts sdk1 in md1 and sdk2 in md2, and a second run changes nothing. On a host
// where no disk reports sdk's WWID (the disk in that place is another one), it refuses before
// writing anything.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScenarioSpec } from '../../sim/scenario/types';
import { simulatedHostConfig, startSimulatedHost, type SimulatedHost } from '../../tools/cockpit';
import { setupRaidtune } from './harness/env';
import { arrayCard, cardInView, openDialog } from './harness/raidtunePage';

const env = setupRaidtune({ scenario: 'replace-disk' });
const temp = mkdtempSync(join(tmpdir(), 'raidtune-replace-script-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The replace-disk scenario, its disk list changed by `disks`, running as a simulator of its own. */
type DiskList = { name: string }[];
async function otherHost(name: string, disks: (list: DiskList) => DiskList): Promise<SimulatedHost> {
    const base = JSON.parse(readFileSync(join(__dirname, '../../sim/scenarios/replace-disk.json'), 'utf8')) as ScenarioSpec;
    const file = join(temp, `${name}.json`);
    writeFileSync(file, JSON.stringify({ ...base, name, disks: disks(base.disks ?? []) }));
    const host = await startSimulatedHost({ scenario: file, root: join(temp, name) });
    simulatedHostConfig(host);
    return host;
}

/** The script run as root would, on the other host's tree and with its simulated programs first in PATH. */
function runOn(host: SimulatedHost, script: string) {
    return spawnSync('sh', ['-c', script, 'raidtune'], {
        encoding: 'utf8', env: { PATH: `${join(host.root, 'bin')}:${process.env.PATH}`, RAIDTUNE_ROOT: host.root, LC_ALL: 'C' },
    });
}

const members = (host: SimulatedHost, array: string) =>
    readFileSync(join(host.root, 'proc/mdstat'), 'utf8').split('\n').find(line => line.startsWith(`${array} :`)) ?? '';

test('md2\'s script finds sdk by its WWID, copies the table and adds both partitions; a second run changes nothing; a host without that disk is refused', async () => {
    await cardInView(env.page, 'md2');
    const dialog = await openDialog(arrayCard(env.page, 'md2').locator('.raidtune-health-alert').getByRole('button', { name: 'Add a disk…' }));
    await dialog.getByRole('radio', { name: '/dev/sdk' }).check();
    await expect(dialog.locator('.raidtune-automation').innerText()).resolves.toContain('finds the arrays by UUID and the new disk by its WWID or serial number');
    await dialog.getByRole('button', { name: 'Shell script' }).click();
    const script = await dialog.locator('#raidtune-shell-script-code').innerText();
    const wwid = readFileSync(join(env.sim.root, 'sys/block/sdk/device/wwid'), 'utf8').trim();
    expect(script).toContain(`new_1=$(disk_by_id "$root" wwid '${wwid}')  # sdk where this was made`);

    const same = await otherHost('same', disks => disks);
    try {
        const first = runOn(same, script);
        // mdadm says what it added on stderr, as the real one does.
        expect(first.stderr).toBe('mdadm: added /dev/sdk1\nmdadm: added /dev/sdk2\n');
        expect(first.status).toBe(0);
        expect(first.stdout).toMatch(/^changed: sfdisk \/dev\/sdk$/m);
        expect(members(same, 'md1')).toMatch(/ sdk1\[\d+\]/);
        expect(members(same, 'md2')).toMatch(/ sdk2\[\d+\]/);
        const second = runOn(same, script);
        expect(second.status).toBe(0);
        expect(second.stdout).toMatch(/^finished: 0 changed$/m);
    } finally {
        await same.stop();
    }

    // sdk's place taken by a disk of another name: the sim derives each disk's WWID from its name.
    const other = await otherHost('other', disks => disks.map(d => (d.name === 'sdk' ? { ...d, name: 'sdl' } : d)));
    try {
        const refused = runOn(other, script);
        expect(refused.status).toBe(1);
        expect(refused.stderr).toBe(`raidtune: no single disk with WWID ${wwid} on this host (sdk where this was made)\n`);
        expect(members(other, 'md1')).not.toMatch(/sdl/);
        expect(existsSync(join(other.root, 'sys/block/sdl/sdl1'))).toBe(false);
    } finally {
        await other.stop();
    }
});
