// SPDX-License-Identifier: LGPL-2.1-or-later
// The presets' names as the page shows them (the presets dialog and the check window's limits).

import { _ } from '../../host/i18n';
import type { PresetName } from '../../md/tuning/presets';

const LABELS: Record<PresetName, () => string> = {
    'low-impact': () => _('Low impact'),
    'balanced': () => _('Balanced'),
    'fast-rebuild': () => _('Fast rebuild'),
};

export const presetLabel = (name: PresetName): string => LABELS[name]();
