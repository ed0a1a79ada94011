// SPDX-License-Identifier: LGPL-2.1-or-later
// A minimal Cockpit protocol client that only holds the session open.
//
// cockpit-ws --local-session ends the session ~15 s after the LAST websocket closes and then answers
// 401 forever (checked on 287: it does not start a new local session). Holding one idle websocket of
// our own keeps the session alive however often the browser reloads or closes its tabs.
//
// Protocol facts used: GET /cockpit/socket upgrades to a websocket with subprotocol "cockpit1";
// Origin must match the host. Control messages are text frames "\n{json}"; the server opens with
// {"command":"init",...} and we answer {"command":"init","version":1}; it then sends
// {"command":"ping"} every 5 s, which needs no answer.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';

export interface KeepAlive {
    /** Resolves with a reason when the websocket closes for any reason other than close(). */
    readonly lost: Promise<string>;
    close(): void;
}

const OP_TEXT = 0x1;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;
const OP_PONG = 0xa;

export function openKeepAlive(host: string, port: number, timeoutMs = 10000): Promise<KeepAlive> {
    return new Promise((resolve, reject) => {
        const origin = `http://${host}:${port}`;
        const req = http.request({
            host,
            port,
            path: '/cockpit/socket',
            headers: {
                Connection: 'Upgrade',
                Upgrade: 'websocket',
                'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
                'Sec-WebSocket-Version': '13',
                'Sec-WebSocket-Protocol': 'cockpit1',
                Origin: origin,
            },
        });
        const timer = setTimeout(() => {
            req.destroy(new Error(`no websocket from cockpit-ws at ${origin} within ${timeoutMs} ms`));
        }, timeoutMs);
        req.on('error', err => {
            clearTimeout(timer);
            reject(err);
        });
        req.on('response', res => {
            clearTimeout(timer);
            res.resume();
            reject(new Error(`cockpit-ws refused the websocket: HTTP ${res.statusCode}`));
        });
        req.on('upgrade', (_res, socket: Socket, head: Buffer) => {
            let initialized = false;
            let closing = false;
            let markLost!: (reason: string) => void;
            const lost = new Promise<string>(r => { markLost = r; });

            const send = (opcode: number, payload: Buffer) => {
                if (socket.destroyed)
                    return;
                const mask = randomBytes(4);
                const len = payload.length;
                const header = len < 126 ? Buffer.from([0x80 | opcode, 0x80 | len])
                    : Buffer.from([0x80 | opcode, 0x80 | 126, len >> 8, len & 0xff]);
                const masked = Buffer.alloc(len);
                for (let i = 0; i < len; i++)
                    masked[i] = payload[i] ^ mask[i % 4];
                socket.write(Buffer.concat([header, mask, masked]));
            };

            const onMessage = (text: string) => {
                if (!text.startsWith('\n'))
                    return; // a channel message; we open no channels
                let message: { command?: string; problem?: string };
                try {
                    message = JSON.parse(text.slice(1));
                } catch {
                    return;
                }
                if (message.command === 'init' && !initialized) {
                    initialized = true;
                    send(OP_TEXT, Buffer.from('\n' + JSON.stringify({ command: 'init', version: 1 })));
                    clearTimeout(timer);
                    resolve({ lost, close });
                } else if (message.command === 'close' && !initialized) {
                    fail(`cockpit-ws closed the session: ${message.problem ?? 'unknown problem'}`);
                }
            };

            let buffer = head;
            const parse = () => {
                while (buffer.length >= 2) {
                    const opcode = buffer[0] & 0x0f;
                    let len = buffer[1] & 0x7f;
                    let offset = 2;
                    if (len === 126) {
                        if (buffer.length < 4)
                            return;
                        len = buffer.readUInt16BE(2);
                        offset = 4;
                    } else if (len === 127) {
                        if (buffer.length < 10)
                            return;
                        len = Number(buffer.readBigUInt64BE(2));
                        offset = 10;
                    }
                    if (buffer[1] & 0x80)
                        offset += 4; // servers do not mask, but be tolerant
                    if (buffer.length < offset + len)
                        return;
                    const payload = buffer.subarray(offset, offset + len);
                    buffer = buffer.subarray(offset + len);
                    if (opcode === OP_PING)
                        send(OP_PONG, payload);
                    else if (opcode === OP_CLOSE)
                        socket.end();
                    else if (opcode === OP_TEXT)
                        onMessage(payload.toString('utf8'));
                    // continuation and binary frames: only channel payloads, ignored
                }
            };

            function fail(reason: string) {
                clearTimeout(timer);
                socket.destroy();
                reject(new Error(reason));
            }

            function close() {
                closing = true;
                send(OP_CLOSE, Buffer.from([0x03, 0xe8])); // 1000, normal closure
                socket.end();
                setTimeout(() => socket.destroy(), 200).unref();
            }

            socket.on('data', (chunk: Buffer) => {
                buffer = Buffer.concat([buffer, chunk]);
                parse();
            });
            socket.on('error', () => { /* reported through 'close' */ });
            socket.on('close', () => {
                if (!initialized)
                    fail('cockpit-ws closed the websocket before the session started');
                else if (!closing)
                    markLost('the keep-alive websocket to cockpit-ws closed');
            });
            parse();
        });
        req.end();
    });
}
