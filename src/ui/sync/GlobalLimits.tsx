// SPDX-License-Identifier: LGPL-2.1-or-later
import { useState } from 'react';
import { Content } from '../pf';
import { SettingLine } from '../common/SettingLine';
import { Flex, FlexItem } from '../pfDetails';
import { GuardedButton } from '../common/GuardedButton';
import { GlobalLimitsChange, PresetChange } from '../tuning/lazyChanges';
import { syncIoDepthHelp, syncIoDepthText } from '../tuning/syncIoDepthTexts';
import { _, fmt } from '../../host/i18n';
import { formatRateWithRaw } from '../../md/format';
import { type HostModel } from '../../md/modelTypes';
import { KERNEL_DEFAULT_SPEED_MAX, KERNEL_DEFAULT_SPEED_MIN } from '../../md/settings/registry';

function limit(kiBs: number | null, kernelDefault: number): string {
    if (kiBs === null) return _('unknown');
    return kiBs === kernelDefault ? fmt(_('$0, the kernel default'), formatRateWithRaw(kiBs)) : formatRateWithRaw(kiBs);
}

export function GlobalLimits({ model }: { model: HostModel }) {
    const [changing, setChanging] = useState(false);
    const [choosingPreset, setChoosingPreset] = useState(false);
    const actions = (
        <Flex spaceItems={{ default: 'spaceItemsSm' }} flexWrap={{ default: 'nowrap' }}>
            <FlexItem><GuardedButton variant="secondary" onClick={() => setChanging(true)}>{_('Change…')}</GuardedButton></FlexItem>
            <FlexItem><GuardedButton variant="secondary" onClick={() => setChoosingPreset(true)}>{_('Presets…')}</GuardedButton></FlexItem>
        </Flex>
    );
    const summary = (
        <Content component="p" className="raidtune-sync-facts">
            <span><strong>{_('Minimum')}:</strong> {limit(model.global.speedMinKiBs, KERNEL_DEFAULT_SPEED_MIN)}</span>
            <span><strong>{_('Maximum')}:</strong> {limit(model.global.speedMaxKiBs, KERNEL_DEFAULT_SPEED_MAX)}</span>
            {model.global.syncIoDepth !== null && (
                <span id="global-sync-io-depth"><strong>{_('Sync I/O depth')}:</strong> {syncIoDepthText(model.global.syncIoDepth)}</span>
            )}
        </Content>
    );
    const details = (
        <Content component="p">
            {_('A rebuild runs at up to the maximum when the disks are otherwise idle, and is slowed down toward the minimum while other I/O uses them.')}
            {model.global.syncIoDepth !== null && ' ' + syncIoDepthHelp()}
        </Content>
    );
    return (
        <SettingLine id="global-limits" title={_('System rebuild speed limits (per disk)')} summary={summary}
            actions={actions} details={details}>
            {changing && <GlobalLimitsChange onClose={() => setChanging(false)} />}
            {choosingPreset && <PresetChange onClose={() => setChoosingPreset(false)} />}
        </SettingLine>
    );
}
