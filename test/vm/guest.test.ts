// The harness itself: the guest is the real kernel that build-guest.sh packed, md is there, and
// the control channel (run) keeps output, exit codes, timeouts and concurrent calls apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { vmBuildDir } from '../../tools/vm/vm';
import { setupVm } from './harness/vmEnv';

const vm = setupVm({ browser: false });

test('the guest runs the kernel build-guest.sh packed, with md and 8 empty disks', async () => {
    const kernel = readFileSync(join(vmBuildDir(), 'guest.env'), 'utf8').match(/^KERNEL=(.*)$/m)![1];
    expect((await vm.guest.runOk('uname -r')).trim()).toBe(kernel);
    const mdstat = await vm.guest.runOk('cat /proc/mdstat');
    for (const personality of ['[linear]', '[raid0]', '[raid1]', '[raid10]', '[raid5]', '[raid6]'])
        expect(mdstat).toContain(personality);
    expect(vm.info.disks).toEqual(['vda', 'vdb', 'vdc', 'vdd', 'vde', 'vdf', 'vdg', 'vdh']);
    const sizes = await vm.guest.runOk('for d in /sys/block/vd?; do echo "${d##*/} $(cat $d/size)"; done');
    expect(sizes.trim().split('\n')).toEqual(vm.info.disks.map(d => `${d} ${256 * 2048}`));
    expect((await vm.guest.runOk('id -u; mdadm --version 2>&1')).split('\n')[0]).toBe('0');
});

test('run() returns stdout and stderr together with the exit code', async () => {
    expect(await vm.guest.run('echo out; echo err >&2; exit 7')).toEqual({ out: 'out\nerr\n', code: 7 });
    expect(await vm.guest.run(`printf '%s' "it's \\"quoted\\" – ü"`)).toEqual({ out: 'it\'s "quoted" – ü', code: 0 });
    await expect(vm.guest.runOk('false')).rejects.toThrow(/exit 1/);
});

test('run() handles long output, parallel calls and kills what outlives its timeout', async () => {
    const long = await vm.guest.runOk('seq 1 20000');
    expect(long.split('\n').length).toBe(20001);
    const parallel = await Promise.all([1, 2, 3, 4, 5].map(i => vm.guest.runOk(`echo ${i}`)));
    expect(parallel).toEqual(['1\n', '2\n', '3\n', '4\n', '5\n']);
    const t0 = performance.now();
    const slow = await vm.guest.run('sleep 30', { timeoutMs: 1000 });
    expect(slow.code).toBe(137);
    expect(performance.now() - t0).toBeLessThan(10000);
    expect(await vm.guest.runOk('echo still there')).toBe('still there\n');
});
