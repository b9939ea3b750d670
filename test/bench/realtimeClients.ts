// The client side of the realtime benchmark, in a process of its own so the server's event loop
// is measured and not the clients'. Driven over IPC by test/bench/realtime.ts: open N sockets,
// each subscribed to "tickers" and one "ticker.<SYMBOL>"; record for every update the time it
// arrived minus the tick time it carries; report percentiles and seq gaps; close.
import WebSocket from 'ws';

export type ClientCommand =
  | { type: 'connect'; url: string; count: number; symbols: string[]; concurrency: number; limitMs: number }
  | { type: 'reset' }
  | { type: 'report' }
  | { type: 'close' };

export type ClientReport =
  | { type: 'ready'; connected: number; failed: number; firstError?: string }
  | {
    type: 'report'; updates: number; gaps: number; closed: number; p50Ms: number; p99Ms: number; maxMs: number;
    /** CPU of this process since the last reset, in percent of one core. */
    cpuPercent: number;
  }
  | { type: 'closed' };

const sockets: WebSocket[] = [];
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

/** The number after `"key":` from `from` on, read without parsing the whole frame (the client must stay cheap). */
function numberAfter(text: string, key: string, from = 0): number {
  const at = text.indexOf(key, from);
  if (at === -1) return Number.NaN;
  let end = at + key.length;
  while (end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end += 1;
  return Number(text.slice(at + key.length, end));
}

function open(url: string, channels: string[]): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    const lastSeq = new Map<string, number>();
    let snapshots = 0;
    socket.on('message', (data: Buffer) => {
      const receivedMs = nowEpochMs();
      const text = data.toString('latin1');
      if (text.startsWith('{"type":"update"')) {
        const channelEnd = text.indexOf('"', 28);
        const channel = text.slice(28, channelEnd);
        const seq = numberAfter(text, '"seq":', channelEnd);
        const previous = lastSeq.get(channel);
        if (previous !== undefined && seq !== previous + 1) gaps += 1;
        lastSeq.set(channel, seq);
        record(receivedMs - numberAfter(text, '"time":', channelEnd));
      } else if (text.startsWith('{"type":"snapshot"')) {
        const message = JSON.parse(text) as { channel: string; seq: number };
        lastSeq.set(message.channel, message.seq);
        snapshots += 1;
        if (snapshots === channels.length) resolve(socket);
      }
    });
    socket.once('open', () => socket.send(JSON.stringify({ op: 'subscribe', channels })));
    socket.once('error', reject);
    socket.on('close', () => { closed += 1; });
  });
}

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
        sockets.push(await open(command.url, ['tickers', `ticker.${command.symbols[index % command.symbols.length]}`]));
      } catch (error) {
        failed += 1;
        firstError ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: command.concurrency }, worker));
  reply({ type: 'ready', connected: sockets.length, failed: failed + (command.count - next), firstError });
}

function report() {
  const sorted = latencies.slice(0, latencyCount).sort();
  const at = (p: number) => (latencyCount === 0 ? Number.NaN : sorted[Math.min(latencyCount - 1, Math.ceil(p * latencyCount) - 1)]);
  const cpu = process.cpuUsage(cpuSince);
  const cpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - cpuSinceMs)) * 100;
  reply({ type: 'report', updates: latencyCount, gaps, closed, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1), cpuPercent });
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
      report();
      break;
    case 'close':
      for (const socket of sockets) socket.terminate();
      reply({ type: 'closed' });
      process.disconnect();
      break;
  }
});
