// SPDX-License-Identifier: LGPL-2.1-or-later
// One "term: value" line of a PatternFly description list, as the array card and a member's
// details show their facts.

import { DescriptionListDescription, DescriptionListGroup, DescriptionListTerm } from '../pfDetails';

export function Fact({ term, children }: { term: string; children: React.ReactNode }) {
    return (
        <DescriptionListGroup>
            <DescriptionListTerm>{term}</DescriptionListTerm>
            <DescriptionListDescription>{children}</DescriptionListDescription>
        </DescriptionListGroup>
    );
}
