// SPDX-License-Identifier: LGPL-2.1-or-later
// Whether an element is on screen or within one screen height of it. One IntersectionObserver
// serves every caller (128 array cards would otherwise make 128). Where there is no
// IntersectionObserver (jsdom, very old browsers) everything counts as near: it only costs time.

import { useEffect, useState, type RefObject } from 'react';

type Listener = (near: boolean) => void;

const listeners = new Map<Element, Listener>();
let observer: IntersectionObserver | null = null;

function sharedObserver(): IntersectionObserver {
    observer ??= new IntersectionObserver(entries => {
        for (const entry of entries) listeners.get(entry.target)?.(entry.isIntersecting);
    }, { rootMargin: '100% 0px' });
    return observer;
}

export function useNearScreen(ref: RefObject<Element | null>): boolean {
    const [near, setNear] = useState(true);
    useEffect(() => {
        const element = ref.current;
        if (!element || typeof IntersectionObserver === 'undefined') return;
        listeners.set(element, setNear);
        sharedObserver().observe(element);
        return () => {
            listeners.delete(element);
            sharedObserver().unobserve(element);
        };
    }, [ref]);
    return near;
}
