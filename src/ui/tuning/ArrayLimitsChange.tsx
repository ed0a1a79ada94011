import { useState } from 'react';
import { Form, FormGroup, Radio } from '../pf';
import { _, fmt } from '../../host/i18n';
import { formatRateWithRaw } from '../../md/format';
import type { ArrayModel } from '../../md/model';
import { arrayLimitsPlan, type ArrayLimit, type LimitField } from '../../md/tuning/speedLimits';
import { arrayAsOpened, useHostAsOpened } from '../app/HostContext';
import { editedText } from '../common/edited';
import { ChangeModal } from '../plan/ChangeModal';
import { kiBsAsMBsInput, RateField } from './GlobalLimitsChange';

function LimitChoice({ array, field, value, onChange, error, systemKiBs }: {
    array: ArrayModel; field: LimitField; value: ArrayLimit; onChange: (v: ArrayLimit) => void;
    error?: Parameters<typeof RateField>[0]['error']; systemKiBs: number | null;
}) {
    const id = `${array.name}-${field}`;
    const label = field === 'min' ? _('Minimum') : _('Maximum');
    const own = value !== 'system';
    const setOwn = (text: string) => onChange({ own: text });
    return (
        <FormGroup role="radiogroup" label={label} fieldId={id} isStack>
            <Radio id={`${id}-system`} name={id} isChecked={!own} onChange={() => onChange('system')}
                label={fmt(_('Follow the system limit ($0)'), formatRateWithRaw(systemKiBs))} />
            <Radio id={`${id}-own`} name={id} isChecked={own}
                onChange={() => setOwn(kiBsAsMBsInput((field === 'min' ? array.speedMin : array.speedMax)?.kiBs ?? systemKiBs))}
                label={_('Own limit for this array')} />
            {own && <RateField id={`${id}-value`} label={fmt(_('$0 (MB/s per disk)'), label)} value={value.own} onChange={setOwn} error={error} kernelDefault={null} />}
        </FormGroup>
    );
}

/** The limit as chosen, or null while it is still the one the dialog opened with. */
function editedLimit(value: ArrayLimit, asOpened: ArrayLimit): ArrayLimit | null {
    if (value === 'system' || asOpened === 'system') return value === asOpened ? null : value;
    return editedText(value.own, asOpened.own) === null ? null : value;
}

/** `suggested` (KiB/s) prefills an own limit, as a diagnosis fix does; otherwise the current values. */
export function ArrayLimitsChange({ array: shown, onClose, suggested }: {
    array: ArrayModel; onClose: () => void; suggested?: { minKiBs: number | null; maxKiBs: number | null };
}) {
    const { model } = useHostAsOpened();
    const array = arrayAsOpened(model, shown);
    const current = (limit: ArrayModel['speedMin']): ArrayLimit => (limit?.source === 'local' ? { own: kiBsAsMBsInput(limit.kiBs) } : 'system');
    const opened = { min: current(array.speedMin), max: current(array.speedMax) };
    // A suggestion (a diagnosis fix) is a change asked for: it differs from `opened`, so it is written.
    const initial = (asOpened: ArrayLimit, wanted: number | null | undefined): ArrayLimit => (wanted ? { own: kiBsAsMBsInput(wanted) } : asOpened);
    const [min, setMin] = useState(initial(opened.min, suggested?.minKiBs));
    const [max, setMax] = useState(initial(opened.max, suggested?.maxKiBs));
    const result = arrayLimitsPlan(model, array, { min: editedLimit(min, opened.min), max: editedLimit(max, opened.max) });
    return (
        <ChangeModal title={fmt(_('Rebuild speed limits of $0'), array.name)} plan={result.plan ?? null} onClose={onClose}>
            <Form onSubmit={e => e.preventDefault()}>
                <LimitChoice array={array} field="min" value={min} onChange={setMin} error={result.errors?.min} systemKiBs={model.global.speedMinKiBs} />
                <LimitChoice array={array} field="max" value={max} onChange={setMax} error={result.errors?.max} systemKiBs={model.global.speedMaxKiBs} />
            </Form>
        </ChangeModal>
    );
}
