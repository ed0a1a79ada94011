// SPDX-License-Identifier: LGPL-2.1-or-later
// The harness itself: the guest is the real kernel that build-guest.sh packed, md is there, and
// the control channel (run) keeps output, exit codes, timeouts and concurrent calls apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { vmBuildDir } from '../../tools/vm/vm';
import { setupVm } from './harness/vmEnv';

const vm = setupVm({ browser: false });

/** True when the kernel package build-guest.sh unpacked has md's MODULE, loadable or built in. */
function kernelPackageHas(kernel: string, module: string): boolean {
    const modules = join(vmBuildDir(), 'kernel', kernel, 'lib', 'modules', kernel);
    const ko = new RegExp(`(^|/)${module}\\.ko(\\.\\w+)?:?$`, 'm');
    return ko.test(readFileSync(join(modules, 'modules.dep'), 'utf8').replace(/:.*$/gm, '')) ||
        ko.test(readFileSync(join(modules, 'modules.builtin'), 'utf8'));
}

test('the guest runs the kernel build-guest.sh packed, with md, 8 empty disks and a 4Kn one', async () => {
    const kernel = readFileSync(join(vmBuildDir(), 'guest.env'), 'utf8').match(/^KERNEL=(.*)$/m)![1];
    expect((await vm.guest.runOk('uname -r')).trim()).toBe(kernel);
    const mdstat = await vm.guest.runOk('cat /proc/mdstat');
    for (const personality of ['[raid0]', '[raid1]', '[raid10]', '[raid5]', '[raid6]'])
        expect(mdstat).toContain(personality);
    // md's linear personality (linear.ko up to 6.7, md-linear.ko from 6.14) is not in Debian's 6.12
    // and 7.x builds: the guest has it exactly when the kernel package does.
    expect(mdstat.includes('[linear]')).toBe(kernelPackageHas(kernel, 'linear') || kernelPackageHas(kernel, 'md-linear'));
    expect(kernelPackageHas(kernel, 'raid456')).toBe(true);
    expect(vm.info.disks).toEqual(['vda', 'vdb', 'vdc', 'vdd', 'vde', 'vdf', 'vdg', 'vdh', 'vdi']);
    // Sizes in 512-byte sectors whatever the block size; vdi alone has 4096-byte logical blocks.
    const sizes = await vm.guest.runOk('for d in /sys/block/vd?; do echo "${d##*/} $(cat $d/size) $(cat $d/queue/logical_block_size)"; done');
    expect(sizes.trim().split('\n')).toEqual(vm.info.disks.map(d => `${d} ${256 * 2048} ${d === 'vdi' ? 4096 : 512}`));
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
