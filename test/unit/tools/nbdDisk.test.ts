// SPDX-License-Identifier: LGPL-2.1-or-later
// The seeking disk's NBD server (tools/vm/nbdDisk.ts, issue #38), driven by a tiny NBD client written
// here from the protocol specification: the handshake QEMU does, data written and read back, errors,
// requests served one at a time in the order the seek model picks, and a far read taking the time of
// a seek. Timings are checked loosely (orders of magnitude, lower bounds): timers never fire early.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSeekingDisk, type SeekingDisk } from '../../../tools/vm/nbdDisk';
import { HDD_7200, revolutionMs, seekCurve } from '../../../tools/vm/seekModel';

const MiB = 1024 * 1024;
const DISK_BYTES = 256 * MiB;

const IHAVEOPT = 0x49484156454f5054n;
const OPT = { EXPORT_NAME: 1, ABORT: 2, LIST: 3, GO: 7, STRUCTURED_REPLY: 8 };
const REP = { ACK: 1, SERVER: 2, INFO: 3, ERR_UNSUP: 2 ** 31 + 1, ERR_INVALID: 2 ** 31 + 3 };
const CMD = { READ: 0, WRITE: 1, DISC: 2, FLUSH: 3, TRIM: 4, WRITE_ZEROES: 6 };
const FLAG = { HAS_FLAGS: 1, SEND_FLUSH: 4, SEND_FUA: 8, SEND_TRIM: 32, SEND_WRITE_ZEROES: 64 };

/** Reads exactly n bytes at a time from a socket. */
class Reader {
    private buffer = Buffer.alloc(0);
    private want: { n: number; resolve(b: Buffer): void; reject(e: Error): void } | undefined;
    closed = false;

    constructor(socket: net.Socket) {
        socket.on('data', (chunk: Buffer) => {
            this.buffer = Buffer.concat([this.buffer, chunk]);
            this.settle();
        });
        socket.on('close', () => {
            this.closed = true;
            this.want?.reject(new Error('closed'));
        });
    }

    read(n: number): Promise<Buffer> {
        return new Promise((resolve, reject) => {
            if (this.closed && this.buffer.length < n) return reject(new Error('closed'));
            this.want = { n, resolve, reject };
            this.settle();
        });
    }

    private settle() {
        if (!this.want || this.buffer.length < this.want.n) return;
        const { n, resolve } = this.want;
        this.want = undefined;
        const data = this.buffer.subarray(0, n);
        this.buffer = this.buffer.subarray(n);
        resolve(data);
    }
}

interface OptionReply { option: number; type: number; data: Buffer }

interface Reply { error: number; data?: Buffer; at: number }

/** A client as simple as the protocol allows: option haggling, then requests with simple replies. */
class Client {
    readonly reader: Reader;
    private nextHandle = 1n;
    private readonly waiting = new Map<bigint, { length: number; resolve(r: Reply): void }>();
    /** Handles in the order their replies came. */
    readonly order: bigint[] = [];
    size = 0;
    flags = 0;
    blockSizes: number[] = [];

    private constructor(readonly socket: net.Socket) {
        this.reader = new Reader(socket);
    }

    static async connect(path: string): Promise<Client> {
        const socket = net.connect(path);
        await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
        return new Client(socket);
    }

    /** The server's greeting, our client flags (fixed newstyle, and no zeroes unless told). */
    async greet(clientFlags = 3): Promise<number> {
        const greeting = await this.reader.read(18);
        expect(greeting.subarray(0, 8).toString('latin1')).toBe('NBDMAGIC');
        expect(greeting.readBigUInt64BE(8)).toBe(IHAVEOPT);
        const flags = Buffer.alloc(4);
        flags.writeUInt32BE(clientFlags);
        this.socket.write(flags);
        return greeting.readUInt16BE(16);
    }

    sendOption(option: number, data = Buffer.alloc(0)) {
        const header = Buffer.alloc(16);
        header.writeBigUInt64BE(IHAVEOPT, 0);
        header.writeUInt32BE(option, 8);
        header.writeUInt32BE(data.length, 12);
        this.socket.write(Buffer.concat([header, data]));
    }

    async optionReply(): Promise<OptionReply> {
        const header = await this.reader.read(20);
        expect(header.readBigUInt64BE(0)).toBe(0x3e889045565a9n);
        const length = header.readUInt32BE(16);
        return { option: header.readUInt32BE(8), type: header.readUInt32BE(12), data: await this.reader.read(length) };
    }

