// SPDX-License-Identifier: LGPL-2.1-or-later
// An element's width in CSS pixels, kept current as the window or the layout changes: give the
// element the returned ref. null until measured (and where ResizeObserver is missing, as in jsdom).
import { useEffect, useState } from 'react';

export function useElementWidth<E extends HTMLElement>(): [(element: E | null) => void, number | null] {
    const [element, setElement] = useState<E | null>(null);
    const [width, setWidth] = useState<number | null>(null);
    useEffect(() => {
        if (!element || typeof ResizeObserver === 'undefined') return undefined;
        const observer = new ResizeObserver(entries => {
            const measured = Math.round(entries[entries.length - 1].contentRect.width);
            setWidth(previous => (previous === measured ? previous : measured));
        });
        observer.observe(element);
        return () => observer.disconnect();
    }, [element]);
    return [setElement, width];
}
