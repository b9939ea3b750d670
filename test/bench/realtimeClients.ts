// The client side of the realtime benchmark, in a process of its own so the server's event loop
// is measured and not the clients'. Each client is a plain TCP socket that speaks the WebSocket
// handshake and reads frames itself (see `open`). Driven over IPC by test/bench/realtime.ts: open N sockets,
// each subscribed to "tickers" and one "ticker.<SYMBOL>"; record for every update the time it
// arrived minus the tick time it carries; report percentiles and seq gaps; close.
import crypto from 'node:crypto';
import net, { type Socket } from 'node:net';
import * as ws from 'ws';

export type ClientCommand =
  | {
    type: 'connect'; url: string; count: number; symbols: string[]; concurrency: number; limitMs: number;
    /** Each client from an address of its own on the loopback network (127.10.0.1, 127.10.0.2, ...), as phones are. */
    ownAddresses?: boolean;
    /** The first client's index among all the processes' clients (its loopback address). */
    addressOffset?: number;
  }
  | { type: 'reset' }
  | { type: 'report'; withSamples?: boolean }
  | { type: 'close' };

export type ClientReport =
  | { type: 'ready'; connected: number; failed: number; firstError?: string }
  | {
    type: 'report'; updates: number; gaps: number; closed: number; p50Ms: number; p99Ms: number; maxMs: number;
    /** Every latency since the reset, when asked for (to merge the reports of several client processes). */
    samples?: number[];
    /** CPU of this process since the last reset, in percent of one core. */
    cpuPercent: number;
  }
  | { type: 'closed' };

const sockets: Socket[] = [];
let latencies = new Float64Array(1 << 16);
let latencyCount = 0;
let gaps = 0;
let closed = 0;
let cpuSince = process.cpuUsage();
let cpuSinceMs = performance.now();

const nowEpochMs = () => performance.timeOrigin + performance.now();
const reply = (message: ClientReport) => process.send!(message);

function record(latencyMs: number) {
  if (latencyCount === latencies.length) {
    const grown = new Float64Array(latencies.length * 2);
    grown.set(latencies);
    latencies = grown;
  }
  latencies[latencyCount] = latencyMs;
  latencyCount += 1;
}

