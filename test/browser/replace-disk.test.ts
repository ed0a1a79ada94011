// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #34 on the simulated host's replace-disk scenario: md0 (RAID 5, sdd failed and removed),
// md1 and md2 (RAID 1 on sde's and sdf's partitions, sdf gone from both), and free disks: sdg and
// sdk blank, sdh with an ext4 filesystem, sdi too small, sdj 4Kn. The dialog's reads go through the
// simulated lsblk, wipefs and sfdisk, its plan through them and the simulated mdadm. Every refusal
// is a reason on the page and nothing written; a plan cut short after the partition copy says what
// ran and what did not. How long md0's rebuild takes is checked against the simulated kernel's limits
// and a rebuild its history keeps.

import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Locator } from 'playwright-core';
import { formatDuration, formatKiB, formatRateWithRaw } from '../../src/md/format';
import { PRESETS } from '../../src/md/tuning/presets';
import { simulatedTool } from '../../tools/cockpit';
import { setupRaidtune } from './harness/env';
import {
    arrayCard, cardInView, dialogButton, nextReadRendered, openDialog, simMdstat, simNumber, simValue, waitUntil,
} from './harness/raidtunePage';

const env = setupRaidtune({ scenario: 'replace-disk' });

async function openAddDisk(array: string): Promise<Locator> {
    await cardInView(env.page, array);
    const dialog = await openDialog(arrayCard(env.page, array).locator('.raidtune-health-alert').getByRole('button', { name: 'Add a disk…' }));
    await dialog.locator('.raidtune-replace-candidate').first().waitFor();
    return dialog;
}

const offered = (dialog: Locator) =>
    dialog.getByRole('radio').evaluateAll(radios => radios.map(r => (r as HTMLInputElement).labels?.[0]?.textContent));

async function refusedReasons(dialog: Locator): Promise<Record<string, string>> {
    const section = dialog.locator('.raidtune-replace-refused');
    if (await section.getByRole('button', { expanded: false }).count()) await section.getByRole('button').first().click();
    const items = await section.locator('li').evaluateAll(lis => lis.map(li => [li.getAttribute('data-device'), (li as HTMLElement).innerText]));
    return Object.fromEntries(items);
}

const commands = (dialog: Locator) => dialog.locator('.raidtune-commands').innerText();

function simMdadm(...argv: string[]): Promise<{ stdout: string; stderr: string }> {
    return promisify(execFile)(simulatedTool(env.sim, 'mdadm'), argv);
}

async function wipefsSays(device: string): Promise<string[]> {
    const { stdout } = await promisify(execFile)(simulatedTool(env.sim, 'wipefs'), ['--no-act', '--json', `/dev/${device}`]);
    return stdout.trim() ? (JSON.parse(stdout) as { signatures: { type: string }[] }).signatures.map(s => s.type) : [];
}

/** The duration's lines the dialog must show for md0, from the simulated kernel's limits and md0's size. */
async function expectedDuration(measured: { type: string; kiBs: number } | null): Promise<string[]> {
    const min = await simNumber(env, '/sys/block/md0/md/sync_speed_min');
    const max = await simNumber(env, '/sys/block/md0/md/sync_speed_max');
    const componentKiB = await simNumber(env, '/sys/block/md0/md/component_size');
    const fast = PRESETS['fast-rebuild'];
    // The scenario runs at the kernel's defaults: both of Fast rebuild's limits are higher.
    expect(min).toBeLessThan(fast.speedMinKiBs);
    expect(max).toBeLessThan(fast.speedMaxKiBs);
    const time = (kiBs: number) => formatDuration(componentKiB / kiBs);
    return [
        `md writes ${formatKiB(componentKiB)} onto the new member. At the maximum of ${formatRateWithRaw(max)} that takes at least ${time(max)}; held at the minimum of ${formatRateWithRaw(min)} by other I/O, up to ${time(min)}.`,
        `With the Fast rebuild minimum of ${formatRateWithRaw(fast.speedMinKiBs)} the diagnosis proposes for a rebuild held back by other I/O: up to ${time(fast.speedMinKiBs)}.`,
        ...(measured ? [`The last ${measured.type} here averaged ${formatRateWithRaw(measured.kiBs)}: at that pace, about ${time(measured.kiBs)}.`] : []),
        'Once it runs, the array\'s row on the overview follows it and, where a change would make it faster, offers “Speed up rebuild…”.',
    ];
}

