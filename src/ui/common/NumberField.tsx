// SPDX-License-Identifier: LGPL-2.1-or-later
// One typed-in number with its error (from the core's validation) and explanations below it:
// the shape of every single-value tuning form. The error turns red once the field is left
// (fieldAlarm.ts); before that it reads as guidance.

import { FormGroup, FormHelperText, HelperText, HelperTextItem, TextInput } from '../pfForms';
import type { Message } from '../../md/message';
import { useFieldAlarm } from './fieldAlarm';
import { text } from './message';

export function NumberField({ id, label, value, onChange, error, inputMode = 'numeric', children }: {
    id: string;
    label: string;
    value: string;
    onChange: (value: string) => void;
    error?: Message;
    /** 'text' or 'email' for the few fields that take no number (an address, a path). */
    inputMode?: 'numeric' | 'decimal' | 'text' | 'email';
    /** Helper text items shown under the field. */
    children?: React.ReactNode;
}) {
    const { judged, onBlur } = useFieldAlarm(value);
    const alarm = error !== undefined && judged;
    return (
        <FormGroup label={label} fieldId={id}>
            <TextInput id={id} value={value} onChange={(_e, v) => onChange(v)} onBlur={onBlur} inputMode={inputMode}
                validated={alarm ? 'error' : 'default'} />
            <FormHelperText>
                <HelperText>
                    {error && <HelperTextItem variant={alarm ? 'error' : 'default'}>{text(error)}</HelperTextItem>}
                    {children}
                </HelperText>
            </FormHelperText>
        </FormGroup>
    );
}
