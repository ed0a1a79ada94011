// SPDX-License-Identifier: LGPL-2.1-or-later
import { EmptyState, EmptyStateBody } from '../pf';
import { _ } from '../../host/i18n';

export function NoArrays({ mdAvailable }: { mdAvailable: boolean }) {
    return (
        <EmptyState headingLevel="h2" titleText={mdAvailable ? _('No md RAID arrays') : _('The md RAID driver is not loaded')}>
            <EmptyStateBody>
                {mdAvailable
                    ? _('This machine has no Linux software RAID arrays. Create one in the Storage page, or with mdadm, for example:')
                    : _('/proc/mdstat does not exist. Creating an array with mdadm loads the driver, for example:')}
                <pre>mdadm --create /dev/md0 --level=1 --raid-devices=2 /dev/sdX /dev/sdY</pre>
            </EmptyStateBody>
        </EmptyState>
    );
}
