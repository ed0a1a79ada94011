// SPDX-License-Identifier: LGPL-2.1-or-later
// RAID4/5/6 worker threads (md/group_thread_cnt): how many kernel threads per NUMA node share
// the stripe work besides the array's own mdX_raidN thread.

import { useState } from 'react';
import { Form, HelperTextItem } from '../pfForms';
import { NumberField } from '../common/NumberField';
import { _, fmt } from '../../host/i18n';
import type { ArrayModel } from '../../md/modelTypes';
import { groupThreadsPlan } from '../../md/tuning/groupThreads';
import { arrayAsOpened, useHostAsOpened } from '../common/HostContext';
import { ChangeModal } from '../plan/ChangeModal';
import { GROUP_THREADS_MAX, GROUP_THREADS_MIN } from '../../md/settings/registry';

export function GroupThreadsChange({ array: shown, onClose }: { array: ArrayModel; onClose: () => void }) {
    const { model } = useHostAsOpened();
    const array = arrayAsOpened(model, shown);
    const [threads, setThreads] = useState(String(array.groupThreadCount ?? 0));
    const result = groupThreadsPlan(model, array, threads);
    const id = `${array.name}-worker-threads`;
    return (
        <ChangeModal title={fmt(_('Worker threads of $0'), array.name)} plan={result.plan ?? null} warnings={result.warnings} onClose={onClose}>
            <Form onSubmit={e => e.preventDefault()}>
                <NumberField id={id} label={fmt(_('Worker threads per NUMA node ($0 to $1)'), GROUP_THREADS_MIN, GROUP_THREADS_MAX)}
                    value={threads} onChange={setThreads} error={result.errors?.threads}>
                    <HelperTextItem>
                        {fmt(_('0, the default, leaves the parity work to md\'s own thread. More threads help arrays of fast SSDs whose one thread is busy. The kernel takes up to 8192; raidtune stops at $0, as more threads only compete for the same stripes.'), GROUP_THREADS_MAX)}
                    </HelperTextItem>
                </NumberField>
            </Form>
        </ChangeModal>
    );
}
