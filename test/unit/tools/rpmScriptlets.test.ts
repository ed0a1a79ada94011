// SPDX-License-Identifier: LGPL-2.1-or-later
// The package test's scriptlet runner: rpm's order and $1 for each phase, and the stand-in for
// systemd's update helper, which a package built with Fedora's macros calls by its absolute path
// (this machine's rpm has no such macros, so the package test itself runs the spec's fallback).
import { PHASES, runPhase } from '../../browser/harness/rpmScriptlets';

const lines = (scriptlets: Map<string, string>, phase: keyof typeof PHASES) =>
    runPhase(scriptlets, phase).map(c => c.line);

test('runs each phase\'s scriptlets in rpm\'s order, with the count rpm passes as $1', () => {
    const scriptlets = new Map(['pre', 'post', 'preun', 'postun'].map(name => [name, `systemctl ${name} "$1"`]));
    expect(lines(scriptlets, 'install')).toEqual(['pre 1', 'post 1']);
    expect(lines(scriptlets, 'upgrade')).toEqual(['pre 2', 'post 2', 'preun 1', 'postun 1']);
    expect(lines(scriptlets, 'removal')).toEqual(['preun 0', 'postun 0']);
});

test('records the helper\'s verbs as the systemctl calls systemd would get', () => {
    const helper = (phase: string, verb: string, units: string) =>
        `[ "$1" ${phase} ] || exit 0\ntest -x /usr/lib/systemd/systemd-update-helper && /usr/lib/systemd/systemd-update-helper ${verb} ${units}`;
    const scriptlets = new Map([
        ['post', helper('-eq 1', 'install-system-units', 'a.timer')],
        ['preun', helper('-eq 0', 'remove-system-units', 'a.timer a.service')],
        ['postun', helper('-ge 1', 'mark-restart-system-units', 'a.timer')],
    ]);
    expect(lines(scriptlets, 'install')).toEqual(['--no-reload preset a.timer']);
    expect(runPhase(scriptlets, 'upgrade')).toEqual([
        { line: 'daemon-reload', verb: 'daemon-reload', options: [], units: [] },
        { line: 'try-restart a.timer', verb: 'try-restart', options: [], units: ['a.timer'] },
    ]);
    expect(lines(scriptlets, 'removal')).toEqual(['--no-reload disable --now a.timer a.service']);
});

test('a scriptlet that fails fails its phase, as it fails rpm\'s step', () => {
    expect(() => runPhase(new Map([['preun', 'exit 1']]), 'removal')).toThrow();
});
