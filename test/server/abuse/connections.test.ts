// Connection exhaustion (issue 7, point 2) through the real server: realtime sockets are capped
// per address and in all (below the open-file limit), and an HTTP request trickled a byte at a
// time, body or headers, is answered 408 and closed once the request timeout passes (a short one
// here). Real sockets from 127.0.0.x addresses; bounded waits, no assertion on elapsed time.
import { execFileSync } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiPrefix, paths } from '../../../src/api/contract/paths.ts';
import { addressKey, connectionsCap, openFilesLimit, parseOpenFilesLimit } from '../../../server/plugins/realtime/connections.ts';
import { defaultRealtimeSettings } from '../../../server/plugins/realtime/settings.ts';
import { httpServerOptions } from '../../../server/lib/httpServerOptions.ts';
import { defaultLimits, loadConfig } from '../../../server/lib/config.ts';
import { forEachDatabase } from '../helpers.ts';
import { eventually, refusedUpgrade, SocketClient, socketUrl, waitLimitMs } from '../realtimeHelpers.ts';

describe('GET /api/ws per-address cap', () => {
  forEachDatabase((server) => {
    let url: string;
    const clients: SocketClient[] = [];
    const connect = async (localAddress: string) => {
      const client = await SocketClient.connect(url, { localAddress });
      clients.push(client);
      return client;
    };
    beforeAll(async () => {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      url = socketUrl(server.app);
    });
    afterEach(() => {
      for (const client of clients.splice(0)) client.close();
    });

    it('refuses the fourth socket from one address with 429 in the envelope while another address connects', async () => {
      const held = [];
      for (let count = 0; count < 3; count += 1) held.push(await connect('127.0.0.5'));
      const refused = await refusedUpgrade(url, { localAddress: '127.0.0.5' });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ success: false, code: 429, result: { error: 'too_many_connections' } });

      const other = await connect('127.0.0.6');
      other.send({ op: 'ping' });
      await other.next('pong');
      // The first three still work.
      for (const client of held) {
        client.send({ op: 'ping' });
        await client.next('pong');
      }
    });

    it('gives the place of a closed socket back to its address', async () => {
      const held = [];
      for (let count = 0; count < 3; count += 1) held.push(await connect('127.0.0.7'));
      expect((await refusedUpgrade(url, { localAddress: '127.0.0.7' })).status).toBe(429);
      held[0].close();
      await held[0].closed;
      await connectOnceReleased('127.0.0.7');
      expect((await refusedUpgrade(url, { localAddress: '127.0.0.7' })).status).toBe(429);
    });

    it('counts no socket it refused: once the three close, three fit again', async () => {
      const held = [];
      for (let count = 0; count < 3; count += 1) held.push(await connect('127.0.0.8'));
      for (let count = 0; count < 5; count += 1) {
        expect((await refusedUpgrade(url, { localAddress: '127.0.0.8' })).status).toBe(429);
      }
      for (const client of held) {
        client.close();
        await client.closed;
      }
      for (let count = 0; count < 3; count += 1) await connectOnceReleased('127.0.0.8');
      expect((await refusedUpgrade(url, { localAddress: '127.0.0.8' })).status).toBe(429);
    });

    /** The server sees a close a moment after the client does: tries again until a place is free. */
    async function connectOnceReleased(localAddress: string) {
      await eventually(async () => {
        const client = await SocketClient.connect(url, { localAddress }).catch(() => undefined);
        if (client) clients.push(client);
        return client !== undefined;
      }, `a socket from ${localAddress}`);
    }
  }, { databases: 'embedded', realtime: { connectionsPerAddressMax: 3 } });
});

