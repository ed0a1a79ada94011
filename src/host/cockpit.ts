// SPDX-License-Identifier: LGPL-2.1-or-later
// The typed slice of cockpit.js (loaded by index.html as a global) that raidtune uses. Only
// modules under src/host/ import this: everything else stays testable without Cockpit.

export interface SpawnOptions {
    superuser?: 'require' | 'try';
    err?: 'out' | 'ignore' | 'message';
    environ?: string[];
}

export interface SpawnPromise extends Promise<string> {
    input(data: string, stream?: boolean): SpawnPromise;
    close(problem?: string): void;
}

export interface CockpitProblem {
    problem?: string;
    message?: string;
    exit_status?: number;
}

export interface CockpitPermission {
    allowed: boolean | null;
    addEventListener(event: 'changed', listener: () => void): void;
    removeEventListener(event: 'changed', listener: () => void): void;
    close(): void;
}

/** The page's own URL fragment, as Cockpit keeps it in sync with the shell's address bar. */
export interface CockpitLocation {
    /** "#/md0?x=1" -> ["md0"] (decoded). */
    readonly path: string[];
    readonly options: Record<string, string | string[]>;
    readonly href: string;
    /** Navigates (a new browser history entry). */
    go(path: string[] | string, options?: Record<string, string>): void;
    /** Navigates without a new history entry. */
    replace(path: string[] | string, options?: Record<string, string>): void;
}

export interface CockpitManifest {
    config?: Record<string, unknown>;
    [key: string]: unknown;
}

export interface CockpitApi {
    spawn(argv: string[], options?: SpawnOptions): SpawnPromise;
    permission(options: { admin: boolean }): CockpitPermission;
    gettext(text: string): string;
    gettext(context: string, text: string): string;
    ngettext(singular: string, plural: string, n: number): string;
    /** Filled by ../manifests.js: every installed package, e.g. manifests.storage with cockpit-storaged. */
    manifests: Record<string, CockpitManifest | undefined>;
    location: CockpitLocation;
    /** Opens another Cockpit page ("/storage"), in the shell's frame. */
    jump(path: string | string[], host?: string): void;
    /** Set by the po.<lang>.js script Cockpit serves as the page's po.js ("en" without one). */
    language: string;
    transport: {
        wait(callback: () => void): void;
        /** A control message to the shell, e.g. "notify" with the page's status. */
        control(command: string, options: Record<string, unknown>): void;
    };
    addEventListener(event: 'visibilitychange' | 'locationchanged', listener: () => void): void;
    removeEventListener(event: 'visibilitychange' | 'locationchanged', listener: () => void): void;
    hidden: boolean;
}

declare global {
    interface Window { cockpit?: CockpitApi }
}

export function cockpitApi(): CockpitApi {
    if (!window.cockpit) throw new Error('cockpit.js is not loaded');
    return window.cockpit;
}
