// SPDX-License-Identifier: LGPL-2.1-or-later
// A dialog about one array belongs to the page, not to the array's card. The card goes when the
// array stops (mdadm --stop, or it falls inactive), and a dialog inside it went with it without a
// word, taking what was typed and any outcome of an apply. Held here, it stays open on the array as
// last seen and is told that the array stopped (ChangeModal then says so and writes nothing).

import { createContext, useCallback, useContext, useState } from 'react';
import type { ArrayModel, HostModel } from '../../md/modelTypes';

/** The dialog, given the array as the latest model has it (as last seen once it stopped). */
export type ArrayDialogRender = (array: ArrayModel, onClose: () => void) => React.ReactNode;

interface OpenDialog {
    name: string;
    /** The array as last seen running: what the dialog shows once it stopped. */
    lastSeen: ArrayModel | null;
    render: ArrayDialogRender;
}

type Opener = (name: string, render: ArrayDialogRender) => void;

const OpenArrayDialog = createContext<Opener>(() => {
    throw new Error('an array dialog opened outside <ArrayDialogs>');
});
const StoppedArray = createContext<string | null>(null);

/** Opens a dialog about the array named (closing any other); stable, so the memoised cards do not re-render. */
export function useOpenArrayDialog(): Opener {
    return useContext(OpenArrayDialog);
}

/** The array's name when the array this dialog is about stopped while it was open; else null. */
export function useStoppedArray(): string | null {
    return useContext(StoppedArray);
}

/** The array as the latest model has it; null once it no longer runs (gone, or inactive). */
function runningArray(model: HostModel, name: string): ArrayModel | null {
    const array = model.arrays.find(a => a.name === name);
    return array && array.health !== 'inactive' ? array : null;
}

/** Holds the one open array dialog above the cards, which `children` render. */
export function ArrayDialogs({ model, children }: { model: HostModel; children: React.ReactNode }) {
    const [open, setOpen] = useState<OpenDialog | null>(null);
    const openDialog = useCallback<Opener>((name, render) => setOpen({ name, lastSeen: null, render }), []);
    const close = useCallback(() => setOpen(null), []);
    const running = open && runningArray(model, open.name);
    // Kept during render (React's way to follow a prop in state): the array as last seen running.
    if (open && running && open.lastSeen !== running) setOpen({ ...open, lastSeen: running });
    const shown = running ?? open?.lastSeen ?? null;
    return (
        <OpenArrayDialog.Provider value={openDialog}>
            {children}
            {open && shown && (
                <StoppedArray.Provider value={running ? null : open.name}>
                    {open.render(shown, close)}
                </StoppedArray.Provider>
            )}
        </OpenArrayDialog.Provider>
    );
}
