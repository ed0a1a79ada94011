// SPDX-License-Identifier: LGPL-2.1-or-later
import { useState } from 'react';
import { Form, FormGroup, Radio } from '../pfForms';
import { _, fmt } from '../../host/i18n';
import { formatRateWithRaw } from '../../md/format';
import type { ArrayModel } from '../../md/modelTypes';
import type { Message } from '../../md/message';
import { arrayLimitsPlan, type ArrayLimit } from '../../md/tuning/speedLimits';
import { arrayAsOpened, useHostAsOpened } from '../common/HostContext';
import { editedText } from '../common/edited';
import { ChangeModal } from '../plan/ChangeModal';
import { rateInput, RateField } from './GlobalLimitsChange';
import { SyncIoDepthField } from './SyncIoDepthField';
import { syncIoDepthText } from './syncIoDepthTexts';

/**
 * One per-array setting that follows the system's unless the array has its own ("N (system)" /
 * "N (local)" in md): a choice between the two, and the own value's field.
 */
function OwnOrSystemChoice({ id, label, systemLabel, value, onChange, ownStart, ownField }: {
    id: string; label: string; systemLabel: string; value: ArrayLimit; onChange: (v: ArrayLimit) => void;
    /** What an own value starts from when chosen: the current value. */
    ownStart: Exclude<ArrayLimit, 'system'>;
    ownField: (own: Exclude<ArrayLimit, 'system'>, setOwn: (text: string) => void) => React.ReactNode;
}) {
    const own = value !== 'system';
    const setOwn = (text: string) => onChange({ ...(own ? value : ownStart), own: text });
    return (
        <FormGroup role="radiogroup" label={label} fieldId={id} isStack>
            <Radio id={`${id}-system`} name={id} isChecked={!own} onChange={() => onChange('system')} label={systemLabel} />
            <Radio id={`${id}-own`} name={id} isChecked={own} onChange={() => onChange(ownStart)} label={_('Own limit for this array')} />
            {own && ownField(value, setOwn)}
        </FormGroup>
    );
}

/** The limit as chosen, or null while it is still the one the dialog opened with. */
function editedLimit(value: ArrayLimit, asOpened: ArrayLimit): ArrayLimit | null {
    if (value === 'system' || asOpened === 'system') return value === asOpened ? null : value;
    return editedText(value.own, asOpened.own) === null ? null : value;
}

function RateChoice({ array, field, value, onChange, error, systemKiBs }: {
    array: ArrayModel; field: 'min' | 'max'; value: ArrayLimit; onChange: (v: ArrayLimit) => void; error?: Message; systemKiBs: number | null;
}) {
    const id = `${array.name}-${field}`;
    const label = field === 'min' ? _('Minimum') : _('Maximum');
    return (
        <OwnOrSystemChoice id={id} label={label} systemLabel={fmt(_('Follow the system limit ($0)'), formatRateWithRaw(systemKiBs))}
            value={value} onChange={onChange} ownStart={filledLimit((field === 'min' ? array.speedMin : array.speedMax)?.kiBs ?? systemKiBs)}
            ownField={(own, setOwn) => (
                <RateField id={`${id}-value`} label={fmt(_('$0 (MiB/s per disk)'), label)} value={own.own} onChange={setOwn} error={error}
                    kernelDefault={null} filledFrom={own.filledFrom ?? null} />
            )} />
    );
}

/** An own limit filled with a value the host has or a fix suggests: that exact value until edited. */
function filledLimit(kiBs: number | null): Exclude<ArrayLimit, 'system'> {
    return { own: rateInput(kiBs), filledFrom: kiBs };
}

/** `suggested` (KiB/s) prefills an own limit, as a diagnosis fix does; otherwise the current values. */
export function ArrayLimitsChange({ array: shown, onClose, suggested }: {
    array: ArrayModel; onClose: () => void; suggested?: { minKiBs: number | null; maxKiBs: number | null };
}) {
    const { model } = useHostAsOpened();
    const array = arrayAsOpened(model, shown);
    const current = (setting: { source: 'local' | 'system' } | null, own: Exclude<ArrayLimit, 'system'>): ArrayLimit =>
        (setting?.source === 'local' ? own : 'system');
    const opened = {
        min: current(array.speedMin, filledLimit(array.speedMin?.kiBs ?? null)),
        max: current(array.speedMax, filledLimit(array.speedMax?.kiBs ?? null)),
        depth: array.syncIoDepth && current(array.syncIoDepth, { own: String(array.syncIoDepth.value) }),
    };
    // A suggestion (a diagnosis fix) is a change asked for: it differs from `opened`, so it is written.
    const initial = (asOpened: ArrayLimit, wanted: number | null | undefined): ArrayLimit =>
        (wanted ? filledLimit(wanted) : asOpened);
    const [min, setMin] = useState(initial(opened.min, suggested?.minKiBs));
    const [max, setMax] = useState(initial(opened.max, suggested?.maxKiBs));
    const [depth, setDepth] = useState<ArrayLimit>(opened.depth ?? 'system');
    const result = arrayLimitsPlan(model, array, {
        min: editedLimit(min, opened.min), max: editedLimit(max, opened.max),
        depth: opened.depth === null ? null : editedLimit(depth, opened.depth),
    });
    const depthId = `${array.name}-depth`;
    return (
        <ChangeModal title={fmt(_('Rebuild speed limits of $0'), array.name)} plan={result.plan ?? null} onClose={onClose}>
            <Form onSubmit={e => e.preventDefault()}>
                <RateChoice array={array} field="min" value={min} onChange={setMin} error={result.errors?.min} systemKiBs={model.global.speedMinKiBs} />
                <RateChoice array={array} field="max" value={max} onChange={setMax} error={result.errors?.max} systemKiBs={model.global.speedMaxKiBs} />
                {array.syncIoDepth && (
                    <OwnOrSystemChoice id={depthId} label={_('Sync I/O depth')} value={depth} onChange={setDepth}
                        systemLabel={fmt(_('Follow the system setting ($0)'), syncIoDepthText(model.global.syncIoDepth))}
                        ownStart={{ own: String(array.syncIoDepth.value) }}
                        ownField={(own, setOwn) => (
                            <SyncIoDepthField id={`${depthId}-value`} label={_('Sync I/O depth of this array')} value={own.own} onChange={setOwn}
                                error={result.errors?.depth} showDefault={false} />
                        )} />
                )}
            </Form>
        </ChangeModal>
    );
}
