import { Stack, StackItem } from '../pf';
import type { HostModel } from '../../md/model';
import { ArrayCard } from './ArrayCard';

export function ArrayList({ model }: { model: HostModel }) {
    return (
        <Stack hasGutter>
            {model.arrays.map(array => (
                <StackItem key={array.name}><ArrayCard array={array} host={model} /></StackItem>
            ))}
        </Stack>
    );
}
