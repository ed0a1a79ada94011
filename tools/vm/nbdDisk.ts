// SPDX-License-Identifier: LGPL-2.1-or-later
// A seeking disk for the real-kernel guest (issue #38): a small NBD server of our own that serves one
// raw file the way one disk head would, one request at a time, each charged what the seek model
// (seekModel.ts) says it costs on a real disk, scaled like every speed of the benchmark (scale 0.05:
// every time x 20, so 160 MB/s comes out at 8 MB/s). QEMU connects to it instead of opening the file
// (tools/vm/vm.ts, `seekingDisks`), so the guest's kernel sees a disk where a far request costs a seek
// and a sequential one only its transfer, which QEMU's own throttling cannot tell apart.
//
//     const disk = await startSeekingDisk({ file: 'd0.img', socketPath: 'd0.sock', figures: HDD_7200,
//         scale: 0.05, ncqWindow: 1 });
//     // qemu-system-x86_64 -drive file=nbd+unix:///?socket=d0.sock,format=raw,...
//     await disk.close();
//
// Written from the NBD protocol specification (NetworkBlockDevice/nbd, doc/proto.md), only what QEMU's
// client needs: fixed newstyle negotiation, NBD_OPT_EXPORT_NAME, _GO, _INFO, _LIST and _ABORT (every
// other option is answered "unsupported", so the client falls back to simple replies), and in the
// transmission phase READ, WRITE, WRITE_ZEROES, FLUSH and DISC with simple replies. One export (any
// name the client asks for is that one: the server serves one disk). Node's standard library only.
import { lstatSync, unlinkSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import net from 'node:net';
import { Head, nextRequest, type Request, type SeekingDiskFigures } from './seekModel';

export interface SeekingDiskOptions {
    /** The raw image served (its size is the export's). */
    file: string;
    /** The unix socket to listen on (removed first if a stale one is there, and at close()). */
    socketPath: string;
    figures: SeekingDiskFigures;
    /** The benchmark's scale: every cost in real-disk milliseconds is divided by it (0.05: x 20). */
    scale: number;
    /**
     * Command queueing (NCQ): the disk picks the request it reaches soonest among the oldest
     * `ncqWindow` waiting; 1 serves them in arrival order.
     */
    ncqWindow: number;
}

export interface SeekingDiskStats {
    /** Requests the head served (reads, writes, zero writes; not flushes or rejected requests). */
    served: number;
    /** Of those, the ones that paid a seek (neither right after the last nor a short gap ahead). */
    seeks: number;
    /** Wall-clock milliseconds the head was busy (the scaled costs added up). */
    busyMs: number;
    readBytes: number;
    writtenBytes: number;
    /** The most requests ever waiting for the head at once: how deep the client queues. */
    maxWaiting: number;
    /** Requests answered with an error without reaching the head (bad range, flags, command). */
    rejected: number;
}

export interface SeekingDisk {
    readonly socketPath: string;
    stats(): SeekingDiskStats;
    /** Stops listening, drops the connections and the requests still waiting, closes the file. */
    close(): Promise<void>;
}

// ---- protocol values (doc/proto.md, "Values") ----

const NBDMAGIC = 0x4e42444d41474943n;
const IHAVEOPT = 0x49484156454f5054n;
const OPTION_REPLY_MAGIC = 0x3e889045565a9n;
const REQUEST_MAGIC = 0x25609513;
const SIMPLE_REPLY_MAGIC = 0x67446698;

// Handshake flags (server) and client flags: the same two bits.
const FLAG_FIXED_NEWSTYLE = 1 << 0;
const FLAG_NO_ZEROES = 1 << 1;

// Transmission flags: only what this server does. ROTATIONAL is a hint, true of the disk modelled.
const FLAG_HAS_FLAGS = 1 << 0;
const FLAG_SEND_FLUSH = 1 << 2;
const FLAG_ROTATIONAL = 1 << 4;
const FLAG_SEND_WRITE_ZEROES = 1 << 6;
const TRANSMISSION_FLAGS = FLAG_HAS_FLAGS | FLAG_SEND_FLUSH | FLAG_ROTATIONAL | FLAG_SEND_WRITE_ZEROES;

const OPT_EXPORT_NAME = 1;
const OPT_ABORT = 2;
const OPT_LIST = 3;
const OPT_INFO = 6;
const OPT_GO = 7;

const REP_ACK = 1;
const REP_SERVER = 2;
const REP_INFO = 3;
const REP_ERR_UNSUP = 2 ** 31 + 1;
const REP_ERR_INVALID = 2 ** 31 + 3;

const INFO_EXPORT = 0;
const INFO_BLOCK_SIZE = 3;

const CMD_READ = 0;
const CMD_WRITE = 1;
const CMD_DISC = 2;
const CMD_FLUSH = 3;
const CMD_WRITE_ZEROES = 6;

const CMD_FLAG_NO_HOLE = 1 << 1;

const EIO = 5;
const EINVAL = 22;
const ENOSPC = 28;

/** The largest READ or WRITE payload, advertised as the maximum block size (the spec's usual 32 MiB). */
const MAX_PAYLOAD = 32 * 1024 * 1024;
/** An option's data longer than this is no client of ours talking (names are at most 4 KiB). */
const MAX_OPTION_BYTES = 64 * 1024;
/** Any byte offset is served (the file has no sectors); 4 KiB is what the guest should prefer. */
const MIN_BLOCK = 1;
const PREFERRED_BLOCK = 4096;

/** A violation the spec lets the server answer with a hard disconnect. */
class ProtocolError extends Error {}

export async function startSeekingDisk(options: SeekingDiskOptions): Promise<SeekingDisk> {
    if (!(options.scale > 0 && Number.isFinite(options.scale)))
        throw new Error(`seeking disk: scale ${options.scale}, not a positive number`);
    if (!(Number.isInteger(options.ncqWindow) && options.ncqWindow >= 1))
        throw new Error(`seeking disk: ncqWindow ${options.ncqWindow}, not a whole number >= 1`);
    const file = await open(options.file, 'r+');
    let disk: DiskQueue;
    let server: net.Server;
    const connections = new Set<net.Socket>();
    try {
        const size = (await file.stat()).size;
        disk = new DiskQueue(file, size, new Head(options.figures, size), options);
        server = await listen(options.socketPath, socket => {
            connections.add(socket);
            socket.once('close', () => connections.delete(socket));
            void serveConnection(socket, disk);
        });
    } catch (err) {
        await file.close();
        throw err;
    }
    let closing: Promise<void> | undefined;
    return {
        socketPath: options.socketPath,
        stats: () => ({ ...disk.stats }),
        close: () => (closing ??= (async () => {
            const closed = new Promise<void>(resolve => server.close(() => resolve()));
            // Not waiting for the client to hang up (QEMU may be gone or hung): drop it.
            connections.forEach(socket => socket.destroy());
            await closed;
            await disk.close();
            removeStaleSocket(options.socketPath);
        })()),
    };
}

function listen(socketPath: string, onConnection: (socket: net.Socket) => void): Promise<net.Server> {
    removeStaleSocket(socketPath);
    const server = net.createServer(onConnection);
    return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(socketPath, () => {
            server.off('error', reject);
            resolve(server);
        });
    });
}

