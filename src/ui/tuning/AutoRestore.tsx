// "Restore automatically when the sync of mdX finishes", per array with a running sync, and the
// armed ones with a way to cancel. The waiting happens on the host (src/md/waiterScript.ts), so
// the restore also happens with this page closed; the page only arms, shows and cancels.

import { useState } from 'react';
import { Flex, FlexItem, Label, Stack, StackItem } from '../pf';
import { _, fmt } from '../../host/i18n';
import { armPlan, armRefusal, cancelPlan } from '../../md/autoRestore';
import type { ArrayModel } from '../../md/model';
import { useHost } from '../app/HostContext';
import { GuardedButton } from '../common/GuardedButton';
import { text } from '../common/message';
import { ChangeModal } from '../plan/ChangeModal';

type Open = { kind: 'arm' | 'cancel'; array: string } | null;

function ArmedRow({ array, onCancel }: { array: string; onCancel: () => void }) {
    return (
        <Flex spaceItems={{ default: 'spaceItemsSm' }} alignItems={{ default: 'alignItemsCenter' }}>
            <FlexItem>
                <Label color="blue" className="raidtune-auto-restore-armed">
                    {fmt(_('Armed: restores the previous settings when the sync of $0 finishes'), array)}
                </Label>
            </FlexItem>
            <FlexItem>
                <GuardedButton variant="link" isInline onClick={onCancel}
                    aria-label={fmt(_('Cancel the automatic restore of $0'), array)}>{_('Cancel')}</GuardedButton>
            </FlexItem>
        </Flex>
    );
}

/** Arrays whose running sync could end the boost, and the armed ones (even if their sync is gone). */
function rows(arrays: ArrayModel[], armed: ReadonlyMap<string, unknown>): string[] {
    const names = arrays.filter(a => a.sync && a.sync.runState !== 'pending').map(a => a.name);
    return [...new Set([...names, ...armed.keys()])];
}

export function AutoRestore() {
    const { model, config } = useHost();
    const [open, setOpen] = useState<Open>(null);
    const close = () => setOpen(null);
    const names = rows(model.arrays, model.autoRestore);
    if (!names.length) return null;
    const arming = open?.kind === 'arm' && model.journal ? armPlan(open.array, model.journal, config, model.systemd) : null;
    const cancelling = open?.kind === 'cancel' && model.autoRestore.get(open.array);
    return (
        <>
            <Stack hasGutter className="raidtune-auto-restore">
                {names.map(name => {
                    const array = model.arrays.find(a => a.name === name);
                    if (model.autoRestore.has(name)) {
                        return <StackItem key={name}><ArmedRow array={name} onCancel={() => setOpen({ kind: 'cancel', array: name })} /></StackItem>;
                    }
                    const refusal = array ? armRefusal(array, model.journal, model.autoRestore) : null;
                    return (
                        <StackItem key={name}>
                            <GuardedButton variant="secondary" size="sm" disabledReason={refusal && text(refusal)}
                                onClick={() => setOpen({ kind: 'arm', array: name })}>
                                {fmt(_('Restore automatically when the sync of $0 finishes…'), name)}
                            </GuardedButton>
                        </StackItem>
                    );
                })}
            </Stack>
            {open?.kind === 'arm' && (
                <ChangeModal title={fmt(_('Restore automatically when the sync of $0 finishes'), open.array)} plan={arming}
                    recordOriginals={false} applyLabel={_('Arm')} onClose={close}>
                    {fmt(_('A small program on the host checks $0 every few seconds. When its sync has finished (md reports it idle for several checks in a row), it writes back the previous values and removes raidtune\'s record, also with this page closed. Until then it keeps the speed history for the chart.'), open.array)}
                </ChangeModal>
            )}
            {cancelling && (
                <ChangeModal title={fmt(_('Cancel the automatic restore of $0'), open!.array)}
                    plan={cancelPlan(open!.array, cancelling, config, model.systemd)} recordOriginals={false}
                    applyLabel={_('Cancel automatic restore')} onClose={close}>
                    {_('The settings stay as they are; "Restore previous settings" still puts them back.')}
                </ChangeModal>
            )}
        </>
    );
}
