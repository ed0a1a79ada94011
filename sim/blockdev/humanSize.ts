// SPDX-License-Identifier: LGPL-2.1-or-later
// util-linux's size_to_human_string() (lib/strutils.c), which lsblk and sfdisk print sizes with:
// binary units, one decimal rounded half up (fdisk's disk line: two), ".0" left out.

export interface HumanSizeOptions {
    /** "1.8T" (lsblk, sfdisk's table) or "1.8 TiB" (sfdisk's messages). */
    style: 'letter' | 'iec';
    /** Two decimals, as fdisk's "Disk /dev/sda: 1.82 TiB" line. */
    twoDecimals?: boolean;
}

const LETTERS = 'BKMGTPE';

export function humanSize(bytes: number, { style, twoDecimals = false }: HumanSizeOptions): string {
    let exp = 0;
    while (exp < 60 && bytes >= 2 ** (exp + 10)) exp += 10;
    const unit = 2 ** exp;
    let whole = Math.floor(bytes / unit);
    const thousandths = Math.floor((bytes % unit) * 1000 / unit);
    // Rounded half up to two decimals or one; a carry makes the next whole unit.
    let fraction = twoDecimals ? Math.floor((thousandths + 5) / 10) : Math.floor((thousandths + 50) / 100) * 10;
    if (fraction >= 100) {
        whole++;
        fraction = 0;
    }
    const decimals = fraction === 0 ? '' : `.${String(fraction).padStart(2, '0').replace(/0$/, '')}`;
    const letter = LETTERS[exp / 10];
    const suffix = style === 'letter' ? letter : letter === 'B' ? ' B' : ` ${letter}iB`;
    return `${whole}${decimals}${suffix}`;
}
