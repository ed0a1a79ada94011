// SPDX-License-Identifier: LGPL-2.1-or-later
// The "Presets…" dialog: three choices with one line each on what they do, and the exact writes
// of the chosen one before anything is written.

import { useState } from 'react';
import { Content } from '../pf';
import { Form, FormGroup, FormHelperText, HelperText, HelperTextItem, Radio } from '../pfForms';
import { _, fmt } from '../../host/i18n';
import { formatRate, formatRateWithRaw, KIB_PER_MIB } from '../../md/format';
import { PRESET_NAMES, PRESETS, presetPlan, type PresetName } from '../../md/tuning/presets';
import { STRIPE_CACHE_MEMORY } from '../../md/tuning/stripeCache';
import { useHostAsOpened } from '../common/HostContext';
import { text } from '../common/message';
import { ChangeModal } from '../plan/ChangeModal';
import { presetLabel } from './presetLabels';


/**
 * A preset's speed: its round MiB/s, or, for the kernel's defaults (1000 and 200000 KiB/s, not
 * whole MiB/s), the KiB/s they are known by beside.
 */
const presetRate = (kiBs: number) => (kiBs % KIB_PER_MIB === 0 ? formatRate(kiBs) : formatRateWithRaw(kiBs));

/** One line per preset, with its numbers (they come from PRESETS, whose comments say why). */
function explanation(name: PresetName): string {
    const p = PRESETS[name];
    const [min, max, entries] = [presetRate(p.speedMinKiBs), presetRate(p.speedMaxKiBs), p.stripeCacheEntries];
    switch (name) {
    case 'low-impact':
        return fmt(_('The kernel defaults: a rebuild gives way to other I/O while above $0 per disk and runs at most $1; stripe caches of $2 entries.'), min, max, entries);
    case 'balanced':
        return fmt(_('A rebuild stops giving way to other I/O below $0 per disk and runs at most $1; stripe caches of $2 entries.'), min, max, entries);
    case 'fast-rebuild':
        return fmt(_('A rebuild stops giving way to other I/O below $0 per disk, which then gets slower; a maximum of $1 lifts the kernel\'s cap that holds back SSD and NVMe members; stripe caches of $2 entries if they fit in $3% of the available memory.'),
            min, max, entries, Math.round(STRIPE_CACHE_MEMORY.warn * 100));
    }
}

export function PresetChange({ onClose }: { onClose: () => void }) {
    const { model } = useHostAsOpened();
    const [chosen, setChosen] = useState<PresetName | null>(null);
    const result = chosen === null ? null : presetPlan(model, chosen);
    return (
        <ChangeModal title={_('Rebuild presets')} plan={result?.plan ?? null} warnings={result?.warnings} onClose={onClose}>
            <Form onSubmit={e => e.preventDefault()}>
                <FormGroup role="radiogroup" label={_('Preset')} fieldId="raidtune-preset" isStack>
                    {PRESET_NAMES.map(name => (
                        <Radio key={name} id={`raidtune-preset-${name}`} name="raidtune-preset" isChecked={chosen === name}
                            onChange={() => setChosen(name)} label={presetLabel(name)}
                            description={explanation(name)} />
                    ))}
                    {result?.errors?.preset && (
                        <FormHelperText>
                            <HelperText><HelperTextItem variant="error">{text(result.errors.preset)}</HelperTextItem></HelperText>
                        </FormHelperText>
                    )}
                </FormGroup>
                <Content component="small">
                    {_('Every preset also sets arrays with their own speed limits back to the system limits, so that it reaches them. Its values last until the next boot, unless you keep them after a reboot.')}
                </Content>
                {model.global.syncIoDepth !== null && PRESETS['low-impact'].syncIoDepth !== null && (
                    <Content component="small" id="raidtune-preset-depth">
                        {fmt(_('Sync I/O depth: Low impact sets it back to the kernel default of $0 (every array to the system setting). Balanced and Fast rebuild leave it as it is: md applies it only while a rebuild runs between the minimum and the maximum and the array has other I/O, which is not what they change.'),
                            PRESETS['low-impact'].syncIoDepth)}
                    </Content>
                )}
            </Form>
        </ChangeModal>
    );
}
