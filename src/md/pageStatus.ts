// SPDX-License-Identifier: LGPL-2.1-or-later
// What Cockpit's menu entry for raidtune says about the host (Cockpit's "page status": a warning or
// error icon beside the entry, with a title as its tooltip): an error while an array is inactive or
// failed or one more failed disk loses its data (the health advice's danger, as the overview and the
// card mark it), a warning while one is degraded or rebuilding, has a failed or failing member, a
// finished check found mismatches, or its sync has made no progress for a while (src/md/stall.ts);
// nothing otherwise. The first array of the worst kind is named.

import { healthAdvice, type HealthSituation } from './advice/health';
import { msg, N_, type Message } from './message';
import type { ArrayModel, HostModel } from './modelTypes';

export interface PageStatus {
    type: 'warning' | 'error';
    title: Message;
}

const TITLES: Record<HealthSituation, { type: PageStatus['type']; title: string }> = {
    inactive: { type: 'error', title: N_('$0 is not running') },
    failed: { type: 'error', title: N_('$0 failed: too few disks to run') },
    degraded: { type: 'warning', title: N_('$0 is degraded') },
    rebuilding: { type: 'warning', title: N_('$0 is degraded and rebuilding') },
    'member-trouble': { type: 'warning', title: N_('A disk of $0 failed or reports errors') },
};

const NO_REDUNDANCY = N_('$0 has no redundancy left: one more failed disk loses its data');

export function pageStatus(model: HostModel): PageStatus | null {
    let warning: PageStatus | null = null;
    for (const array of model.arrays) {
        const advice = healthAdvice(array, model.disks);
        const kind = advice ? TITLES[advice.situation] : null;
        if (kind?.type === 'error') return { type: 'error', title: msg(kind.title, array.name) };
        if (advice?.severity === 'danger') return { type: 'error', title: msg(NO_REDUNDANCY, array.name) };
        warning ??= arrayWarning(array, kind?.title ?? null);
    }
    return warning;
}

/**
 * A stalled sync is named before the array's health: "degraded and rebuilding" would hide that
 * the rebuild no longer moves.
 */
function arrayWarning(array: ArrayModel, healthTitle: string | null): PageStatus | null {
    const stall = array.sync?.stall;
    if (stall) {
        return { type: 'warning', title: msg(N_('The sync of $0 has made no progress for $1 min'), array.name,
            Math.floor(stall.forMs / 60000)) };
    }
    if (healthTitle) return { type: 'warning', title: msg(healthTitle, array.name) };
    if (array.mismatchMeaning === 'check' && (array.mismatchCount ?? 0) > 0) {
        return { type: 'warning', title: msg(N_('The last check of $0 found mismatches'), array.name) };
    }
    return null;
}