/** A socket left by a server that died: listen() would fail with EADDRINUSE. Never removes anything else. */
function removeStaleSocket(path: string): void {
    try {
        if (lstatSync(path).isSocket())
            unlinkSync(path);
    } catch {
        // not there
    }
}

// ---- the head: one request at a time, on a virtual clock ----

type Kind = 'read' | 'write' | 'zeroes';

interface Queued extends Request {
    kind: Kind;
    payload?: Buffer;
    /** performance.now() when the request had arrived whole. */
    arrivedAt: number;
    /** Whose request it is: the connection's requests are dropped when it closes. */
    owner: object;
    answer(error: number, data?: Buffer): void;
}

/**
 * The disk: the requests waiting for the head, and the head's virtual clock. `busyUntil` is when
 * (performance.now() time) the head finishes what it serves; the next request starts there, not
 * when our timer happened to fire, so timer lateness never adds up over a stream of requests.
 */
class DiskQueue {
    readonly stats: SeekingDiskStats = {
        served: 0, seeks: 0, busyMs: 0, readBytes: 0, writtenBytes: 0, maxWaiting: 0, rejected: 0,
    };
    private readonly waiting: Queued[] = [];
    private busyUntil = 0;
    private serving = false;
    private closed = false;
    private wake: { timer: NodeJS.Timeout; resolve(): void } | undefined;
    private running: Promise<void> = Promise.resolve();

