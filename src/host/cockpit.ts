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

export interface CockpitApi {
    spawn(argv: string[], options?: SpawnOptions): SpawnPromise;
    permission(options: { admin: boolean }): CockpitPermission;
    gettext(text: string): string;
    gettext(context: string, text: string): string;
    ngettext(singular: string, plural: string, n: number): string;
    manifests: Record<string, { config?: Record<string, unknown> } | undefined>;
    transport: { wait(callback: () => void): void };
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
