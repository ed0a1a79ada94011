// SPDX-License-Identifier: LGPL-2.1-or-later
// Which fields of a change dialog the user changed. A field that still reads as the dialog opened
// is not written: its text may be the current value rounded for display (1000 KiB/s shows as
// 0.98 MiB/s, which is 1004 KiB/s), and a dialog applied as opened must change nothing.

/** The text as typed, or null while it still reads as the dialog opened (spaces around aside). */
export function editedText(value: string, asOpened: string): string | null {
    return value.trim() === asOpened.trim() ? null : value;
}