    constructor(
        readonly file: FileHandle,
        readonly size: number,
        private readonly head: Head,
        private readonly options: SeekingDiskOptions,
    ) {}

    submit(request: Queued): void {
        if (this.closed)
            return;
        this.waiting.push(request);
        this.stats.maxWaiting = Math.max(this.stats.maxWaiting, this.waiting.length);
        if (!this.serving) {
            this.serving = true;
            this.running = this.serveWaiting();
        }
    }

    /** A connection went away: what it still has waiting is not served (its answers have nowhere to go). */
    drop(owner: object): void {
        for (let i = this.waiting.length - 1; i >= 0; i--) {
            if (this.waiting[i].owner === owner)
                this.waiting.splice(i, 1);
        }
    }

    async close(): Promise<void> {
        this.closed = true;
        this.waiting.length = 0;
        if (this.wake) {
            clearTimeout(this.wake.timer);
            this.wake.resolve();
        }
        await this.running;
        await this.file.close();
    }

    private async serveWaiting(): Promise<void> {
        try {
            while (!this.closed && this.waiting.length > 0) {
                const request = this.waiting.splice(this.pick(), 1)[0];
                const start = Math.max(request.arrivedAt, this.busyUntil);
                this.busyUntil = start + this.charge(request) / this.options.scale;
                const result = await this.transfer(request);
                await this.sleepUntil(this.busyUntil);
                if (!this.closed)
                    request.answer(result.error, result.data);
            }
        } finally {
            this.serving = false;
        }
    }

    /**
     * The request served next: among those that had arrived when the head came free, the model's
     * choice (the oldest, or with NCQ the nearest of the oldest `ncqWindow`). When none had (the head
     * sat idle), the first to arrive: it found the disk idle and started at once.
     */
    private pick(): number {
        let arrived = 0;
        while (arrived < this.waiting.length && this.waiting[arrived].arrivedAt <= this.busyUntil)
            arrived++;
        return arrived === 0 ? 0 : nextRequest(this.waiting.slice(0, arrived), this.head, this.options.ncqWindow);
    }

    /** The request's cost on the real disk (ms), the head moved to its end, the counts kept. */
    private charge(request: Queued): number {
        if (this.head.seeks(request))
            this.stats.seeks++;
        const costMs = this.head.serve(request);
        this.stats.served++;
        this.stats.busyMs += costMs / this.options.scale;
        if (request.kind === 'read')
            this.stats.readBytes += request.length;
        else
            this.stats.writtenBytes += request.length;
        return costMs;
    }

    /** The file I/O itself, done while the head's time runs (it takes far less than the model charges). */
    private async transfer(request: Queued): Promise<{ error: number; data?: Buffer }> {
        try {
            if (request.kind === 'read')
                return { error: 0, data: await readFully(this.file, request.offset, request.length) };
            if (request.kind === 'write')
                await writeFully(this.file, request.payload!, request.offset);
            else
                await writeZeroes(this.file, request.offset, request.length);
            return { error: 0 };
        } catch {
            return { error: EIO };
        }
    }

    private sleepUntil(at: number): Promise<void> {
        const ms = at - performance.now();
        if (ms <= 0 || this.closed)
            return Promise.resolve();
        return new Promise(resolve => {
            const timer = setTimeout(() => {
                this.wake = undefined;
                resolve();
            }, ms);
            this.wake = { timer, resolve };
        });
    }
}

