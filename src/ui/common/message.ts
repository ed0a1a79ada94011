// SPDX-License-Identifier: LGPL-2.1-or-later
import { _, fmt } from '../../host/i18n';
import type { Message } from '../../md/message';

/** A core message, translated and filled in. */
export function text(message: Message): string {
    return fmt(_(message.message), ...message.args);
}

/** A kernel attribute name (nr_requests, queue_depth, read_ahead_kb): shown as the kernel spells it. */
const KERNEL_ATTRIBUTE = /^[a-z0-9]+_[a-z0-9_]*/;

/**
 * A core message at the start of a cell or line: core messages are phrases for the middle of a
 * sentence ("stripe cache size of md0"), so the first letter is capitalised, except where the
 * translation starts with a name: one of the message's arguments (a device: "md0 的…") or a kernel
 * attribute ("nr_requests of sda"). Names keep their case in every language.
 */
export function textAtStart(message: Message): string {
    const shown = text(message);
    const startsWithName = KERNEL_ATTRIBUTE.test(shown) || message.args.some(arg => String(arg) !== '' && shown.startsWith(String(arg)));
    return startsWithName ? shown : shown.charAt(0).toLocaleUpperCase() + shown.slice(1);
}
