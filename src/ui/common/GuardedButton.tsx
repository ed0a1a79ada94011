// A button that says why it cannot be used: no administrative access, or a reason from the core
// (Cockpit's idiom: a disabled control carries a tooltip, and stays focusable to show it).

import { Button, Tooltip, type ButtonProps } from '../pf';
import { _ } from '../../host/i18n';
import { useAdmin } from '../app/HostContext';

export function GuardedButton({ disabledReason, children, ...props }: ButtonProps & { disabledReason?: string | null }) {
    const admin = useAdmin();
    const reason = admin === false ? _('Requires administrative access. Turn it on in Cockpit\'s top bar.') : disabledReason ?? null;
    const button = <Button {...props} isAriaDisabled={reason !== null || admin === null}>{children}</Button>;
    return reason ? <Tooltip content={reason}>{button}</Tooltip> : button;
}
