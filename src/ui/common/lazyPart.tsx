// SPDX-License-Identifier: LGPL-2.1-or-later
// A component whose code is not the first view's (it is in the later chunk, src/later.ts), fetched
// when first needed or earlier by preload(): the first view does not wait for code it does not show.

import { lazy, Suspense, useEffect, useState, type ComponentProps, type ComponentType, type ReactNode } from 'react';

export type LazyPart<P> = ComponentType<P> & { preload: () => Promise<unknown> };

/**
 * `load` imports the module and picks the component; `peek` gives it when the module is already
 * in by another way (lazyModule's preload). Until the chunk is in, `fallback` renders where the
 * component will be (null for a dialog: nothing is there before it opens either).
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>,
    peek: () => ComponentType<P> | null = () => null, fallback: ReactNode = null): LazyPart<P> {
    let loading: Promise<{ default: ComponentType<P> }> | null = null;
    let Loaded: ComponentType<P> | null = null;
    const preload = () => (loading ??= load().then(component => {
        Loaded = component;
        return { default: component };
    }));
    const Lazy = lazy(preload) as unknown as ComponentType<P>;
    function Part(props: P) {
        // Once loaded, rendered directly: React.lazy would still suspend for a tick at each first
        // mount and show the fallback for a frame. Decided once per instance, since switching
        // between the two would mount the component anew and lose its state (a dialog's input).
        const [Ready] = useState(() => Loaded ?? peek());
        return Ready ? <Ready {...props} /> : <Suspense fallback={fallback}><Lazy {...props} /></Suspense>;
    }
    return Object.assign(Part, { preload });
}

/** The chunk's loading started at most once; later calls share it. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
    let loading: Promise<T> | null = null;
    return () => (loading ??= load());
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component, whatever its props
type AnyComponent = ComponentType<any>;

/** A module of components in a chunk: `part(name)` is one of them as a LazyPart. */
export function lazyModule<M extends object>(load: () => Promise<M>) {
    let loaded: M | null = null;
    const preload = once(() => load().then(module => {
        loaded = module;
        return module;
    }));
    function part<K extends keyof M>(name: K) {
        type Props = ComponentProps<Extract<M[K], AnyComponent>>;
        const pick = (module: M) => module[name] as unknown as ComponentType<Props>;
        return lazyPart<Props>(() => preload().then(pick), () => (loaded ? pick(loaded) : null));
    }
    return { preload, part, isLoaded: () => loaded !== null };
}

/**
 * Whether a chunk is in: `isLoaded()` (it came by any way), or `load`, called once `wanted`, has
 * settled (a failed chunk too: the part's own Suspense then shows the error). Until it is wanted
 * the answer is true: nothing waits for code it does not show.
 */
export function useLoaded(load: () => Promise<unknown>, isLoaded: () => boolean, wanted = true): boolean {
    const [settled, setSettled] = useState(false);
    const ready = settled || isLoaded();
    useEffect(() => {
        if (!wanted || ready) return;
        let live = true;
        const done = () => { if (live) setSettled(true); };
        load().then(done, done);
        return () => { live = false; };
    }, [load, wanted, ready]);
    return ready || !wanted;
}
