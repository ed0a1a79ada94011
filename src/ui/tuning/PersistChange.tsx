// SPDX-License-Identifier: LGPL-2.1-or-later
// "Settings after a reboot": for each tuned setting, whether the host gets the live value back at
// the next boot, and the two changes that decide it: keep the live values (a sysctl.d file and a
// udev rule, previewed whole) or stop keeping them (both files removed).

import { useState } from 'react';
import { Content } from '../pf';
import { SettingLine } from '../common/SettingLine';
import { Flex, FlexItem } from '../pfDetails';
import { _, fmt, ngettext } from '../../host/i18n';
import { formatKiB, formatRate } from '../../md/format';
import type { HostModel } from '../../md/modelTypes';
import {
    forgetPlan, keepPlan, keptComparisons, modulesLoadPath, sysctlPath, udevRulesPath, type KeptComparison,
    type PersistDirs,
} from '../../md/tuning/persist';
import { useHost } from '../common/HostContext';
import { GuardedButton } from '../common/GuardedButton';
import { text, textAtStart } from '../common/message';
import { ChangeModal } from '../plan/lazyChangeModal';
import { CompactTable, type Column } from '../common/CompactTable';

function shownValue(value: string | null, unit: KeptComparison['unit']): string {
    if (value === null) return _('unknown');
    if (value === 'system') return _('the system limit');
    switch (unit) {
    case 'kibs': return fmt(_('$0 per disk'), formatRate(Number(value)));
    case 'kib': return formatKiB(Number(value));
    case 'plain': return value;
    }
}

function status(c: KeptComparison): string {
    switch (c.state) {
    case 'kept':
        return _('Kept for reboot');
    case 'differs':
        return fmt(_('Differs from the value kept for reboot: $0'), shownValue(c.atBoot, c.unit));
    case 'not-kept':
        return fmt(_('Not kept: $0 after a reboot'), shownValue(c.atBoot, c.unit));
    }
}

/** A core setting name ("stripe cache size of md0") at the start of a table cell. */
function settingLabel(c: KeptComparison): string {
    return textAtStart(c.setting);
}

function keptFiles(model: HostModel, dirs: PersistDirs): string[] {
    const { sysctl, udev, modulesLoad } = model.persisted;
    return [sysctl && sysctlPath(dirs), udev && udevRulesPath(dirs), modulesLoad && modulesLoadPath(dirs)]
        .filter((p): p is string => !!p);
}

function Comparisons({ comparisons }: { comparisons: KeptComparison[] }) {
    const columns: Column<KeptComparison>[] = [
        { title: _('Setting'), cell: settingLabel },
        { title: _('Now'), cell: c => shownValue(c.live, c.unit) },
        { title: _('After a reboot'), cell: status },
    ];
    return (
        <CompactTable className="raidtune-kept" label={_('Settings after a reboot')} columns={columns} rows={comparisons}
            rowKey={settingLabel} rowAttributes={c => ({ 'data-state': c.state })} />
    );
}

export function KeepAfterReboot() {
    const { model, config } = useHost();
    // A dialog holds the model it opened with: the files' text it would replace is checked at Apply.
    const [open, setOpen] = useState<null | { which: 'keep' | 'forget'; model: HostModel }>(null);
    const close = () => setOpen(null);
    const keep = keepPlan(model, config);
    const forget = forgetPlan(model, config);
    const opened = open && (open.which === 'keep' ? keepPlan(open.model, config) : { plan: forgetPlan(open.model, config), warnings: [] });
    const files = keptFiles(model, config);
    const comparisons = keptComparisons(model);
    const keepReason = keep.errors ? text(keep.errors.persist!)
        : keep.plan.steps.length ? null
            : files.length ? _('The files already keep the current values.') : _('Every setting is at the value the kernel starts with.');
    const differing = comparisons.filter(c => c.state !== 'kept').length;
    const actions = (
        <Flex spaceItems={{ default: 'spaceItemsSm' }} flexWrap={{ default: 'nowrap' }}>
            <FlexItem><GuardedButton variant="secondary" disabledReason={keepReason} onClick={() => setOpen({ which: 'keep', model })}>{_('Keep after reboot…')}</GuardedButton></FlexItem>
            {forget.steps.length > 0 && (
                <FlexItem><GuardedButton variant="secondary" onClick={() => setOpen({ which: 'forget', model })}>{_('Stop keeping…')}</GuardedButton></FlexItem>
            )}
        </Flex>
    );
    const summary = (
        <Content component="p" className="raidtune-kept-files">
            {files.length
                ? fmt(_('Kept in $0.'), files.join(', '))
                : _('Nothing is kept: md settings are lost at reboot and the kernel starts with its defaults.')}
            {differing > 0 && ' ' + fmt(ngettext('$0 setting is not what a reboot brings back.',
                '$0 settings are not what a reboot brings back.', differing), differing)}
        </Content>
    );
    return (
        <SettingLine id="keep-after-reboot" title={_('Settings after a reboot')} summary={summary} actions={actions}
            details={comparisons.length > 0 && <Comparisons comparisons={comparisons} />}>
            {open?.which === 'keep' && (
                <ChangeModal title={_('Keep after reboot')} plan={opened?.plan ?? null} warnings={opened?.warnings} recordOriginals={false} onClose={close}>
                    {_('The current values go into these files. At boot systemd-sysctl sets the system limits (after md is loaded), and udev writes the array settings when each array starts, recognising it by its UUID, and the disk settings when each disk appears, recognising it by its WWID.')}
                </ChangeModal>
            )}
            {open?.which === 'forget' && (
                <ChangeModal title={_('Stop keeping settings after a reboot')} plan={opened?.plan ?? null} recordOriginals={false} onClose={close}>
                    {_('The files are removed; the live values stay until the next boot, which starts with the kernel defaults.')}
                </ChangeModal>
            )}
        </SettingLine>
    );
}
