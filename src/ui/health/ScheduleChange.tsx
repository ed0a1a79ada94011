// SPDX-License-Identifier: LGPL-2.1-or-later
// The dialog that changes one scheduler's periodic check (src/md/alerts/schedulePlan.ts): the core
// checks every value and builds the plan; the host's `systemd-analyze calendar` reads the calendar
// spec (asked again whenever the spec changes) and says when it would run next, and at which times
// of day: raidtune's own window is refused when the check starts outside it (windowStart.ts).

import { useState } from 'react';
import { Content } from '../pf';
import { Form, FormGroup, HelperTextItem, Radio } from '../pfForms';
import { NumberField } from '../common/NumberField';
import { useHost } from '../common/HostContext';
import { ChangeModal } from '../plan/ChangeModal';
import { useCalendarAnswer } from './calendarAnswer';
import { _, fmt } from '../../host/i18n';
import type { ApplyResult } from '../../host/executor';
import type { ScheduledCheck } from '../../md/alerts/checkSchedule';
import type { MonitorState } from '../../md/alerts/monitor';
import { checkWindow, windowServices } from '../../md/alerts/checkWindow';
import { limitsOutsideWindow, ownWindowInstalled } from '../../md/alerts/ownWindow';
import { PRESET_NAMES } from '../../md/tuning/presets';
import { presetLabel } from '../tuning/presetLabels';
import {
    scheduleInput, schedulePlan, scheduleTimer, startSpec, windowCloses, windowStartCheck, type ScheduleInput,
} from '../../md/alerts/schedulePlan';
import { text } from '../common/message';

function Choice<T extends string>({ id, label, choices, value, onChange }: {
    id: string; label: string; choices: [T, string][]; value: T; onChange: (value: T) => void;
}) {
    return (
        <FormGroup role="radiogroup" isInline label={label} fieldId={id}>
            {choices.map(([choice, text]) => (
                <Radio key={choice} id={`${id}-${choice}`} name={id} label={text} isChecked={value === choice}
                    onChange={() => onChange(choice)} />
            ))}
        </FormGroup>
    );
}

