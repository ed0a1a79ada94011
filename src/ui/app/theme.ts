// SPDX-License-Identifier: LGPL-2.1-or-later
// Follow Cockpit's light/dark choice. The 287 shell is PatternFly 4 and only toggles its own
// class, so the page reads the shell's setting (localStorage "shell:style": auto|dark|light)
// and the system preference itself.

const DARK_CLASS = 'pf-v6-theme-dark';

function prefersDark(): boolean {
    const style = localStorage.getItem('shell:style') ?? 'auto';
    if (style === 'dark') return true;
    if (style === 'light') return false;
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
}

export function followShellTheme(root: HTMLElement): void {
    const apply = () => root.classList.toggle(DARK_CLASS, prefersDark());
    apply();
    window.addEventListener('storage', event => {
        if (event.key === 'shell:style') apply();
    });
    window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener('change', apply);
}
