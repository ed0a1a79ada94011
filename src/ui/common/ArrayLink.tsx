// SPDX-License-Identifier: LGPL-2.1-or-later
// An array's name as a link to its own page (#/md0): the URL can be shared, opened in a new tab,
// and Back returns to the overview. A plain click changes the page in place (no reload).

import { arrayHref, selectArray } from '../../host/location';

export function ArrayLink({ name, className, children }: {
    name: string; className: string; children: React.ReactNode;
}) {
    const select = (event: React.MouseEvent) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        selectArray(name);
    };
    return <a className={className} href={arrayHref(name)} onClick={select}>{children}</a>;
}
