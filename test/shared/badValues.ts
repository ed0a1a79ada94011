// SPDX-License-Identifier: LGPL-2.1-or-later
// Values a person (or an attacker) might type into raidtune's fields. Every control must refuse
// each of them with a message and write nothing. Shared by the unit and browser tests.
export const BAD_TEXT_VALUES = [
    '', ' ', 'abc', 'fast', '-1', '-5000', '0', '0.0', '1e9', '1e3', '0x10', '+50', '5 000', '5000 6000',
    '50,5', '1/2', 'Infinity', 'NaN', 'null', 'undefined', '1; reboot', '$(id)', '`id`', '5000\nidle',
    '../../etc/passwd', '99999999999999999999', '12.345', '..5', '5.', '½', '٣', 'system; id',
];