export function ScheduleChange({ state, schedule, arrays, onClose, onApplied }: {
    state: MonitorState; schedule: ScheduledCheck; arrays: string[];
    onClose: () => void; onApplied: (result: ApplyResult) => void;
}) {
    const { config, model } = useHost();
    const { scheduler } = schedule;
    const [input, setInput] = useState<ScheduleInput>(() => scheduleInput(state, scheduler, schedule.enabled));
    const set = <K extends keyof ScheduleInput>(key: K) =>
        (value: ScheduleInput[K]) => setInput(i => ({ ...i, [key]: value }));
    // The calendar the timer will follow: its next run below the field, and when the check starts.
    const answer = useCalendarAnswer(startSpec(state, scheduler, input) ?? '');
    const limitsOutside = limitsOutsideWindow(model);
    const result = schedulePlan(state, scheduler, input,
        { arrays, calendar: answer, systemctl: config.systemctl, timerEnabled: schedule.enabled, limitsOutside });
    const start = windowStartCheck(state, scheduler, input, answer, limitsOutside);
    const timer = scheduleTimer(state, scheduler);
    const window = checkWindow(state);
    const closes = windowCloses(input);
    const onOff: ['yes' | 'no', string][] = [['yes', _('Run the check')], ['no', _('Do not run it')]];
    const list = (key: 'checkDevs' | 'repairDevs' | 'skipDevs', id: string, label: string) => (
        <NumberField id={id} label={label} inputMode="text" value={input[key]} onChange={set(key)} error={result.errors?.[key]} />
    );
    return (
        <ChangeModal title={fmt(_('Scheduled check ($0)'), scheduler)} plan={result.plan ?? null} warnings={result.warnings}
            recordOriginals={false} onClose={onClose} onApplied={onApplied}>
            <Form onSubmit={e => e.preventDefault()}>
                <Choice id="schedule-enabled" label={_('Periodic check')} choices={onOff} value={input.enabled ? 'yes' : 'no'}
                    onChange={v => set('enabled')(v === 'yes')} />
                {scheduler === 'raid-check' && (
                    <>
                        <Choice id="schedule-action" label={_('Action (CHECK)')} value={input.action} onChange={set('action')}
                            choices={[['check', _('check: count mismatches')], ['repair', _('repair: rewrite mismatches')]]} />
                        <Content component="p">{_('Array names, separated by blanks. With no array in either list, every array gets the action above; otherwise only those listed.')}</Content>
                        {list('checkDevs', 'schedule-check-devs', _('Arrays to check (CHECK_DEVS)'))}
                        {list('repairDevs', 'schedule-repair-devs', _('Arrays to repair (REPAIR_DEVS)'))}
                        {list('skipDevs', 'schedule-skip-devs', _('Arrays left out (SKIP_DEVS)'))}
                    </>
                )}
                {timer && (
                    <NumberField id="schedule-calendar" label={fmt(_('When $0 runs (OnCalendar)'), timer)} inputMode="text"
                        value={input.calendar} onChange={set('calendar')} error={result.errors?.calendar}>
                        {answer?.nextElapse && <HelperTextItem>{fmt(_('Next run: $0'), answer.nextElapse)}</HelperTextItem>}
                        <HelperTextItem>{_('A systemd calendar spec, such as "Sun *-*-* 01:00" (see systemd.time(7)); empty keeps the package\'s own.')}</HelperTextItem>
                    </NumberField>
                )}
                {scheduler === 'mdcheck' && windowServices(state).length > 0 && (
                    <NumberField id="schedule-window" label={_('Hours one run may check (MDADM_CHECK_DURATION)')} inputMode="decimal"
                        value={input.window} onChange={set('window')} error={result.errors?.window}>
                        <HelperTextItem>{_('mdcheck stops after this long; mdcheck_continue.timer resumes the check where it stopped at its next run. Empty keeps the package\'s own (mdadm ships 6 hours).')}</HelperTextItem>
                        {window && <HelperTextItem>{fmt(_('In force now: $0'), window.duration)}</HelperTextItem>}
                    </NumberField>
                )}
                {scheduler !== 'mdcheck' && ownWindowInstalled(state) && (
                    <>
                        <NumberField id="schedule-window-start" label={_('Check window opens at')} inputMode="text"
                            value={input.windowStart} onChange={set('windowStart')} error={result.errors?.windowStart}>
                            <HelperTextItem>{_('Every day, by the host\'s clock (HH:MM). A check still running when the window closes is paused and goes on from there when it opens again. Empty: no window.')}</HelperTextItem>
                        </NumberField>
                        {input.windowStart.trim() !== '' && (
                            <>
                                <NumberField id="schedule-window" label={_('Hours it stays open')} inputMode="decimal"
                                    value={input.window} onChange={set('window')} error={result.errors?.window}>
                                    {closes && (
                                        <HelperTextItem id="schedule-window-closes">
                                            {fmt(closes.nextDay ? _('Closes at $0 the next day.') : _('Closes at $0.'), closes.at)}
                                        </HelperTextItem>
                                    )}
                                </NumberField>
                                <Choice id="schedule-window-limits" label={_('Speed limits while it is open')} value={input.windowLimits}
                                    onChange={set('windowLimits')}
                                    choices={[['', _('as they are')], ...PRESET_NAMES.map(p => [p, presetLabel(p)] as [string, string])]} />
                                {start !== null && start !== 'waiting' && start.kind === 'inside' && (
                                    <Content component="p" id="schedule-window-check-start">{text(start.note)}</Content>
                                )}
                            </>
                        )}
                    </>
                )}
                {scheduler === 'raid-check' && !timer && schedule.cron && (
                    <Content component="p" id="schedule-cron-note">
                        {_('The time stays as /etc/cron.d/raid-check has it; this host has no raid-check.timer.')}
                    </Content>
                )}
                {scheduler === 'checkarray' && (
                    <Content component="p" id="schedule-cron-note">
                        {_('The time stays as /etc/cron.d/mdadm has it: that file belongs to the mdadm package (an edit makes every upgrade ask), and its command decides the day of the month itself.')}
                    </Content>
                )}
            </Form>
        </ChangeModal>
    );
}
