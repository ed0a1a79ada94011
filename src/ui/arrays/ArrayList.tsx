import { memo, useEffect, useRef } from 'react';
import { Stack, StackItem } from '../pf';
import type { HostModel } from '../../md/model';
import { ArrayCard } from './ArrayCard';
import { sameCardProps } from './cardProps';

// Only the cards whose array (or what they read of the host) changed re-render: see cardProps.ts.
const MemoArrayCard = memo(ArrayCard, sameCardProps);

export function ArrayList({ model, selected }: { model: HostModel; selected: string | null }) {
    // Bring the selected array's card into view once per selection: when the URL names it on
    // opening (#/md3), on a click of its name, on Back/Forward; not again at every refresh.
    const scrolledTo = useRef<string | null>(null);
    const present = selected !== null && model.arrays.some(array => array.name === selected);
    useEffect(() => {
        if (!present || scrolledTo.current === selected) return;
        document.getElementById(`array-${selected}`)?.scrollIntoView({ block: 'start' });
        scrolledTo.current = selected;
    }, [present, selected]);
    useEffect(() => {
        if (selected === null) scrolledTo.current = null;
    }, [selected]);

    return (
        <Stack hasGutter>
            {model.arrays.map(array => (
                <StackItem key={array.name}>
                    <MemoArrayCard array={array} host={model} selected={array.name === selected} />
                </StackItem>
            ))}
        </Stack>
    );
}
