// SPDX-License-Identifier: LGPL-2.1-or-later
import { memo, useEffect, useRef, useState } from 'react';
import { Stack, StackItem } from '../pf';
import type { ArrayModel, HostModel } from '../../md/modelTypes';
import { useNearScreen } from '../common/useNearScreen';
import { ArrayCard } from './ArrayCard';
import { firstCardView, nextCardView } from './cardFreshness';
import { sameCardProps } from '../common/cardProps';
import { scrollToCard } from '../common/ArrayLink';

// Only the cards whose array (or what they read of the host) changed re-render: see cardProps.ts.
const MemoArrayCard = memo(ArrayCard, sameCardProps);

/**
 * The cards that start on or near the first screen, below the overview: the browser skips a card's
 * layout until it knows the card is near the window (app.css), a frame after the first, so these
 * would first take the placeholder's height and then their own, moving what is below them.
 */
const FIRST_SCREEN_CARDS = 2;

/** A card far off screen lets a sync's progress lag a few refreshes: see cardFreshness.ts. */
function FreshEnoughCard({ array, host, selected, position }: {
    array: ArrayModel; host: HostModel; selected: boolean; position: number;
}) {
    const ref = useRef<HTMLDivElement>(null);
    const near = useNearScreen(ref);
    const [view, setView] = useState(() => firstCardView(array, host, position));
    const next = nextCardView(view, array, host, near || selected);
    // Held in state, worked out during render: the card renders once per refresh, with the right model.
    if (next !== view) setView(next);
    // data-lagging: the card shows an older refresh's array than the page's latest (read by the browser tests).
    // data-first-screen: laid out from the first frame (app.css).
    return (
        <div ref={ref} data-lagging={next.array !== array ? '' : undefined}
            data-first-screen={position < FIRST_SCREEN_CARDS ? '' : undefined}>
            <MemoArrayCard array={next.array} host={next.host} selected={selected} />
        </div>
    );
}

/** `arrays`: the model's, worst first (src/md/overview.ts), as the overview above lists them. */
export function ArrayList({ model, arrays, selected }: {
    model: HostModel; arrays: readonly ArrayModel[]; selected: string | null;
}) {
    // Bring the selected array's card into view once per selection: when the URL names it on
    // opening (#/md3), on a click of its name, on Back/Forward; not again at every refresh.
    const scrolledTo = useRef<string | null>(null);
    const present = selected !== null && model.arrays.some(array => array.name === selected);
    useEffect(() => {
        if (!present || selected === null || scrolledTo.current === selected) return;
        scrollToCard(selected);
        scrolledTo.current = selected;
    }, [present, selected]);
    useEffect(() => {
        if (selected === null) scrolledTo.current = null;
    }, [selected]);

    return (
        <Stack hasGutter>
            {arrays.map((array, position) => (
                <StackItem key={array.name}>
                    <FreshEnoughCard array={array} host={model} selected={array.name === selected}
                        position={position} />
                </StackItem>
            ))}
        </Stack>
    );
}
