// SPDX-License-Identifier: LGPL-2.1-or-later
// "Layout and alignment" of one array (issue #6, src/md/advice/layout.ts): collapsed by default and rendered only
// once opened, so a page of 128 arrays pays for a toggle each. The toggle itself says when something
// is misaligned: that must not hide behind a closed section.

import { memo, useState } from 'react';
import { LAYOUT_FIELDS, sameArrayFields } from '../common/cardProps';
import { lazyModule } from '../common/lazyPart';
import { ExpandableSection } from '../pfDetails';
import { _, fmt, ngettext } from '../../host/i18n';
import { layoutAdvice } from '../../md/advice/layout';
import type { ArrayModel } from '../../md/modelTypes';

// The details' code is fetched when a section first opens, or as the pointer or focus reaches its toggle.
const details = lazyModule(() => import('../../later').then(later => later.layoutDetails));
const LayoutDetails = details.part('LayoutDetails');
export const preloadLayoutDetails = () => void details.preload();

/** Opens the section once the details' code is in: it never opens empty and then grows. */
function openWhenLoaded(open: boolean, setExpanded: (open: boolean) => void) {
    if (!open || details.isLoaded()) setExpanded(open);
    else void details.preload().then(() => setExpanded(true), () => setExpanded(true));
}

function sameLayoutInputs(before: { array: ArrayModel }, after: { array: ArrayModel }): boolean {
    const reshape = (a: ArrayModel) => `${a.sync?.reshape?.fromDisks}>${a.sync?.reshape?.toDisks}`;
    return sameArrayFields(before.array, after.array, LAYOUT_FIELDS) && reshape(before.array) === reshape(after.array);
}

export const LayoutSection = memo(function LayoutSection({ array }: { array: ArrayModel }) {
    const [expanded, setExpanded] = useState(false);
    const advice = layoutAdvice(array);
    const misaligned = advice.misaligned.length + advice.offStripe.length;
    const toggle = misaligned
        ? fmt(ngettext('Layout and alignment: $0 device misaligned', 'Layout and alignment: $0 devices misaligned', misaligned), misaligned)
        : _('Layout and alignment');
    return (
        <ExpandableSection className="raidtune-layout" toggleText={toggle} onPointerEnter={preloadLayoutDetails} onFocus={preloadLayoutDetails}
            isExpanded={expanded} onToggle={(_event, open) => openWhenLoaded(open, setExpanded)}>
            {expanded && <LayoutDetails array={array} advice={advice} />}
        </ExpandableSection>
    );
}, sameLayoutInputs);
