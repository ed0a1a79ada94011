// SPDX-License-Identifier: LGPL-2.1-or-later
import { useState } from 'react';
import { ClipboardCopyButton, CodeBlock, CodeBlockAction, CodeBlockCode } from '../pfDetails';
import { _ } from '../../host/i18n';

type CopyState = 'idle' | 'copied' | 'failed';

/** Commands for a person to run, one a line, with a button that copies them all. */
export function CopyableCommands({ id, commands, className, copyLabel }: {
    id: string; commands: string[]; className?: string; copyLabel?: string;
}) {
    const [state, setState] = useState<CopyState>('idle');
    const text = commands.join('\n');
    // The clipboard may be refused (no permission, insecure origin): the text stays selectable.
    const copy = () => {
        navigator.clipboard.writeText(text).then(() => setState('copied'), () => setState('failed'));
    };
    const tip = state === 'copied' ? _('Copied') : state === 'failed' ? _('Cannot copy here: select the text instead') : _('Copy to clipboard');
        // The button's tooltip only shows while hovered: the outcome is also said in words below it.
    return (
        <>
            <CodeBlock className={className} actions={
                <CodeBlockAction>
                    <ClipboardCopyButton id={`${id}-copy`} variant="plain" aria-label={copyLabel ?? _('Copy the commands')}
                        onClick={copy} exitDelay={600}>
                        {tip}
                    </ClipboardCopyButton>
                </CodeBlockAction>
            }>
                <CodeBlockCode id={`${id}-code`}>{text}</CodeBlockCode>
            </CodeBlock>
            <div role="status" className="pf-v6-u-font-size-sm raidtune-copy-status">{state === 'idle' ? '' : tip}</div>
        </>
    );
}
