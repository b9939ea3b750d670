// The HTTP server's own limits, as Fastify options: how long a client may take to send a request
// (so a body trickled one byte at a time cannot hold a connection, and a file, forever), how long
// a silent or idle connection stays open. Upgraded realtime sockets are not touched by any of them
// (Node stops timing a socket once it is upgraded); the heartbeat looks after those.
import type { Limits } from './config.ts';

type HttpLimits = Pick<Limits, 'httpRequestTimeoutMs' | 'httpHeadersTimeoutMs' | 'httpIdleTimeoutMs' | 'httpKeepAliveTimeoutMs'>;

export function httpServerOptions(limits: HttpLimits) {
  for (const [name, value] of Object.entries(limits)) {
    if (!(Number.isSafeInteger(value) && value > 0)) throw new Error(`${name} must be a positive number of milliseconds, not ${value}`);
  }
  const requestTimeoutMs = limits.httpRequestTimeoutMs;
  return {
    requestTimeout: requestTimeoutMs,
    connectionTimeout: limits.httpIdleTimeoutMs,
    keepAliveTimeout: limits.httpKeepAliveTimeoutMs,
    http: {
      // Node would refuse an HTTP/1.1 request without Host with an empty 400 of its own; the app
      // refuses it instead, in the envelope (server/app.ts).
      requireHostHeader: false,
      headersTimeout: Math.min(limits.httpHeadersTimeoutMs, requestTimeoutMs),
      // Node looks for requests past their time every this often (30 s by default, which would
      // let a request overrun its timeout by as much): a tenth of the timeout, 100 ms to 1 s.
      connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(requestTimeoutMs / 10))),
    },
  };
}