    /** NBD_OPT_GO for the default export, asking for the block sizes; the transmission phase follows. */
    async go(): Promise<void> {
        const data = Buffer.alloc(4 + 2 + 2);
        data.writeUInt32BE(0, 0); // name: "" (the default export)
        data.writeUInt16BE(1, 4);
        data.writeUInt16BE(3, 6); // NBD_INFO_BLOCK_SIZE
        this.sendOption(OPT.GO, data);
        for (;;) {
            const reply = await this.optionReply();
            expect(reply.option).toBe(OPT.GO);
            if (reply.type === REP.ACK) break;
            expect(reply.type).toBe(REP.INFO);
            const info = reply.data.readUInt16BE(0);
            if (info === 0) {
                this.size = Number(reply.data.readBigUInt64BE(2));
                this.flags = reply.data.readUInt16BE(10);
            } else if (info === 3) {
                this.blockSizes = [2, 6, 10].map(at => reply.data.readUInt32BE(at));
            }
        }
        void this.readReplies();
    }

    /** Sends a request; resolves with its reply (and when it came). */
    request(type: number, offset: number, length: number, data?: Buffer, flags = 0): Promise<Reply> {
        const handle = this.nextHandle++;
        const header = Buffer.alloc(28);
        header.writeUInt32BE(0x25609513, 0);
        header.writeUInt16BE(flags, 4);
        header.writeUInt16BE(type, 6);
        header.writeBigUInt64BE(handle, 8);
        header.writeBigUInt64BE(BigInt(offset), 16);
        header.writeUInt32BE(length, 24);
        this.socket.write(data ? Buffer.concat([header, data]) : header);
        return new Promise(resolve => this.waiting.set(handle, { length: type === CMD.READ ? length : 0, resolve }));
    }

    read(offset: number, length: number) {
        return this.request(CMD.READ, offset, length);
    }

    write(offset: number, data: Buffer) {
        return this.request(CMD.WRITE, offset, data.length, data);
    }

    close() {
        this.socket.destroy();
    }

    private async readReplies() {
        try {
            for (;;) {
                const header = await this.reader.read(16);
                expect(header.readUInt32BE(0)).toBe(0x67446698);
                const error = header.readUInt32BE(4);
                const handle = header.readBigUInt64BE(8);
                const waiter = this.waiting.get(handle);
                if (!waiter) throw new Error(`a reply to handle ${handle}, never sent`);
                this.waiting.delete(handle);
                const data = error === 0 && waiter.length > 0 ? await this.reader.read(waiter.length) : undefined;
                this.order.push(handle);
                waiter.resolve({ error, data, at: performance.now() });
            }
        } catch {
            // the connection closed
        }
    }
}

let dir: string;
let file: string;
let socketPath: string;
let disk: SeekingDisk | undefined;

beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'nbd-disk-test-'));
    file = join(dir, 'd0.img');
    socketPath = join(dir, 'd0.sock');
    writeFileSync(file, '');
    truncateSync(file, DISK_BYTES);
});

afterEach(async () => {
    await disk?.close();
    disk = undefined;
    rmSync(dir, { recursive: true, force: true });
});

async function start(scale: number, ncqWindow: number): Promise<Client> {
    disk = await startSeekingDisk({ file, socketPath, figures: HDD_7200, scale, ncqWindow });
    const client = await Client.connect(socketPath);
    await client.greet();
    await client.go();
    return client;
}

const pattern = (length: number, seed: number) => Buffer.from(Array.from({ length }, (_, i) => (i * 7 + seed) & 0xff));