const durationLines = (dialog: Locator) => dialog.locator('.raidtune-replace-duration p').allInnerTexts();

/** A rebuild of md0 as the history recorder keeps it (src/md/history.ts), read by the page's next full read. */
async function recordRebuild(avgKiBs: number): Promise<void> {
    const uuid = await simValue(env, '/sys/block/md0/md/uuid');
    const sizeKiB = await simNumber(env, '/sys/block/md0/md/component_size');
    const seconds = Math.round(sizeKiB / avgKiBs);
    const dir = join(env.sim.root, 'var/lib/raidtune/history');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${uuid}.jsonl`), JSON.stringify({
        v: 1, array: 'md0', uuid, type: 'recover', start: 1_700_000_000, end: 1_700_000_000 + seconds, seconds,
        result: 'finished', limitsChanged: false, startKiB: 0, doneKiB: sizeKiB, sizeKiB, avgKiBps: avgKiBs,
        speedMin: 1000, speedMax: 200000, mismatches: 0, interval: 60,
    }) + '\n');
    await nextReadRendered(env.page, { full: true });
}

test('md0\'s empty slot: the blank disks offered, those with signatures once their wipe is chosen, every other refused with its reason; nothing written', async () => {
    const dialog = await openAddDisk('md0');
    await expect(dialog.locator('.raidtune-replace-needs').innerText()).resolves
        .toMatch(/^The new device needs at least 1\.8\d TiB and logical blocks of at most 512 bytes\.$/);
    expect(await offered(dialog)).toEqual(['/dev/sdg', '/dev/sdk']);
    const refused = await refusedReasons(dialog);
    expect(refused.sda).toBe('/dev/sda (1.82 TiB): It holds a member of md0 now.');
    expect(refused.sde).toMatch(/^\/dev\/sde \(1\.82 TiB\): It holds a member of md1\. It holds a member of md2\.$/);
    expect(refused.sdi).toMatch(/^\/dev\/sdi \(932 GiB\): Too small: 932 GiB, and md0 needs at least 1\.8\d TiB for a member\.$/);
    expect(refused.sdj).toMatch(/^\/dev\/sdj \(1\.82 TiB\): Its logical block size is 4096 bytes, larger than the 512 bytes of md0: md cannot use it/);
    // Partitions of a refused disk are not listed apart (the disk's line says why); those of the
    // free sdf are, each too small for md0.
    expect(Object.keys(refused).filter(name => /\d$/.test(name))).toEqual(['sdf1', 'sdf2']);
    expect(refused.sdf1).toMatch(/^\/dev\/sdf1 \(1\.00 GiB\): Too small: /);

    const wipe = dialog.locator('#replace-wipe');
    await expect(wipe.locator('xpath=..').innerText()).resolves.toContain('(sdd, sdf, sdh)');
    await wipe.check();
    expect(await offered(dialog)).toEqual(['/dev/sdd', '/dev/sdf', '/dev/sdg', '/dev/sdh', '/dev/sdk']);
    await dialog.getByRole('radio', { name: '/dev/sdh' }).check();
    await expect(dialog.locator('.raidtune-replace-candidate', { hasText: '/dev/sdh' }).innerText()).resolves
        .toContain('Signatures on it: ext4 on sdh. Chosen, it is wiped first.');
    expect(await commands(dialog)).toBe('wipefs --all /dev/sdh\nmdadm /dev/md0 --add /dev/sdh');
    // No history recorded: the limits as they are, and with those the diagnosis would propose once it runs.
    expect(await durationLines(dialog)).toEqual(await expectedDuration(null));

    await dialogButton(env.page, 'Cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await wipefsSays('sdh')).toEqual(['ext4']);
    expect((await simMdstat(env)).get('md0')!.members.map(m => m.name).sort()).toEqual(['sda', 'sdb', 'sdc']);
});

test('md0: sdg added from the page, with the pace of its last rebuild; md rebuilds onto it and the alert says so', async () => {
    // Below the kernel's maximum: a pace above it md would not reach, and the dialog would not give it.
    const averaged = 120000;
    await recordRebuild(averaged);
    const dialog = await openAddDisk('md0');
    const lines = await durationLines(dialog);
    expect(lines[0]).toMatch(/^md writes 1\.8\d TiB onto the new member\. At the maximum of /);
    expect(lines).toEqual(await expectedDuration({ type: 'rebuild', kiBs: averaged }));
    expect(await commands(dialog)).toBe('mdadm /dev/md0 --add /dev/sdg');
    await dialogButton(env.page, 'Add').click();
    await dialog.getByText('Done.', { exact: false }).waitFor();
    await dialogButton(env.page, 'Close').click();
    const md0 = (await simMdstat(env)).get('md0')!;
    expect(md0.members.map(m => m.name).sort()).toEqual(['sda', 'sdb', 'sdc', 'sdg']);
    await waitUntil('md0\'s alert says the rebuild is under way', async () =>
        (await arrayCard(env.page, 'md0').locator('.raidtune-health-alert .pf-v6-c-alert__title').innerText()).includes('a rebuild is under way'));
});

test('md2, members on partitions: the plan copies sde\'s table onto a whole disk; cut short when md1 stopped meanwhile, it says what ran and what did not, and undoes the copy', async () => {
    const dialog = await openAddDisk('md2');
    await expect(dialog.locator('.raidtune-replace-needs').innerText()).resolves.toMatch(/^The members are partitions: a whole disk of at least .* gets the partition table of sde/);
    // sdg is md0's now; only whole disks are listed.
    expect(await offered(dialog)).toEqual(['/dev/sdk']);
    const shown = await commands(dialog);
    expect(shown).toMatch(/^sfdisk \/dev\/sdk <<'EOF'\nlabel: gpt\n/);
    expect(shown).not.toMatch(/label-id|uuid=/);
    expect(shown).toMatch(/\nEOF\nmdadm \/dev\/md1 --add \/dev\/sdk1\nmdadm \/dev\/md2 --add \/dev\/sdk2$/);
    await expect(dialog.locator('.raidtune-replace-targets').innerText()).resolves.toBe('/dev/md1: sdk1 fills the empty slot.\n/dev/md2: sdk2 fills the empty slot.');

    await simMdadm('--stop', '/dev/md1');
    await dialogButton(env.page, 'Add').click();
    await dialog.locator('.raidtune-cut-short').waitFor();
    await expect(dialog.locator('.pf-v6-c-alert.pf-m-danger .pf-v6-c-alert__title').innerText()).resolves
        .toMatch(/Changing the members of \/dev\/md1 failed: error opening \/dev\/md1: No such file or directory$/);
    await expect(dialog.locator('.raidtune-cut-short-done').innerText()).resolves.toMatch(/^sfdisk \/dev\/sdk <<'EOF'\n[^]*\nEOF$/);
    await expect(dialog.locator('.raidtune-cut-short-left').innerText()).resolves.toBe('mdadm /dev/md2 --add /dev/sdk2');
    expect(await wipefsSays('sdk')).toEqual(['gpt', 'gpt', 'PMBR']);

    await dialogButton(env.page, 'Undo the 1 change already made').click();
    await dialog.getByText('The changes made before the failure were undone.').waitFor();
    expect(await wipefsSays('sdk')).toEqual([]);
    expect((await simMdstat(env)).get('md2')!.members.map(m => m.name)).toEqual(['sde2']);
});
