// SPDX-License-Identifier: LGPL-2.1-or-later
// An array's name as a link to its own address (#/md0): the URL can be shared, opened in a new
// tab, and Back returns. A plain click selects the array in place (the page does not reload).

import { arrayHref, selectArray } from '../../host/location';

/** The array's card, brought to the top of the window. */
export function scrollToCard(name: string): void {
    document.getElementById(`array-${name}`)?.scrollIntoView({ block: 'start' });
}

export function ArrayLink({ name, className, selected, scroll = false, children }: {
    name: string; className: string; selected: boolean;
    /** Also bring the card into view when the array is selected already (its address does not change then). */
    scroll?: boolean;
    children: React.ReactNode;
}) {
    const select = (event: React.MouseEvent) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        selectArray(name);
        if (scroll) scrollToCard(name);
    };
    return (
        <a className={className} href={arrayHref(name)} onClick={select} aria-current={selected ? 'location' : undefined}>
            {children}
        </a>
    );
}
