// SPDX-License-Identifier: LGPL-2.1-or-later
import { useState } from 'react';
import { Form, FormGroup, FormHelperText, HelperText, HelperTextItem, TextInput } from '../pfForms';
import { _, fmt } from '../../host/i18n';
import { formatRateWithRaw } from '../../md/format';
import { globalLimitsPlan } from '../../md/tuning/speedLimits';
import { mbsToKiBs } from '../../md/validate';
import type { Message } from '../../md/message';
import { useHostAsOpened } from '../common/HostContext';
import { editedText } from '../common/edited';
import { text } from '../common/message';
import { ChangeModal } from '../plan/ChangeModal';
import { SyncIoDepthField } from './SyncIoDepthField';
import { KERNEL_DEFAULT_SPEED_MAX, KERNEL_DEFAULT_SPEED_MIN } from '../../md/settings/registry';

/** KiB/s as the MB/s a person would type back (2 decimals at most). */
export function kiBsAsMBsInput(kiBs: number | null): string {
    return kiBs === null ? '' : String(Math.round((kiBs * 1024) / 1e4) / 100);
}

export function RateField({ id, label, value, onChange, error, kernelDefault }: {
    id: string; label: string; value: string; onChange: (v: string) => void; error?: Message;
    kernelDefault: number | null;
}) {
    const kiBs = /^\d+(\.\d{1,2})?$/.test(value.trim()) ? mbsToKiBs(Number(value)) : null;
    return (
        <FormGroup label={label} fieldId={id}>
            <TextInput id={id} value={value} onChange={(_e, v) => onChange(v)} inputMode="decimal"
                validated={error ? 'error' : 'default'} aria-describedby={`${id}-help`} />
            <FormHelperText>
                <HelperText id={`${id}-help`}>
                    {error
                        ? <HelperTextItem variant="error">{text(error)}</HelperTextItem>
                        : (
                            <HelperTextItem>
                                {kiBs !== null && fmt(_('MB/s per disk = $0 KiB/s.'), kiBs)}
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
        min: kiBsAsMBsInput(model.global.speedMinKiBs), max: kiBsAsMBsInput(model.global.speedMaxKiBs),
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
                <RateField id="global-min" label={_('Minimum (MB/s per disk)')} value={min} onChange={setMin}
                    error={result.errors?.min} kernelDefault={KERNEL_DEFAULT_SPEED_MIN} />
                <RateField id="global-max" label={_('Maximum (MB/s per disk)')} value={max} onChange={setMax}
                    error={result.errors?.max} kernelDefault={KERNEL_DEFAULT_SPEED_MAX} />
                {opened.depth !== null && (
                    <SyncIoDepthField id="global-depth" label={_('Sync I/O depth')} value={depth} onChange={setDepth}
                        error={result.errors?.depth} showDefault />
                )}
            </Form>
        </ChangeModal>
    );
}
