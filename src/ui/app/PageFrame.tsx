// SPDX-License-Identifier: LGPL-2.1-or-later
// PatternFly's Page as raidtune uses it (no masthead, sidebar or notification drawer, the content
// filling it): the same elements and classes Page renders then, without the code of what it
// leaves out (Page imports the Drawer, and with it focus-trap: 35 KB of the first view's code).

export function PageFrame({ className, children }: { className: string; children: React.ReactNode }) {
    return (
        <div className={`pf-v6-c-page ${className}`}>
            <div className="pf-v6-c-page__main-container pf-m-fill">
                <main className="pf-v6-c-page__main" tabIndex={-1}>{children}</main>
            </div>
        </div>
    );
}
