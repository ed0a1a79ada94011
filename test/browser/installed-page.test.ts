// SPDX-License-Identifier: LGPL-2.1-or-later
// The page the RPM installs, served by the Cockpit under test: on the Cockpits other than the
// default one, whose tier builds and checks the package itself (package.test.ts, which runs these
// same tests there). This file takes the RPM of the run when it holds this build, or builds it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupRaidtune } from './harness/env';
import { BUILD_TIMEOUT_MS, installBuiltRpm, installedPageTests, PLUGIN_PATH, withPackageLock } from './harness/packageBuild';

const root = mkdtempSync(join(tmpdir(), 'raidtune-rpm-root-'));
beforeAll(() => withPackageLock(() => installBuiltRpm(root)), BUILD_TIMEOUT_MS);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const env = setupRaidtune({ scenario: 'raid6-recovery', pluginDir: join(root, PLUGIN_PATH), openBarePage: false });
installedPageTests(env, join(root, PLUGIN_PATH));