describe('GET /api/ws total cap', () => {
  forEachDatabase((server) => {
    let url: string;
    beforeAll(async () => {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      url = socketUrl(server.app);
    });

    it('refuses a socket beyond the total with 503 in the envelope, whatever its address', async () => {
      const held = [await SocketClient.connect(url, { localAddress: '127.0.0.9' }), await SocketClient.connect(url, { localAddress: '127.0.0.10' })];
      try {
        const refused = await refusedUpgrade(url, { localAddress: '127.0.0.11' });
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({ success: false, code: 503, result: { error: 'server_busy' } });
        // Plain HTTP is not counted against the sockets, so it still answers.
        const { port } = server.app.server.address() as AddressInfo;
        expect((await fetch(`http://127.0.0.1:${port}${apiPrefix}${paths.publicKey}`)).status).toBe(200);
      } finally {
        for (const client of held) client.close();
      }
    });
  }, { databases: 'embedded', realtime: { connectionsMax: 2 } });

  it('keeps the cap below the open-file limit, leaving room for HTTP', () => {
    expect(connectionsCap(20_000, 20_000)).toBe(16_000);
    expect(connectionsCap(20_000, 4_096)).toBe(3_072);
    expect(connectionsCap(20_000, 1_024)).toBe(512);
    expect(connectionsCap(20_000, 65_536)).toBe(20_000);
    expect(connectionsCap(20_000, 1_048_576)).toBe(20_000);
    expect(connectionsCap(100, 20_000)).toBe(100);
    expect(connectionsCap(20_000, undefined)).toBe(20_000);
    for (const limit of [256, 1_024, 4_096, 20_000, 65_536]) {
      expect(connectionsCap(defaultRealtimeSettings.connectionsMax, limit)).toBeLessThan(limit);
    }
  });

  it('reads the soft open-file limit as ulimit -n shows it', () => {
    const limits = [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max processes             63445                63445                processes ',
      'Max open files            1024                 524288               files     ',
    ].join('\n');
    expect(parseOpenFilesLimit(limits)).toBe(1024);
    expect(parseOpenFilesLimit(limits.replace('1024 ', 'unlimited '))).toBeUndefined();
    expect(parseOpenFilesLimit('')).toBeUndefined();
    if (process.platform === 'linux') {
      expect(openFilesLimit()).toBe(Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim()));
    }
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', () => {
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('takes its caps and the request timeout from the environment', () => {
    const config = loadConfig({
      REALTIME_CONNECTIONS_MAX: '5000', REALTIME_CONNECTIONS_PER_ADDRESS_MAX: '8', HTTP_REQUEST_TIMEOUT_MS: '15000',
    });
    expect(config.limits).toMatchObject({ realtimeConnectionsMax: 5000, realtimeConnectionsPerAddressMax: 8, httpRequestTimeoutMs: 15_000 });
    expect(httpServerOptions(config.limits)).toMatchObject({ requestTimeout: 15_000, http: { headersTimeout: 10_000 } });
    expect(() => httpServerOptions({ ...defaultLimits, httpRequestTimeoutMs: Number('soon') })).toThrow(/httpRequestTimeoutMs/);
  });
});

/** Everything the server writes on a raw connection, and when it closed it (bounded wait). */
function rawConnection(port: number) {
  const socket = net.connect({ port, host: '127.0.0.1' });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk) => chunks.push(chunk));
  socket.on('error', () => undefined);
  const ended = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server kept the connection past ${waitLimitMs} ms`)), waitLimitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
  return { socket, ended, connected: new Promise<void>((resolve) => socket.once('connect', () => resolve())) };
}

/** Writes `text` a byte at a time every `everyMs` until the connection closes; returns the bytes written. */
function trickle(socket: net.Socket, text: string, everyMs: number): () => number {
  let written = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || written >= text.length) {
      clearInterval(timer);
      return;
    }
    socket.write(text[written]);
    written += 1;
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
  return () => written;
}

describe('HTTP request timeout', () => {
  forEachDatabase((server) => {
    let port: number;
    beforeAll(async () => {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      port = (server.app.server.address() as AddressInfo).port;
    });

    it('answers a body trickled one byte at a time with 408 and closes the connection', async () => {
      const connection = rawConnection(port);
      await connection.connected;
      const body = JSON.stringify({ data: 'x'.repeat(200) });
      connection.socket.write([
        `POST ${apiPrefix}${paths.login} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json',
        `Content-Length: ${body.length}`, '', '',
      ].join('\r\n'));
      const written = trickle(connection.socket, body, 50);
      const answer = await connection.ended;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      // Cut off before the body was whole: the timeout did it, not the end of the request.
      expect(written()).toBeLessThan(body.length);
    });

    it('answers headers trickled one byte at a time with 408 and closes the connection', async () => {
      const connection = rawConnection(port);
      await connection.connected;
      const headers = `GET ${apiPrefix}${paths.publicKey} HTTP/1.1\r\nHost: 127.0.0.1\r\n${'X-Slow: x\r\n'.repeat(40)}\r\n`;
      const written = trickle(connection.socket, headers, 50);
      const answer = await connection.ended;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(written()).toBeLessThan(headers.length);
    });

    it('still answers a request sent whole, and keeps a realtime socket open past the timeouts', async () => {
      const response = await fetch(`http://127.0.0.1:${port}${apiPrefix}${paths.publicKey}`);
      expect(response.status).toBe(200);
      const client = await SocketClient.connect(socketUrl(server.app));
      try {
        // Silent for twice the request and idle timeouts: Node stops timing a socket once upgraded.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        client.send({ op: 'ping' });
        await client.next('pong');
      } finally {
        client.close();
      }
    });
  }, { databases: 'embedded', limits: { httpRequestTimeoutMs: 1_000, httpHeadersTimeoutMs: 1_000, httpIdleTimeoutMs: 1_000 } });
});