async function readFully(file: FileHandle, offset: number, length: number): Promise<Buffer> {
    const data = Buffer.alloc(length);
    for (let done = 0; done < length;) {
        const { bytesRead } = await file.read(data, done, length - done, offset + done);
        if (bytesRead === 0)
            break; // the file shrank under us: the rest reads as zeroes
        done += bytesRead;
    }
    return data;
}

async function writeFully(file: FileHandle, data: Buffer, offset: number): Promise<void> {
    for (let done = 0; done < data.length;) {
        const { bytesWritten } = await file.write(data, done, data.length - done, offset + done);
        done += bytesWritten;
    }
}

const ZEROES = Buffer.alloc(1024 * 1024);

async function writeZeroes(file: FileHandle, offset: number, length: number): Promise<void> {
    for (let done = 0; done < length; done += ZEROES.length)
        await writeFully(file, ZEROES.subarray(0, Math.min(ZEROES.length, length - done)), offset + done);
}

// ---- one client connection ----

/** Reads exactly n bytes at a time from a socket, for a protocol written as straight-line async code. */
class SocketReader {
    private chunks: Buffer[] = [];
    private buffered = 0;
    private want: { bytes: number; resolve(data: Buffer): void; reject(err: Error): void } | undefined;
    private failure: Error | undefined;

    constructor(socket: net.Socket) {
        socket.on('data', (chunk: Buffer) => {
            this.chunks.push(chunk);
            this.buffered += chunk.length;
            this.settle();
        });
        socket.on('close', () => this.fail(new Error('the client closed the connection')));
        socket.on('error', err => this.fail(err));
    }

    read(bytes: number): Promise<Buffer> {
        if (this.failure)
            return Promise.reject(this.failure);
        return new Promise((resolve, reject) => {
            this.want = { bytes, resolve, reject };
            this.settle();
        });
    }

    private settle(): void {
        if (!this.want || this.buffered < this.want.bytes)
            return;
        const { bytes, resolve } = this.want;
        this.want = undefined;
        resolve(this.take(bytes));
    }

    /** The first `bytes` buffered; joins only as many chunks as that takes (a burst of writes may be buffered). */
    private take(bytes: number): Buffer {
        if (bytes === 0)
            return Buffer.alloc(0);
        this.buffered -= bytes;
        const first = this.chunks[0];
        if (first.length >= bytes) {
            // Node hands each 'data' chunk over for good: slices of it need no copy.
            if (first.length === bytes)
                this.chunks.shift();
            else
                this.chunks[0] = first.subarray(bytes);
            return first.subarray(0, bytes);
        }
        const parts: Buffer[] = [];
        for (let need = bytes; need > 0;) {
            const chunk = this.chunks[0];
            if (chunk.length <= need) {
                parts.push(chunk);
                this.chunks.shift();
                need -= chunk.length;
            } else {
                parts.push(chunk.subarray(0, need));
                this.chunks[0] = chunk.subarray(need);
                need = 0;
            }
        }
        return Buffer.concat(parts, bytes);
    }

    private fail(err: Error): void {
        this.failure ??= err;
        if (this.want) {
            const { reject } = this.want;
            this.want = undefined;
            reject(this.failure);
        }
    }
}

async function serveConnection(socket: net.Socket, disk: DiskQueue): Promise<void> {
    const reader = new SocketReader(socket);
    const owner = {};
    socket.once('close', () => disk.drop(owner));
    try {
        if (await negotiate(socket, reader, disk))
            await transmit(socket, reader, disk, owner);
        else
            socket.end();
    } catch {
        // A protocol violation (ProtocolError), the client gone or the socket failing: a hard
        // disconnect, the spec's answer to the first.
        socket.destroy();
    }
}

