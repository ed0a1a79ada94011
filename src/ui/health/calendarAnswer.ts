// SPDX-License-Identifier: LGPL-2.1-or-later
// systemd's reading of a calendar spec, asked of the host: the scheduled-checks card shows the
// drop-in's next run with it, the change dialog checks what is typed.

import { useEffect, useState } from 'react';
import { calendarRuns, checkCalendar } from '../../host/monitorAlerts';
import { parseCalendarInput, type CalendarAnswer } from '../../md/alerts/schedulePlan';

/** systemd's answer for the spec typed, once it is one line; null until it arrives. */
export function useCalendarAnswer(input: string): CalendarAnswer | null {
    const [answer, setAnswer] = useState<CalendarAnswer | null>(null);
    const spec = parseCalendarInput(input).value ?? '';
    useEffect(() => {
        if (spec === '') return;
        let current = true;
        checkCalendar(spec).then(a => current && setAnswer(a));
        return () => { current = false; };
    }, [spec]);
    return answer && answer.spec === spec ? answer : null;
}

/** How far ahead the continuation runs are asked for: a check split over more nights is "more than" this. */
export const CONTINUATION_RUNS = 31;

/**
 * When a check split over windows runs: the start timer's next run and the continuation timer's
 * runs after it, from the host's systemd; null until they arrive (or without a start).
 */
export interface SplitRuns {
    start: number;
    continuations: number[];
}

export function useSplitRuns(startSpec: string | null, continueSpec: string | null): SplitRuns | null {
    const [runs, setRuns] = useState<SplitRuns & { key: string } | null>(null);
    const key = `${startSpec}|${continueSpec}`;
    useEffect(() => {
        if (startSpec === null) return;
        let current = true;
        (async () => {
            const [start] = await calendarRuns(startSpec, Date.now() / 1000, 1);
            if (start === undefined) return;
            const continuations = continueSpec === null ? []
                : await calendarRuns(continueSpec, start, CONTINUATION_RUNS);
            if (current) setRuns({ key, start, continuations });
        })();
        return () => { current = false; };
    }, [key, startSpec, continueSpec]);
    return runs && runs.key === key ? runs : null;
}
