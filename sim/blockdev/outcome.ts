// SPDX-License-Identifier: LGPL-2.1-or-later
// What a simulated block-device tool prints and its exit status, and the refusals of what it parses.

import type { ProgramOutcome } from '../program';

export const ok = (stdout: string, stderr = ''): ProgramOutcome => ({ exitCode: 0, stdout, stderr });

export const failed = (stderr: string, stdout = '', exitCode = 1): ProgramOutcome => ({ exitCode, stdout, stderr });

/** The real tool would do it; the simulation does not (exit 2, like the simulated mdadm). */
export function notSimulated(tool: string, what: string): { refused: ProgramOutcome } {
    return { refused: failed(`${tool} (simulated): ${what} is not simulated (sim/README.md, Block devices)\n`, '', 2) };
}
