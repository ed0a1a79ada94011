// SPDX-License-Identifier: LGPL-2.1-or-later
// "Record sync history": the recorder's timer (installed with the plugin, off until the admin turns
// it on) read from `systemctl show` with the alerts' units, and turned on or off as a plan. The
// recorder itself is recorder/raidtune-history; what it writes is read by src/md/history.ts.

import { unitOf, type MonitorState } from './alerts/monitor';
import { HISTORY_TIMER } from './history';
import { msg, N_ } from './message';
import type { Plan } from './plan';

/**
 * on/off: the timer's state. not-installed: systemd does not know the timer (the plugin was copied
 * without its units). unknown: no systemd to ask (a container, the test guest).
 */
export type RecordingState = 'on' | 'off' | 'not-installed' | 'unknown';

export function recordingState(state: MonitorState | null): RecordingState {
    if (!state || state.units === null) return 'unknown';
    const timer = unitOf(state, HISTORY_TIMER);
    if (!timer) return 'not-installed';
    return timer.activeState === 'active' ? 'on' : 'off';
}

/**
 * Turning recording on or off: `systemctl enable --now` or `disable --now` of the timer (argv), the
 * other its undo. The files recorded so far stay: turning it off stops new samples, not the history.
 */
export function recordingPlan(on: boolean, systemctl: string): Plan {
    const enable = [systemctl, 'enable', '--now', HISTORY_TIMER];
    const disable = [systemctl, 'disable', '--now', HISTORY_TIMER];
    return {
        title: on ? msg(N_('Record sync history')) : msg(N_('Stop recording sync history')),
        steps: [{
            kind: 'run', setting: msg(N_('timer $0'), HISTORY_TIMER),
            argv: on ? enable : disable, undoArgv: on ? disable : enable,
        }],
    };
}
