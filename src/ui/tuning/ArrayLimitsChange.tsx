import { useState } from 'react';
import { Form, FormGroup, Radio } from '../pf';
import { _, fmt } from '../../host/i18n';
import { formatRateWithRaw } from '../../md/format';
import type { ArrayModel } from '../../md/model';
import { arrayLimitsPlan, type LimitField } from '../../md/tuning/speedLimits';
import { arrayAsOpened, useHostAsOpened } from '../app/HostContext';
import { editedText } from '../common/edited';
import { ChangeModal } from '../plan/ChangeModal';
import { kiBsAsMBsInput, RateField } from './GlobalLimitsChange';

function LimitChoice({ array, field, value, onChange, error, systemKiBs }: {
    array: ArrayModel; field: LimitField; value: string; onChange: (v: string) => void;
    error?: Parameters<typeof RateField>[0]['error']; systemKiBs: number | null;
}) {
    const id = `${array.name}-${field}`;
    const label = field === 'min' ? _('Minimum') : _('Maximum');
    const own = value !== 'system';
    return (
        <FormGroup role="radiogroup" label={label} fieldId={id} isStack>
            <Radio id={`${id}-system`} name={id} isChecked={!own} onChange={() => onChange('system')}
                label={fmt(_('Follow the system limit ($0)'), formatRateWithRaw(systemKiBs))} />
            <Radio id={`${id}-own`} name={id} isChecked={own}
                onChange={() => onChange(kiBsAsMBsInput((field === 'min' ? array.speedMin : array.speedMax)?.kiBs ?? systemKiBs))}
                label={_('Own limit for this array')} />
            {own && <RateField id={`${id}-value`} label={fmt(_('$0 (MB/s per disk)'), label)} value={value} onChange={onChange} error={error} kernelDefault={null} />}
        </FormGroup>
    );
}

/** `suggested` (KiB/s) prefills an own limit, as a diagnosis fix does; otherwise the current values. */
export function ArrayLimitsChange({ array: shown, onClose, suggested }: {
    array: ArrayModel; onClose: () => void; suggested?: { minKiBs: number | null; maxKiBs: number | null };
}) {
    const { model } = useHostAsOpened();
    const array = arrayAsOpened(model, shown);
    const current = (limit: ArrayModel['speedMin']) => (limit?.source === 'local' ? kiBsAsMBsInput(limit.kiBs) : 'system');
    const opened = { min: current(array.speedMin), max: current(array.speedMax) };
    // A suggestion (a diagnosis fix) is a change asked for: it differs from `opened`, so it is written.
    const initial = (asOpened: string, wanted: number | null | undefined) => (wanted ? kiBsAsMBsInput(wanted) : asOpened);
    const [min, setMin] = useState(initial(opened.min, suggested?.minKiBs));
    const [max, setMax] = useState(initial(opened.max, suggested?.maxKiBs));
    const result = arrayLimitsPlan(model, array, { min: editedText(min, opened.min), max: editedText(max, opened.max) });
    return (
        <ChangeModal title={fmt(_('Rebuild speed limits of $0'), array.name)} plan={result.plan ?? null} onClose={onClose}>
            <Form onSubmit={e => e.preventDefault()}>
                <LimitChoice array={array} field="min" value={min} onChange={setMin} error={result.errors?.min} systemKiBs={model.global.speedMinKiBs} />
                <LimitChoice array={array} field="max" value={max} onChange={setMax} error={result.errors?.max} systemKiBs={model.global.speedMaxKiBs} />
            </Form>
        </ChangeModal>
    );
}
