// SPDX-License-Identifier: LGPL-2.1-or-later
// The queue settings of the disks under an array, changed for all of them at once (one command
// per disk in the preview). The table shows where each disk stands before anything is written.

import { useState } from 'react';
import { Form, FormGroup, FormHelperText, HelperText, HelperTextItem, Radio, TextInput } from '../pfForms';
import { _, fmt } from '../../host/i18n';
import type { ArrayModel, DiskModel, HostModel } from '../../md/modelTypes';
import { diskQueueInitial, diskQueuePlan, diskQueueSettingsOffered, diskQueueUnavailable, diskQueueValue, memberDisks, schedulerChoices, DISK_QUEUE_SETTINGS, type DiskQueueSetting } from '../../md/tuning/diskQueue';
import type { FieldError } from '../../md/validate';
import { arrayAsOpened, useHostAsOpened } from '../common/HostContext';
import { editedText } from '../common/edited';
import { useFieldAlarm } from '../common/fieldAlarm';
import { text } from '../common/message';
import { ChangeModal } from '../plan/ChangeModal';
import { NR_REQUESTS_MAX, NR_REQUESTS_MIN, QUEUE_DEPTH_MAX, QUEUE_DEPTH_MIN } from '../../md/settings/registry';
import { CompactTable, type Column } from '../common/CompactTable';

const SETTING_LABELS: Record<DiskQueueSetting, () => string> = {
    queueDepth: () => _('Queue depth (NCQ)'),
    nrRequests: () => _('Request queue size (nr_requests)'),
    scheduler: () => _('I/O scheduler'),
};

/** Short column headers for the table of disks. */
const COLUMN_LABELS: Record<DiskQueueSetting, () => string> = {
    queueDepth: () => _('Queue depth'),
    nrRequests: () => _('Requests'),
    scheduler: () => _('Scheduler'),
};

function settingHelp(setting: DiskQueueSetting): string {
    switch (setting) {
    case 'queueDepth':
        return fmt(_('$0 to $1. 1 turns NCQ off: that sped up some SATA RAID rebuilds a lot, did nothing for others, and slows SSDs down. SATA disks queue at most 32; the kernel keeps that when asked for more.'),
            QUEUE_DEPTH_MIN, QUEUE_DEPTH_MAX);
    case 'nrRequests':
        return fmt(_('$0 to $1 requests queued per disk. Without an I/O scheduler the kernel allows no more than the hardware queue holds.'),
            NR_REQUESTS_MIN, NR_REQUESTS_MAX);
    case 'scheduler':
        return _('Only schedulers that every disk offers are listed.');
    }
}

function diskKind(disk: DiskModel): string {
    return disk.rotational === null ? '—' : disk.rotational ? _('Rotating') : _('SSD');
}

function DisksTable({ array, disks }: { array: ArrayModel; disks: DiskModel[] }) {
    const columns: Column<DiskModel>[] = [
        { title: _('Disk'), cell: disk => `/dev/${disk.name}` },
        { title: _('Type'), cell: diskKind },
        ...DISK_QUEUE_SETTINGS.map((s): Column<DiskModel> => ({ title: COLUMN_LABELS[s](), cell: disk => diskQueueValue(disk, s) ?? '—' })),
    ];
    return (
        <CompactTable className="raidtune-disk-queues" label={fmt(_('Disks under $0'), array.name)} columns={columns} rows={disks}
            rowKey={disk => disk.name} rowAttributes={disk => ({ 'data-disk': disk.name })} />
    );
}

function SettingChoice({ host, array, setting, onChange }: {
    host: HostModel; array: ArrayModel; setting: DiskQueueSetting; onChange: (s: DiskQueueSetting) => void;
}) {
    const id = `${array.name}-disk-setting`;
    return (
        <FormGroup role="radiogroup" label={_('Setting')} fieldId={id} isStack>
            {DISK_QUEUE_SETTINGS.map(s => {
                const reason = diskQueueUnavailable(host, array, s);
                return (
                    <Radio key={s} id={`${id}-${s}`} name={id} label={SETTING_LABELS[s]()} isChecked={s === setting}
                        isDisabled={reason !== null} description={reason ? text(reason) : undefined}
                        onChange={() => onChange(s)} />
                );
            })}
        </FormGroup>
    );
}

function ValueField({ array, setting, value, choices, error, onChange }: {
    array: ArrayModel; setting: DiskQueueSetting; value: string; choices: string[];
    error: FieldError | undefined;
    onChange: (v: string) => void;
}) {
    const id = `${array.name}-disk-value`;
    const { judged, onBlur } = useFieldAlarm(value);
    // A choice among radios is judged at once: nothing is half-typed there.
    const alarm = error !== undefined && (judged || setting === 'scheduler');
    const help = (
        <FormHelperText>
            <HelperText>
                {error && <HelperTextItem variant={alarm ? 'error' : 'default'}>{text(error)}</HelperTextItem>}
                <HelperTextItem>{settingHelp(setting)}</HelperTextItem>
            </HelperText>
        </FormHelperText>
    );
    if (setting === 'scheduler') {
        return (
            <FormGroup role="radiogroup" label={_('New scheduler for every disk')} fieldId={id} isStack>
                {choices.map(name => (
                    <Radio key={name} id={`${id}-${name}`} name={id} label={name} isChecked={name === value} onChange={() => onChange(name)} />
                ))}
                {help}
            </FormGroup>
        );
    }
    return (
        <FormGroup label={fmt(_('New value for every disk: $0'), SETTING_LABELS[setting]())} fieldId={id}>
            <TextInput id={id} value={value} onChange={(_e, v) => onChange(v)} onBlur={onBlur} inputMode="numeric"
                validated={alarm ? 'error' : 'default'} />
            {help}
        </FormGroup>
    );
}

export function DiskQueueChange({ array: shown, onClose }: { array: ArrayModel; onClose: () => void }) {
    const { model } = useHostAsOpened();
    const array = arrayAsOpened(model, shown);
    const disks = memberDisks(model, array);
    const [setting, setSetting] = useState<DiskQueueSetting>(() => diskQueueSettingsOffered(model, array)[0] ?? 'nrRequests');
    const [value, setValue] = useState(() => diskQueueInitial(model, array, setting));
    const result = diskQueuePlan(model, array, setting, editedText(value, diskQueueInitial(model, array, setting)));
    const choose = (next: DiskQueueSetting) => {
        setSetting(next);
        setValue(diskQueueInitial(model, array, next));
    };
    return (
        <ChangeModal title={fmt(_('Queues of the disks under $0'), array.name)} plan={result.plan ?? null} warnings={result.warnings} onClose={onClose}>
            <Form onSubmit={e => e.preventDefault()}>
                <p>{fmt(_('The value is written to every disk under $0 (a partition counts as its disk), one command per disk.'), array.name)}</p>
                <DisksTable array={array} disks={disks} />
                <SettingChoice host={model} array={array} setting={setting} onChange={choose} />
                <ValueField key={setting} array={array} setting={setting} value={value}
                    choices={schedulerChoices(disks)}
                    error={result.errors?.value} onChange={setValue} />
            </Form>
        </ChangeModal>
    );
}
