// SPDX-License-Identifier: LGPL-2.1-or-later
// systemd's reading of a calendar spec, asked of the host: the scheduled-checks card shows the
// drop-in's next run with it, the change dialog checks what is typed.

import { useEffect, useState } from 'react';
import { checkCalendar } from '../../host/monitorAlerts';
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
