// SPDX-License-Identifier: LGPL-2.1-or-later
// Whether the host has a program: a name is looked up in the PATH the bridge runs commands with, a
// path taken as it is. The program is an argument, never part of the script.

import { cockpitApi } from './cockpit';

export async function isInstalledOnHost(program: string): Promise<boolean> {
    try {
        await cockpitApi().spawn(['sh', '-c', 'command -v -- "$1" >/dev/null', 'raidtune-has', program], { err: 'ignore' });
        return true;
    } catch {
        return false;
    }
}
