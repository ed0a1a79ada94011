// SPDX-License-Identifier: LGPL-2.1-or-later
// What globalSetup hands to globalTeardown (same process and context; test files get env vars).
import type { Guest } from '../../../tools/vm/vm';
import type { GuestCockpit } from '../../../tools/vm/ws';

export interface VmGlobals {
    guest: Guest;
    cockpit: GuestCockpit;
}

declare global {
    var __RAIDTUNE_VM__: VmGlobals | undefined;
}
