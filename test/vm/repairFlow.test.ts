// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15's guided "repair, then check again" on the real kernel: a RAID1 made with
// --assume-clean over members whose content differs has real mismatches; a check counts them, and
// the page's repair and check after it leave mismatch_cnt at 0, with the page's comparison the
// kernel's own figures.
import { arrayCard, openDialog, waitUntil } from '../browser/harness/raidtunePage';
import { applyAndWait, footerButton, previewedCommands } from './harness/dialog';
import { mdCreate, waitForCard } from './harness/scenarios';
import { VM_STATE_DIR } from './harness/vmConfig';
import { setupVm } from './harness/vmEnv';

const vm = setupVm();
const RECORD = `${VM_STATE_DIR}/repair/md0.json`;

const kernel = async (attribute: string) => (await vm.guest.runOk(`cat /sys/block/md0/md/${attribute}`)).trim();

test('a real mismatch: repair, then check again through the page; the comparison is the kernel\'s', async () => {
    // 8 MiB of other data on one member only: --assume-clean keeps md from copying it over.
    await vm.guest.runOk('dd if=/dev/urandom of=/dev/vdb bs=1M seek=4 count=8 conv=fsync 2>/dev/null');
    await vm.guest.runOk(mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean --bitmap=none'));
    await vm.guest.runOk('echo check > /sys/block/md0/md/sync_action; mdadm --wait /dev/md0; true', { timeoutMs: 120000 });
    expect(await kernel('last_sync_action')).toBe('check');
    const before = Number(await kernel('mismatch_cnt'));
    expect(before).toBeGreaterThan(0);
    // The repair held slow enough to be seen running; raised once it has been.
    await vm.guest.runOk('echo 2000 > /sys/block/md0/md/sync_speed_max');

    const { page } = await vm.openPage();
    await waitForCard(page, 'md0', false);
    const card = arrayCard(page, 'md0');
    const step = (name: string) => card.locator(`.raidtune-repair-${name} .raidtune-repair-text`);
    await expect(step('offer').innerText()).resolves.toMatch(new RegExp(`^The last check found ${before} mismatched sectors\\.`));

    await openDialog(card.getByRole('button', { name: 'Repair…' }));
    expect(await previewedCommands(page)).toMatch(/\nEOF\necho repair > \/sys\/block\/md0\/md\/sync_action$/);
    await expect(page.locator('.raidtune-repair-preview').innerText()).resolves
        .toMatch(/^On RAID1 a repair reads every block from all copies and, where they differ, copies the first copy it could read over the others\./);
    expect((await applyAndWait(page, 'Start repair'))[0]).toMatch(/^Done\./);
    await footerButton(page, 'Close').click();

    await expect(step('repairing').innerText()).resolves.toMatch(new RegExp(`^It started from ${before} mismatched sectors found by the last check\\.`));
    expect(await kernel('sync_action')).toBe('repair');
    expect(JSON.parse(await vm.guest.runOk(`cat ${RECORD}`))).toMatchObject({ array: 'md0', before, checkStartedAt: null });

    await vm.guest.runOk('echo system > /sys/block/md0/md/sync_speed_max');
    await step('repaired').waitFor({ timeout: 150000 });
    expect(await kernel('last_sync_action')).toBe('repair');
    await openDialog(card.getByRole('button', { name: 'Check again…' }));
    expect((await applyAndWait(page, 'Start check'))[0]).toMatch(/^Done\./);
    await footerButton(page, 'Close').click();

    await step('compared').waitFor({ timeout: 150000 });
    expect(await kernel('last_sync_action')).toBe('check');
    const after = Number(await kernel('mismatch_cnt'));
    expect(after).toBe(0);
    await expect(step('compared').innerText()).resolves
        .toBe(`Before the repair: ${before} mismatched sectors; after the repair's check: ${after}. Repaired: the check after the repair found no mismatches.`);

    await openDialog(card.getByRole('button', { name: 'Done' }));
    expect((await applyAndWait(page, 'End'))[0]).toMatch(/^Done\./);
    await footerButton(page, 'Close').click();
    expect((await vm.guest.runOk(`test -e ${RECORD} && echo present || echo absent`)).trim()).toBe('absent');
    await waitUntil('the flow gone from the card', async () => await card.locator('.raidtune-repair-flow').count() === 0);
}, 420000);
