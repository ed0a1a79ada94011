// SPDX-License-Identifier: LGPL-2.1-or-later
// "Restore automatically when the sync of mdX finishes", per array with a running sync, and the
// armed ones with a way to cancel. The waiting happens on the host (src/md/waiterScript.ts), so
// the restore also happens with this page closed; the page only arms, shows and cancels. The
// dialogs belong to the restore banner (RestoreBanner.tsx), which outlives these rows.

import { Label, Stack, StackItem } from '../pf';
import { _, fmt, ngettext } from '../../host/i18n';
import { armPlan, armRefusal, cancelPlan, notRestoredBy, type ArmedRestore } from '../../md/autoRestore';
import type { Journal } from '../../md/journal';
import type { ArrayModel } from '../../md/modelTypes';
import type { Plan, Step } from '../../md/plan';
import { useHost } from '../common/HostContext';
import { GuardedButton } from '../common/GuardedButton';
import { text } from '../common/message';

/** A change dialog the banner shows: its plan is fixed when the dialog opens. */
export interface BannerChange {
    title: string;
    plan: Plan;
    steps?: Step[];
    applyLabel: string;
    explanation?: string;
}

/** What the waiter will really write back: its own file's count, and the recorded settings it leaves. */
function ArmedRow({ array, armed, journal, onCancel }: {
    array: string; armed: ArmedRestore; journal: Journal | null; onCancel: () => void;
}) {
    const count = armed.writes.length;
    const left = notRestoredBy(armed, journal);
    return (
        <div className="raidtune-inline-row">
            <div>
                <Label color="blue" className="raidtune-auto-restore-armed">
                    {fmt(ngettext('Armed: restores $0 setting when the sync of $1 finishes', 'Armed: restores $0 settings when the sync of $1 finishes', count), count, array)}
                </Label>
            </div>
            <div>
                <GuardedButton variant="link" isInline onClick={onCancel}
                    aria-label={fmt(_('Cancel the automatic restore of $0'), array)}>{_('Cancel')}</GuardedButton>
            </div>
            {left.length > 0 && (
                <div className="raidtune-auto-restore-left">
                    {fmt(_('The automatic restore leaves these settings as they are: $0. “Restore previous settings” puts them back.'), left.map(text).join(', '))}
                </div>
            )}
        </div>
    );
}

/** Arrays whose running sync could end the boost, and the armed ones (even if their sync is gone). */
function rows(arrays: ArrayModel[], armed: ReadonlyMap<string, unknown>): string[] {
    const names = arrays.filter(a => a.sync && a.sync.runState !== 'pending').map(a => a.name);
    return [...new Set([...names, ...armed.keys()])];
}

export function AutoRestore({ onChange }: { onChange: (change: BannerChange) => void }) {
    const { model, config } = useHost();
    const names = rows(model.arrays, model.autoRestore);
    if (!names.length) return null;
    const arm = (array: string) => model.journal && onChange({
        title: fmt(_('Restore automatically when the sync of $0 finishes'), array),
        plan: armPlan(array, model.journal, config, model.systemd),
        applyLabel: _('Arm'),
        explanation: fmt(_('A small program on the host checks $0 every few seconds. When its sync has finished (md reports it idle for several checks in a row), it writes back the previous values and removes raidtune\'s record, also with this page closed. What raidtune changes until then is written back too. Until then it keeps the speed history for the chart.'), array),
    });
    const cancel = (array: string) => {
        const armed = model.autoRestore.get(array);
        if (!armed) return;
        onChange({
            title: fmt(_('Cancel the automatic restore of $0'), array),
            plan: cancelPlan(array, armed, config, model.systemd),
            applyLabel: _('Cancel automatic restore'),
            explanation: _('The settings stay as they are; "Restore previous settings" still puts them back.'),
        });
    };
    return (
        <Stack hasGutter className="raidtune-auto-restore">
            {names.map(name => {
                const armed = model.autoRestore.get(name);
                if (armed) {
                    return (
                        <StackItem key={name}>
                            <ArmedRow array={name} armed={armed} journal={model.journal}
                                onCancel={() => cancel(name)} />
                        </StackItem>
                    );
                }
                const array = model.arrays.find(a => a.name === name)!;
                const refusal = armRefusal(array, model.journal, model.autoRestore);
                return (
                    <StackItem key={name}>
                        <GuardedButton variant="secondary" size="sm" disabledReason={refusal && text(refusal)} onClick={() => arm(name)}>
                            {fmt(_('Restore automatically when the sync of $0 finishes…'), name)}
                        </GuardedButton>
                    </StackItem>
                );
            })}
        </Stack>
    );
}
