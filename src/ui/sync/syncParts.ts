// SPDX-License-Identifier: LGPL-2.1-or-later
// The parts of a sync's panel, in the later chunk (src/later.ts): see lazySyncParts.tsx. The guided repair
// too: a card with one would otherwise grow once its code came.
export { SyncChart } from './SyncChart';
export { DiagnosisSection } from '../diagnosis/DiagnosisSection';
export { RepairFlow } from '../health/RepairFlow';
