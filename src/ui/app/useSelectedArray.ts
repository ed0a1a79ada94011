// SPDX-License-Identifier: LGPL-2.1-or-later
import { useEffect, useState } from 'react';
import { onLocationChange, selectedArray } from '../../host/location';

/** The array the URL selects ("#/md0"), following clicks and Back/Forward. */
export function useSelectedArray(): string | null {
    const [selected, setSelected] = useState(selectedArray);
    useEffect(() => onLocationChange(() => setSelected(selectedArray())), []);
    return selected;
}