describe('the seeking disk server', () => {
    test('OPT_GO: the export size, flush and write-zeroes offered (no trim, no FUA), the block sizes', async () => {
        const client = await start(1, 1);
        expect(client.size).toBe(DISK_BYTES);
        expect(client.flags & (FLAG.HAS_FLAGS | FLAG.SEND_FLUSH | FLAG.SEND_WRITE_ZEROES)).toBe(
            FLAG.HAS_FLAGS | FLAG.SEND_FLUSH | FLAG.SEND_WRITE_ZEROES);
        expect(client.flags & (FLAG.SEND_TRIM | FLAG.SEND_FUA)).toBe(0);
        expect(client.blockSizes).toEqual([1, 4096, 32 * MiB]);
        client.close();
    });

    test('a write then a read of the same bytes, across chunk boundaries; flush and zero writes', async () => {
        const client = await start(1, 1);
        const data = pattern(MiB + 512, 3);
        expect((await client.write(5 * MiB + 512, data)).error).toBe(0);
        const back = await client.read(5 * MiB + 512, data.length);
        expect(back.error).toBe(0);
        expect(back.data!.equals(data)).toBe(true);
        expect((await client.request(CMD.FLUSH, 0, 0)).error).toBe(0);
        expect((await client.request(CMD.WRITE_ZEROES, 5 * MiB + 1024, 4096, undefined, 2)).error).toBe(0);
        const zeroed = (await client.read(5 * MiB + 512, 8192)).data!;
        expect(zeroed.subarray(512, 4608).equals(Buffer.alloc(4096))).toBe(true);
        expect(zeroed.subarray(0, 512).equals(data.subarray(0, 512))).toBe(true);
        expect(zeroed.subarray(4608).equals(data.subarray(4608, 8192))).toBe(true);
        expect(disk!.stats()).toMatchObject({
            served: 4, readBytes: data.length + 8192, writtenBytes: data.length + 4096,
        });
        client.close();
    });

    test('bad requests are refused with EINVAL (ENOSPC for a write past the end) and the connection goes on', async () => {
        const client = await start(1, 1);
        expect((await client.read(DISK_BYTES - 512, 1024)).error).toBe(22);
        expect((await client.write(DISK_BYTES - 512, Buffer.alloc(1024))).error).toBe(28);
        expect((await client.request(CMD.TRIM, 0, 4096)).error).toBe(22);
        expect((await client.request(CMD.READ, 0, 4096, undefined, 1 /* FUA, not offered */)).error).toBe(22);
        expect((await client.request(CMD.FLUSH, 0, 4096)).error).toBe(22);
        expect((await client.request(99, 0, 0)).error).toBe(22);
        expect((await client.read(0, 4096)).data!.equals(Buffer.alloc(4096))).toBe(true);
        expect(disk!.stats()).toMatchObject({ served: 1, rejected: 6 });
        client.close();
    });

    test('NBD_CMD_DISC: the outstanding requests are answered, then the server closes', async () => {
        const client = await start(0.5, 1);
        const closed = new Promise(resolve => client.socket.once('close', resolve));
        const far = client.read(200 * MiB, 4096);
        void client.request(CMD.DISC, 0, 0); // no reply to this one
        expect((await far).error).toBe(0);
        await closed;
    });

    test('options it does not know are answered unsupported; LIST shows the one export; ABORT is acknowledged', async () => {
        disk = await startSeekingDisk({ file, socketPath, figures: HDD_7200, scale: 1, ncqWindow: 1 });
        const client = await Client.connect(socketPath);
        expect(await client.greet()).toBe(3); // fixed newstyle, no zeroes
        client.sendOption(OPT.STRUCTURED_REPLY);
        expect(await client.optionReply()).toMatchObject({ option: OPT.STRUCTURED_REPLY, type: REP.ERR_UNSUP });
        client.sendOption(OPT.LIST);
        expect(await client.optionReply()).toMatchObject({ type: REP.SERVER, data: Buffer.alloc(4) });
        expect(await client.optionReply()).toMatchObject({ type: REP.ACK });
        client.sendOption(OPT.GO, Buffer.from([0, 0, 0, 9])); // a name longer than the data
        expect(await client.optionReply()).toMatchObject({ option: OPT.GO, type: REP.ERR_INVALID });
        client.sendOption(OPT.ABORT);
        expect(await client.optionReply()).toMatchObject({ option: OPT.ABORT, type: REP.ACK });
        await new Promise(resolve => client.socket.once('close', resolve));
    });

    test('the old way in: NBD_OPT_EXPORT_NAME, with the 124 zeroes when the client did not refuse them', async () => {
        disk = await startSeekingDisk({ file, socketPath, figures: HDD_7200, scale: 1, ncqWindow: 1 });
        const client = await Client.connect(socketPath);
        await client.greet(1);
        client.sendOption(OPT.EXPORT_NAME);
        const reply = await client.reader.read(8 + 2 + 124);
        expect(Number(reply.readBigUInt64BE(0))).toBe(DISK_BYTES);
        expect(reply.readUInt16BE(8) & FLAG.HAS_FLAGS).toBe(1);
        expect(reply.subarray(10).equals(Buffer.alloc(124))).toBe(true);
        client.close();
    });

    test('a client flag it does not know ends the connection', async () => {
        disk = await startSeekingDisk({ file, socketPath, figures: HDD_7200, scale: 1, ncqWindow: 1 });
        const client = await Client.connect(socketPath);
        await client.greet(1 | 4);
        await new Promise(resolve => client.socket.once('close', resolve));
    });
});

