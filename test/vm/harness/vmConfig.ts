// SPDX-License-Identifier: LGPL-2.1-or-later
// The plugin configuration the tier's guest bridge gets (a manifest override written by
// globalSetup through startGuestCockpit): paths are the GUEST's.

/** raidtune's state folder (the restore journal) in the guest; resetMd() removes it. */
export const VM_STATE_DIR = '/run/raidtune-state';
export const VM_JOURNAL = `${VM_STATE_DIR}/restore.json`;

export const VM_PLUGIN_CONFIG = { stateDir: VM_STATE_DIR };

/** Written by globalSetup when the tier's cockpit session ends before the run does. */
export function sessionLostFile(runDir: string): string {
    return `${runDir}/session-lost.txt`;
}
