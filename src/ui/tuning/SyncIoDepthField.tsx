// SPDX-License-Identifier: LGPL-2.1-or-later
// The sync I/O depth (where the kernel has it) in the limit dialogs and next to the limits: what it
// is, in md.c's terms (src/md/settings/registry.ts), and its kernel default.

import { HelperTextItem } from '../pfForms';
import { _, fmt } from '../../host/i18n';
import type { Message } from '../../md/message';
import { NumberField } from '../common/NumberField';
import { KERNEL_DEFAULT_SYNC_IO_DEPTH } from '../../md/settings/registry';
import { syncIoDepthHelp } from './syncIoDepthTexts';

export function SyncIoDepthField({ id, label, value, onChange, error, showDefault }: {
    id: string; label: string; value: string; onChange: (v: string) => void; error?: Message; showDefault: boolean;
}) {
    return (
        <NumberField id={id} label={label} value={value} onChange={onChange} error={error}>
            {!error && (
                <HelperTextItem>
                    {syncIoDepthHelp()}
                    {showDefault && ' ' + fmt(_('Kernel default: $0.'), KERNEL_DEFAULT_SYNC_IO_DEPTH)}
                </HelperTextItem>
            )}
        </NumberField>
    );
}
