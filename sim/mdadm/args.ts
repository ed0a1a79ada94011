// SPDX-License-Identifier: LGPL-2.1-or-later
// The part of mdadm's command line the simulated mdadm understands, parsed like mdadm 4.2:
//
//     mdadm --grow /dev/mdN --bitmap=internal|none [--bitmap-chunk=SIZE]
//     mdadm [--manage] /dev/mdN --fail /dev/X --remove /dev/X     (also -f, -r, several devices)
//     mdadm [--manage] /dev/mdN --add /dev/X | --add-spare /dev/X   (also -a, or a device before any operation)
//     mdadm [--manage] /dev/mdN --replace /dev/OLD --with /dev/NEW
//
// Options may also be given as "--bitmap internal", "-b internal", "--bitmap-chunk 64M", in any
// order after --grow. What mdadm itself refuses while parsing gets mdadm's words and exit status
// 2; what mdadm would do but the simulation does not says "(simulated)".

export interface BitmapRequest {
    /** As given: "/dev/md0". */
    device: string;
    /** "md0" */
    array: string;
    bitmap: 'internal' | 'none';
    /** Bytes; null: mdadm chooses (at least 64 MiB, more when the bitmap space needs it). */
    chunkBytes: number | null;
}

export interface MdadmOutcome {
    exitCode: number;
    stdout: string;
    stderr: string;
}

/** Manage mode: each device with the operation named before it, applied in order. */
export interface ManageRequest {
    device: string;
    array: string;
    operations: { operation: ManageOperation; member: string }[];
}

export const MANAGE_OPERATIONS = ['fail', 'remove', 'add', 'add-spare', 'replace', 'with'] as const;
export type ManageOperation = typeof MANAGE_OPERATIONS[number];

/** `mdadm --stop /dev/mdN`: the array is stopped, its members keep their superblocks. */
export interface StopRequest {
    device: string;
    array: string;
    stop: true;
}

export type MdadmRequest = BitmapRequest | ManageRequest | StopRequest;

export type ParsedCommand = { request: MdadmRequest } | { refused: MdadmOutcome };

const USAGE_EXIT = 2;

function refuse(...lines: string[]): { refused: MdadmOutcome } {
    return { refused: { exitCode: USAGE_EXIT, stdout: '', stderr: lines.map(line => `${line}\n`).join('') } };
}

/** mdadm would do it; the simulation does not. */
function notSimulated(what: string): { refused: MdadmOutcome } {
    return refuse(`mdadm (simulated): ${what}; only "mdadm --grow /dev/mdN --bitmap=internal|none [--bitmap-chunk=SIZE]" ` +
        'and "mdadm /dev/mdN --fail|--remove|--add|--add-spare|--replace|--with /dev/X ..." are simulated');
}

const SECTORS_PER_UNIT: Record<string, number> = { '': 2, K: 2, M: 2 * 1024, G: 2 * 1024 ** 2, T: 2 * 1024 ** 3 };

/** util.c parse_size(): a positive number with an optional K, M, G or T (K when none), in 512-byte sectors. */
export function parseSizeSectors(text: string): number | null {
    const m = /^(\d+)([KMGT]?)$/.exec(text);
    if (!m) return null;
    const sectors = Number(m[1]) * SECTORS_PER_UNIT[m[2]];
    return sectors > 0 && Number.isSafeInteger(sectors) ? sectors : null;
}

const isPowerOfTwo = (n: number) => Number.isInteger(Math.log2(n));

/** --bitmap-chunk: "auto" lets mdadm choose; otherwise a power of two, checked on the sector count like mdadm. */
function parseChunk(text: string): { chunkBytes: number | null } | { refused: MdadmOutcome } {
    if (text === 'auto') return { chunkBytes: null };
    const sectors = parseSizeSectors(text);
    if (sectors === null || !isPowerOfTwo(sectors)) return refuse(`mdadm: invalid bitmap chunksize: ${text}`);
    return { chunkBytes: sectors * 512 };
}

/** "--bitmap=internal" -> ["--bitmap", "internal"]; "-b" and "--bitmap internal" take the next word. */
function splitOption(arg: string): [string, string | undefined] {
    const eq = arg.indexOf('=');
    return arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
}

