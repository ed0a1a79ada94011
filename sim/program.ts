// SPDX-License-Identifier: LGPL-2.1-or-later
// How a simulated tool (mdadm, tee) ends as a program: it prints what the real one would, exits
// with its code, and a crash of the simulation names the tool it stands for.

export interface ProgramOutcome {
    stdout: string;
    stderr: string;
    exitCode: number;
}

export function runAsProgram(name: string, run: () => Promise<ProgramOutcome>): void {
    run().then(outcome => {
        process.stdout.write(outcome.stdout);
        process.stderr.write(outcome.stderr);
        process.exitCode = outcome.exitCode;
    }, (error: unknown) => {
        process.stderr.write(`${name} (simulated): ${(error as Error).stack}\n`);
        process.exitCode = 1;
    });
}