/** ws's frame writer (a named export of its ES module), which its types leave out. */
const { Sender } = ws as unknown as {
  Sender: { frame(data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[] };
};

/** What the clients send, framed and masked as a client must (RFC 6455 §5.3), by ws's own framer. */
const clientFrame = (opcode: number, payload: Buffer) =>
  Buffer.concat(Sender.frame(payload, { fin: true, opcode, mask: true, readOnly: false, rsv1: false }));

const updatePrefix = Buffer.from('{"type":"update","channel":"');
const snapshotPrefix = Buffer.from('{"type":"snapshot"');

/** The digits after `key` in `bytes` from `from` on, as a number (NaN when the key is missing). */
function numberIn(bytes: Buffer, key: string, from: number): number {
  const at = bytes.indexOf(key, from, 'latin1');
  if (at === -1) return Number.NaN;
  let value = 0;
  let digits = 0;
  for (let index = at + key.length; index < bytes.length; index += 1) {
    const code = bytes[index];
    if (code < 48 || code > 57) break;
    value = value * 10 + (code - 48);
    digits += 1;
  }
  return digits === 0 ? Number.NaN : value;
}

/**
 * One client: a TCP connection upgraded by hand and its server frames read straight from the
 * bytes. The `ws` library cost about 18 µs of this process's CPU a frame, so one process holding
 * 5 000 clients took 90 ms of CPU for every tick and was itself the slowest part of the figure
 * (issue 20); a phone reads one socket on a CPU of its own. What is timed is unchanged: a frame's
 * arrival in this process minus the tick time it carries.
 */
function open(url: string, channels: string[], localAddress?: string): Promise<Socket> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true, localAddress });
    const lastSeq = new Map<string, number>();
    let snapshots = 0;
    let upgraded = false;
    let pending: Buffer = Buffer.alloc(0);
    const onFrame = (opcode: number, payload: Buffer, receivedMs: number) => {
      if (opcode === 0x9) {
        socket.write(clientFrame(0xa, Buffer.alloc(0)));
        return;
      }
      if (opcode !== 0x1) return;
      if (payload.subarray(0, updatePrefix.length).equals(updatePrefix)) {
        const channelEnd = payload.indexOf(34, updatePrefix.length);
        const channel = payload.toString('latin1', updatePrefix.length, channelEnd);
        const seq = numberIn(payload, '"seq":', channelEnd);
        const previous = lastSeq.get(channel);
        if (previous !== undefined && seq !== previous + 1) gaps += 1;
        lastSeq.set(channel, seq);
        record(receivedMs - numberIn(payload, '"time":', channelEnd));
      } else if (payload.subarray(0, snapshotPrefix.length).equals(snapshotPrefix)) {
        const message = JSON.parse(payload.toString()) as { channel: string; seq: number };
        lastSeq.set(message.channel, message.seq);
        snapshots += 1;
        if (snapshots === channels.length) resolve(socket);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      const receivedMs = nowEpochMs();
      let bytes = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      if (!upgraded) {
        const end = bytes.indexOf('\r\n\r\n');
        if (end === -1) {
          pending = bytes;
          return;
        }
        if (!bytes.toString('latin1', 0, 12).startsWith('HTTP/1.1 101')) {
          reject(new Error(`upgrade refused: ${bytes.toString('latin1', 0, Math.min(end, 200))}`));
          socket.destroy();
          return;
        }
        upgraded = true;
        bytes = bytes.subarray(end + 4);
        socket.write(clientFrame(0x1, Buffer.from(JSON.stringify({ op: 'subscribe', channels }))));
      }
      let offset = 0;
      while (bytes.length - offset >= 2) {
        const opcode = bytes[offset] & 0x0f;
        let length = bytes[offset + 1] & 0x7f;
        let header = 2;
        if (length === 126) {
          if (bytes.length - offset < 4) break;
          length = bytes.readUInt16BE(offset + 2);
          header = 4;
        } else if (length === 127) {
          if (bytes.length - offset < 10) break;
          length = Number(bytes.readBigUInt64BE(offset + 2));
          header = 10;
        }
        if (bytes.length - offset < header + length) break;
        onFrame(opcode, bytes.subarray(offset + header, offset + header + length), receivedMs);
        offset += header + length;
      }
      pending = offset === bytes.length ? Buffer.alloc(0) : Buffer.from(bytes.subarray(offset));
    });
    socket.once('connect', () => {
      socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\n`
        + `Connection: Upgrade\r\nSec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    socket.once('error', reject);
    socket.on('close', () => { closed += 1; });
  });
}

/** The n-th client's own loopback address: 127.10.0.1 onwards, 250 to a /24 (Linux answers all of 127/8). */
const loopbackAddress = (index: number) =>
  `127.${10 + Math.floor(index / 62_500)}.${Math.floor((index % 62_500) / 250)}.${(index % 250) + 1}`;

async function connectAll(command: Extract<ClientCommand, { type: 'connect' }>) {
  let next = 0;
  let failed = 0;
  let firstError: string | undefined;
  const deadline = Date.now() + command.limitMs;
  const worker = async () => {
    while (next < command.count && Date.now() < deadline) {
      const index = next;
      next += 1;
      try {
        sockets.push(await open(command.url, ['tickers', `ticker.${command.symbols[index % command.symbols.length]}`],
          command.ownAddresses ? loopbackAddress((command.addressOffset ?? 0) + index) : undefined));
      } catch (error) {
        failed += 1;
        firstError ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: command.concurrency }, worker));
  reply({ type: 'ready', connected: sockets.length, failed: failed + (command.count - next), firstError });
}

function report(withSamples = false) {
  const sorted = latencies.slice(0, latencyCount).sort();
  const at = (p: number) => (latencyCount === 0 ? Number.NaN : sorted[Math.min(latencyCount - 1, Math.ceil(p * latencyCount) - 1)]);
  const cpu = process.cpuUsage(cpuSince);
  const cpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - cpuSinceMs)) * 100;
  reply({
    type: 'report', updates: latencyCount, gaps, closed, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1), cpuPercent,
    ...(withSamples ? { samples: Array.from(sorted) } : {}),
  });
}

process.on('message', (command: ClientCommand) => {
  switch (command.type) {
    case 'connect':
      void connectAll(command);
      break;
    case 'reset':
      latencyCount = 0;
      gaps = 0;
      cpuSince = process.cpuUsage();
      cpuSinceMs = performance.now();
      break;
    case 'report':
      report(command.withSamples);
      break;
    case 'close':
      for (const socket of sockets) socket.destroy();
      reply({ type: 'closed' });
      process.disconnect();
      break;
  }
});