const OPTION_NAMES: Record<string, 'bitmap' | 'chunk'> = { '--bitmap': 'bitmap', '-b': 'bitmap', '--bitmap-chunk': 'chunk' };

/** mdadm's argv (without "mdadm"): the request, or what mdadm prints and its exit status. */
export function parseMdadmArgs(argv: readonly string[]): ParsedCommand {
    if (argv[0] === '--grow' || argv[0] === '-G') return parseGrow(argv);
    if (argv[0] === '--stop' || argv[0] === '-S') return parseStop(argv);
    // Manage mode is mdadm's default when the first word is an md device.
    if (argv[0] === '--manage' || /^\/dev\/md/.test(argv[0] ?? '')) return parseManage(argv[0] === '--manage' ? argv.slice(1) : argv);
    return notSimulated(`"${argv[0] ?? ''}" is not simulated`);
}

const MANAGE_OPTIONS: Record<string, ManageOperation> = {
    '--fail': 'fail', '-f': 'fail', '--remove': 'remove', '-r': 'remove', '--add': 'add', '-a': 'add',
    '--add-spare': 'add-spare', '--replace': 'replace', '--with': 'with',
};

/** The md device, then operations, each followed by the devices it applies to. */
function parseManage(argv: readonly string[]): ParsedCommand {
    const array = /^\/dev\/(md\d+)$/.exec(argv[0] ?? '')?.[1];
    if (!array) return notSimulated(`device ${argv[0] ?? ''} (only /dev/mdN)`);
    const operations: ManageRequest['operations'] = [];
    let operation: ManageOperation | null = null;
    for (const arg of argv.slice(1)) {
        if (arg in MANAGE_OPTIONS) {
            operation = MANAGE_OPTIONS[arg];
        } else if (arg.startsWith('-')) {
            return notSimulated(`option ${arg}`);
        } else {
            const member = /^\/dev\/([A-Za-z0-9._-]+)$/.exec(arg)?.[1];
            if (!member) return notSimulated(`device ${arg} (only /dev/NAME)`);
            // mdadm: a device before any operation is added.
            operations.push({ operation: operation ?? 'add', member });
        }
    }
    if (operations.length === 0) return notSimulated('manage mode without a device');
    return { request: { device: argv[0], array, operations } };
}

function parseStop(argv: readonly string[]): ParsedCommand {
    if (argv.length !== 2) return notSimulated(`--stop of ${argv.length - 1} devices (only one /dev/mdN)`);
    const array = /^\/dev\/(md\d+)$/.exec(argv[1])?.[1];
    if (!array) return notSimulated(`device ${argv[1]} (only /dev/mdN)`);
    return { request: { device: argv[1], array, stop: true } };
}

function parseGrow(argv: readonly string[]): ParsedCommand {
    let bitmap: string | undefined;
    let chunkBytes: number | null = null;
    const devices: string[] = [];
    for (let i = 1; i < argv.length; i++) {
        const [name, inline] = splitOption(argv[i]);
        const option = OPTION_NAMES[name];
        if (option) {
            const value = inline ?? argv[++i];
            if (value === undefined) return refuse(`mdadm: option '${name}' requires an argument`, 'Usage: mdadm --help', '  for help');
            if (option === 'bitmap') {
                bitmap = value;
                continue;
            }
            // Like mdadm, a bad chunk size stops the parse where it is met.
            const chunk = parseChunk(value);
            if ('refused' in chunk) return chunk;
            chunkBytes = chunk.chunkBytes;
        } else if (name.startsWith('-')) {
            return notSimulated(`option ${argv[i]}`);
        } else {
            devices.push(argv[i]);
        }
    }
    if (bitmap === undefined) return notSimulated('a --grow without --bitmap');
    if (bitmap !== 'internal' && bitmap !== 'none') return notSimulated(`--bitmap=${bitmap}`);
    if (devices.length !== 1) return notSimulated(`${devices.length} devices`);
    const array = /^\/dev\/(md\d+)$/.exec(devices[0])?.[1];
    if (!array) return notSimulated(`device ${devices[0]} (only /dev/mdN)`);
    return { request: { device: devices[0], array, bitmap, chunkBytes } };
}