/** Option haggling (fixed newstyle); true when the client chose the export and transmission begins. */
async function negotiate(socket: net.Socket, reader: SocketReader, disk: DiskQueue): Promise<boolean> {
    const greeting = Buffer.alloc(18);
    greeting.writeBigUInt64BE(NBDMAGIC, 0);
    greeting.writeBigUInt64BE(IHAVEOPT, 8);
    greeting.writeUInt16BE(FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES, 16);
    socket.write(greeting);
    const clientFlags = (await reader.read(4)).readUInt32BE(0);
    // The spec: the server MUST drop the connection on a client flag it does not know.
    if ((clientFlags & ~(FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES)) !== 0)
        throw new ProtocolError(`unknown client flags ${clientFlags}`);
    const noZeroes = (clientFlags & FLAG_NO_ZEROES) !== 0;
    for (;;) {
        const header = await reader.read(16);
        if (header.readBigUInt64BE(0) !== IHAVEOPT)
            throw new ProtocolError('an option without IHAVEOPT');
        const option = header.readUInt32BE(8);
        const length = header.readUInt32BE(12);
        if (length > MAX_OPTION_BYTES)
            throw new ProtocolError(`option data of ${length} bytes`);
        const data = await reader.read(length);
        switch (option) {
        case OPT_EXPORT_NAME:
            // No way to refuse here but hanging up; every name is our one export anyway.
            socket.write(exportNameReply(disk.size, noZeroes));
            return true;
        case OPT_GO:
        case OPT_INFO: {
            const infos = parseInfoRequests(data);
            if (!infos) {
                socket.write(optionReply(option, REP_ERR_INVALID));
                break;
            }
            socket.write(infoReplies(option, disk.size, infos));
            if (option === OPT_GO)
                return true;
            break;
        }
        case OPT_ABORT:
            socket.write(optionReply(option, REP_ACK));
            return false;
        case OPT_LIST:
            socket.write(length !== 0 ? optionReply(option, REP_ERR_INVALID) : exportList(option));
            break;
        default:
            // STRUCTURED_REPLY, EXTENDED_HEADERS, STARTTLS, the meta contexts...: the client falls
            // back to what it can do without them (simple replies, no TLS).
            socket.write(optionReply(option, REP_ERR_UNSUP));
        }
    }
}

function optionReply(option: number, type: number, data: Buffer = Buffer.alloc(0)): Buffer {
    const header = Buffer.alloc(20);
    header.writeBigUInt64BE(OPTION_REPLY_MAGIC, 0);
    header.writeUInt32BE(option, 8);
    header.writeUInt32BE(type, 12);
    header.writeUInt32BE(data.length, 16);
    return Buffer.concat([header, data]);
}

/** The old way in: size, transmission flags and (unless the client asked not to) 124 zero bytes. */
function exportNameReply(size: number, noZeroes: boolean): Buffer {
    const reply = Buffer.alloc(10 + (noZeroes ? 0 : 124));
    reply.writeBigUInt64BE(BigInt(size), 0);
    reply.writeUInt16BE(TRANSMISSION_FLAGS, 8);
    return reply;
}

/** NBD_OPT_GO/INFO data: name length, name, count, that many 16-bit info types; null when malformed. */
function parseInfoRequests(data: Buffer): number[] | null {
    if (data.length < 6)
        return null;
    const nameLength = data.readUInt32BE(0);
    if (nameLength > data.length - 6)
        return null;
    const count = data.readUInt16BE(4 + nameLength);
    if (data.length !== 4 + nameLength + 2 + 2 * count)
        return null;
    return Array.from({ length: count }, (_, i) => data.readUInt16BE(4 + nameLength + 2 + 2 * i));
}

/** NBD_INFO_EXPORT (always), NBD_INFO_BLOCK_SIZE when asked for, then the ACK. */
function infoReplies(option: number, size: number, requested: number[]): Buffer {
    const exportInfo = Buffer.alloc(12);
    exportInfo.writeUInt16BE(INFO_EXPORT, 0);
    exportInfo.writeBigUInt64BE(BigInt(size), 2);
    exportInfo.writeUInt16BE(TRANSMISSION_FLAGS, 10);
    const replies = [optionReply(option, REP_INFO, exportInfo)];
    if (requested.includes(INFO_BLOCK_SIZE)) {
        const blockSize = Buffer.alloc(14);
        blockSize.writeUInt16BE(INFO_BLOCK_SIZE, 0);
        blockSize.writeUInt32BE(MIN_BLOCK, 2);
        blockSize.writeUInt32BE(PREFERRED_BLOCK, 6);
        blockSize.writeUInt32BE(MAX_PAYLOAD, 10);
        replies.push(optionReply(option, REP_INFO, blockSize));
    }
    replies.push(optionReply(option, REP_ACK));
    return Buffer.concat(replies);
}

