// SPDX-License-Identifier: LGPL-2.1-or-later
// When a field's error is shown as an error (red) and when as guidance only. A value the user is
// typing is judged once they leave the field: "01:" on its way to "01:30" is not a mistake, and a
// field that just appeared empty (the hours of a window, once its start is typed) is not either.
// A value the host already holds is judged at once: the dialog opens on a problem that exists.
// Apply stays disabled while any value is refused, so the guidance says why.
import { useState } from 'react';

export function useFieldAlarm(value: string): { judged: boolean; onBlur: () => void } {
    const [initial] = useState(value);
    const [left, setLeft] = useState(false);
    return { judged: left || (value !== '' && value === initial), onBlur: () => setLeft(true) };
}
