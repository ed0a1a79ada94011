// SPDX-License-Identifier: LGPL-2.1-or-later
// The parts of a sync's panel in a chunk of their own: see lazySyncParts.tsx.
export { SyncChart } from './SyncChart';
export { DiagnosisSection } from '../diagnosis/DiagnosisSection';