describe('one head, served in the order the model picks', () => {
    // A far read occupies the head; behind it wait a read far back at 0 and one right after the first.
    const first = 192 * MiB;
    const sendThree = (client: Client) => Promise.all([
        client.read(first, 4096), client.read(0, 4096), client.read(first + 4096, 4096),
    ]);

    test('in arrival order with a window of 1', async () => {
        const client = await start(0.5, 1);
        await sendThree(client);
        expect(client.order).toEqual([1n, 2n, 3n]);
        // The first found the head idle and left the queue at once: two waited behind it.
        expect(disk!.stats()).toMatchObject({ served: 3, seeks: 3, maxWaiting: 2 });
        client.close();
    });

    test('with command queueing, the one right after the head first', async () => {
        const client = await start(0.5, 32);
        const [a, b, c] = await sendThree(client);
        expect(client.order).toEqual([1n, 3n, 2n]);
        expect(disk!.stats()).toMatchObject({ served: 3, seeks: 2 });
        // The read far back waited for the head's trip out and its own seek back.
        expect(b.at - a.at).toBeGreaterThan(c.at - a.at);
        client.close();
    });
});

describe('time', () => {
    /** How long each read took, sent one at a time after the last one's reply (as O_DIRECT reads are). */
    async function timeEach(client: Client, reads: [number, number][]): Promise<number[]> {
        const times: number[] = [];
        for (const [offset, length] of reads) {
            const t0 = performance.now();
            await client.read(offset, length);
            times.push(performance.now() - t0);
        }
        return times;
    }

    test('at scale 0.5 a far read takes its seek and half a turn, doubled; a sequential one a small part of it', async () => {
        const scale = 0.5;
        const client = await start(scale, 1);
        const n = 7;
        // The head first taken to where the sequential reads begin.
        await client.read(100 * MiB, 65536);
        const charged = () => disk!.stats().busyMs;
        const beforeSequential = charged();
        await timeEach(client, Array.from({ length: n }, (_, i) => [100 * MiB + (i + 1) * 65536, 65536]));
        const sequentialMs = (charged() - beforeSequential) / n;
        const far = await timeEach(client, Array.from({ length: n }, (_, i) => [i % 2 ? 0 : 250 * MiB, 4096]));
        // A far read crosses most of the disk (250/256 of the stroke; the first from ~100 MiB, less).
        const farModelMs = (seekCurve(HDD_7200)(150 / 256) + revolutionMs(HDD_7200) / 2) / scale;
        expect(farModelMs).toBeGreaterThan(30);
        // Timers never fire early: each far read took at least what the model charges. A sequential
        // one is charged its transfer only (0.4 ms real, 0.8 ms here): what the head was charged,
        // not the wall clock, which a loaded machine stretches (a gate's parallel lanes once made
        // these reads take 9 ms each, failing a wall-clock bound of a fifth of a far read).
        expect(Math.min(...far)).toBeGreaterThan(0.95 * farModelMs);
        expect(sequentialMs).toBeLessThan(farModelMs / 5);
        expect(disk!.stats().seeks).toBe(1 + n);
        client.close();
    });
});

describe('QEMU\'s own NBD client', () => {
    const qemuIo = (() => {
        try {
            return execFileSync('sh', ['-c', 'command -v qemu-io'], { encoding: 'utf8' }).trim();
        } catch {
            return '';
        }
    })();
    (qemuIo ? test : test.skip)('qemu-io writes and reads back a pattern through the server', async () => {
        disk = await startSeekingDisk({ file, socketPath, figures: HDD_7200, scale: 1, ncqWindow: 4 });
        const out = await new Promise<string>((resolve, reject) => {
            const args = ['-f', 'raw', '-c', 'write -P 0x5a 1M 64k', '-c', 'read -P 0x5a 1M 64k',
                `nbd+unix:///?socket=${socketPath}`];
            // Asynchronously: the server runs in this process.
            import('node:child_process').then(({ execFile }) => execFile(qemuIo, args, (err, stdout, stderr) => (
                err ? reject(new Error(`${err.message}\n${stdout}${stderr}`)) : resolve(stdout + stderr))));
        });
        expect(out).toMatch(/wrote 65536\/65536 bytes/);
        expect(out).toMatch(/read 65536\/65536 bytes/);
        expect(out).not.toMatch(/Pattern verification failed/);
    });
});
