// SPDX-License-Identifier: LGPL-2.1-or-later
import { useState } from 'react';
import { Form, FormGroup, FormHelperText, HelperText, HelperTextItem, TextInput } from '../pfForms';
import { _, fmt } from '../../host/i18n';
import { formatMiBs, formatRateWithRaw } from '../../md/format';
import { globalLimitsPlan } from '../../md/tuning/speedLimits';
import { rateTextKiBs } from '../../md/validate';
import type { Message } from '../../md/message';
import { useHostAsOpened } from '../common/HostContext';
import { editedText } from '../common/edited';
import { useFieldAlarm } from '../common/fieldAlarm';
import { text } from '../common/message';
import { ChangeModal } from '../plan/ChangeModal';
import { SyncIoDepthField } from './SyncIoDepthField';
import { KERNEL_DEFAULT_SPEED_MAX, KERNEL_DEFAULT_SPEED_MIN } from '../../md/settings/registry';

/** KiB/s as the MiB/s a field starts with: the figure the page shows beside it. */
export function rateInput(kiBs: number | null): string {
    return kiBs === null ? '' : formatMiBs(kiBs);
}

/** `filledFrom`: the KiB/s the field was filled with, which its text stands for until edited. */
export function RateField({ id, label, value, onChange, error, kernelDefault, filledFrom }: {
    id: string; label: string; value: string; onChange: (v: string) => void; error?: Message;
    kernelDefault: number | null; filledFrom: number | null;
}) {
    const kiBs = rateTextKiBs(value, filledFrom);
    const { judged, onBlur } = useFieldAlarm(value);
    const alarm = error !== undefined && judged;
    return (
        <FormGroup label={label} fieldId={id}>
            <TextInput id={id} value={value} onChange={(_e, v) => onChange(v)} onBlur={onBlur} inputMode="decimal"
                validated={alarm ? 'error' : 'default'} aria-describedby={`${id}-help`} />
            <FormHelperText>
                <HelperText id={`${id}-help`}>
                    {error
                        ? <HelperTextItem variant={alarm ? 'error' : 'default'}>{text(error)}</HelperTextItem>
                        : (
                            <HelperTextItem>
                                {kiBs !== null && fmt(_('MiB/s per disk = $0 KiB/s.'), kiBs)}
                                {kernelDefault !== null && ' ' + fmt(_('Kernel default: $0.'), formatRateWithRaw(kernelDefault))}
                            </HelperTextItem>
                        )}
                </HelperText>
            </FormHelperText>
        </FormGroup>
    );
}

export function GlobalLimitsChange({ onClose }: { onClose: () => void }) {
    const { model } = useHostAsOpened();
    const opened = {
        min: rateInput(model.global.speedMinKiBs), max: rateInput(model.global.speedMaxKiBs),
        depth: model.global.syncIoDepth === null ? null : String(model.global.syncIoDepth),
    };
    const [min, setMin] = useState(opened.min);
    const [max, setMax] = useState(opened.max);
    const [depth, setDepth] = useState(opened.depth ?? '');
    const result = globalLimitsPlan(model, {
        min: editedText(min, opened.min), max: editedText(max, opened.max),
        depth: opened.depth === null ? null : editedText(depth, opened.depth),
    });
    return (
        <ChangeModal title={_('System rebuild speed limits')} plan={result.plan ?? null} warnings={result.warnings} onClose={onClose}>
            <Form onSubmit={e => e.preventDefault()}>
                <RateField id="global-min" label={_('Minimum (MiB/s per disk)')} value={min} onChange={setMin}
                    error={result.errors?.min} kernelDefault={KERNEL_DEFAULT_SPEED_MIN}
                    filledFrom={model.global.speedMinKiBs} />
                <RateField id="global-max" label={_('Maximum (MiB/s per disk)')} value={max} onChange={setMax}
                    error={result.errors?.max} kernelDefault={KERNEL_DEFAULT_SPEED_MAX}
                    filledFrom={model.global.speedMaxKiBs} />
                {opened.depth !== null && (
                    <SyncIoDepthField id="global-depth" label={_('Sync I/O depth')} value={depth} onChange={setDepth}
                        error={result.errors?.depth} showDefault />
                )}
            </Form>
        </ChangeModal>
    );
}
