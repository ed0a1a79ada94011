import { _, fmt } from '../../host/i18n';
import type { Message } from '../../md/message';

/** A core message, translated and filled in. */
export function text(message: Message): string {
    return fmt(_(message.message), ...message.args);
}