/** NBD_OPT_LIST: our one export, named "" (the default export), then the ACK. */
function exportList(option: number): Buffer {
    return Buffer.concat([optionReply(option, REP_SERVER, Buffer.alloc(4)), optionReply(option, REP_ACK)]);
}

/** The transmission phase: requests in, simple replies out, until NBD_CMD_DISC or the client hangs up. */
async function transmit(socket: net.Socket, reader: SocketReader, disk: DiskQueue, owner: object): Promise<void> {
    let inFlight = 0;
    let drained: (() => void) | undefined;
    const answerer = (handle: Buffer) => (error: number, data?: Buffer) => {
        sendReply(socket, handle, error, data);
        if (--inFlight === 0)
            drained?.();
    };
    for (;;) {
        const header = await reader.read(28);
        if (header.readUInt32BE(0) !== REQUEST_MAGIC)
            throw new ProtocolError('a request without its magic');
        const flags = header.readUInt16BE(4);
        const type = header.readUInt16BE(6);
        const handle = header.subarray(8, 16);
        const offset = Number(header.readBigUInt64BE(16));
        const length = header.readUInt32BE(24);
        if (type === CMD_WRITE && length > MAX_PAYLOAD)
            throw new ProtocolError(`a write of ${length} bytes`); // its data would have to be read to go on
        const payload = type === CMD_WRITE ? await reader.read(length) : undefined;
        if (type === CMD_DISC) {
            // The spec: handle every outstanding request, then close.
            if (inFlight > 0)
                await new Promise<void>(resolve => { drained = resolve; });
            socket.end();
            return;
        }
        const error = requestError(type, flags, offset, length, disk.size);
        if (error) {
            disk.stats.rejected++;
            sendReply(socket, handle, error);
        } else if (type === CMD_FLUSH) {
            // Every write answered so far is in the file; datasync makes that durable where the
            // file is on a disk (on /dev/shm it costs nothing). No head time: the model has no cache.
            sendReply(socket, handle, await disk.file.datasync().then(() => 0, () => EIO));
        } else {
            inFlight++;
            const kind: Kind = type === CMD_READ ? 'read' : type === CMD_WRITE ? 'write' : 'zeroes';
            const answer = answerer(handle);
            disk.submit({ kind, offset, length, payload, arrivedAt: performance.now(), owner, answer });
        }
    }
}

/** 0 for a request the head may serve, else the error to answer it with (the spec's values). */
function requestError(type: number, flags: number, offset: number, length: number, size: number): number {
    const allowedFlags = type === CMD_WRITE_ZEROES ? CMD_FLAG_NO_HOLE : 0;
    if ((flags & ~allowedFlags) !== 0)
        return EINVAL;
    if (type === CMD_FLUSH)
        return offset === 0 && length === 0 ? 0 : EINVAL;
    if (type !== CMD_READ && type !== CMD_WRITE && type !== CMD_WRITE_ZEROES)
        return EINVAL; // TRIM, CACHE, BLOCK_STATUS, anything newer: not advertised
    if (length === 0 || (type === CMD_READ && length > MAX_PAYLOAD))
        return EINVAL;
    if (offset + length > size)
        return type === CMD_READ ? EINVAL : ENOSPC; // the spec: a write beyond the end is ENOSPC
    return 0;
}

function sendReply(socket: net.Socket, handle: Buffer, error: number, data?: Buffer): void {
    if (socket.destroyed)
        return;
    const header = Buffer.alloc(16);
    header.writeUInt32BE(SIMPLE_REPLY_MAGIC, 0);
    header.writeUInt32BE(error, 4);
    handle.copy(header, 8);
    socket.write(error === 0 && data ? Buffer.concat([header, data]) : header);
}
