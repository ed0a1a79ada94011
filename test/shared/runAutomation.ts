// SPDX-License-Identifier: LGPL-2.1-or-later
// Runs an exported automation script or playbook for real on a test tree (`root` stands for the
// target host's /): the shell script with the real sh, the playbook with ansible-playbook -c local.
// Shared by the unit tests of the generators and the browser tests that copy them from the dialog.

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { join } from 'node:path';

export function runShellScript(root: string, script: string): SpawnSyncReturns<string> {
    return spawnSync('sh', ['-c', script, 'raidtune'], { encoding: 'utf8', env: { PATH: process.env.PATH, RAIDTUNE_ROOT: root, LC_ALL: 'C' } });
}

/** ansible-playbook on localhost, without become, its temp files and home under `root`. */
export function runPlaybook(root: string, file: string): SpawnSyncReturns<string> {
    return spawnSync('ansible-playbook', ['-i', 'localhost,', '-c', 'local', '-e', `raidtune_root=${root}`, '-e', 'ansible_become=false', file], {
        encoding: 'utf8',
        env: { ...process.env, ANSIBLE_NOCOLOR: '1', ANSIBLE_LOCAL_TEMP: join(root, '.ansible-tmp'), ANSIBLE_HOME: join(root, '.ansible') },
    });
}

/** What ansible-playbook's recap says a run changed on localhost. */
export function changedCount(run: SpawnSyncReturns<string>): number | null {
    const count = /localhost\s*: ok=\d+\s+changed=(\d+) /.exec(run.stdout)?.[1];
    return count === undefined ? null : Number(count);
}
