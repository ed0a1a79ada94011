// SPDX-License-Identifier: LGPL-2.1-or-later
// What an array's actions say on its buttons and in its menu.

import { _ } from '../../host/i18n';
import type { ArrayAction, OfferedAction } from '../../md/tuning/arrayActions';
import type { SyncControl } from '../../md/tuning/syncControl';
import { text } from '../common/message';

export const CONTROL_LABELS: Record<SyncControl, () => string> = {
    pause: () => _('Pause'),
    resume: () => _('Resume'),
    restart: () => _('Restart sync'),
    stop: () => _('Stop check'),
    check: () => _('Start check'),
    repair: () => _('Start repair'),
};

const SETTING_LABELS: Record<Exclude<ArrayAction, SyncControl>, () => string> = {
    'limits': () => _('Speed limits…'),
    'stripe-cache': () => _('Stripe cache…'),
    'read-ahead': () => _('Read-ahead…'),
    'worker-threads': () => _('Worker threads…'),
    'disk-queues': () => _('Disk queues…'),
    'bitmap-add': () => _('Add bitmap…'),
    'bitmap-remove': () => _('Remove bitmap…'),
};

/** One action as the page shows it: what it says, why it is disabled (null: it is not). */
export interface ShownAction {
    opens: ArrayAction;
    label: string;
    reason: string | null;
}

function actionLabel(action: ArrayAction): string {
    return action in CONTROL_LABELS
        ? CONTROL_LABELS[action as SyncControl]()
        : SETTING_LABELS[action as keyof typeof SETTING_LABELS]();
}

export function shownActions(offered: OfferedAction[]): ShownAction[] {
    return offered.map(o => ({ opens: o.action, label: actionLabel(o.action), reason: o.refusal && text(o.refusal) }));
}

export const sameActions = (a: ShownAction[], b: ShownAction[]) =>
    a.length === b.length &&
    a.every((x, i) => x.opens === b[i].opens && x.label === b[i].label && x.reason === b[i].reason);
