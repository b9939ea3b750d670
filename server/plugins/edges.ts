// Answers at the edges of HTTP, where Node or Fastify would otherwise answer by themselves, with an
// empty body or none: requests Node's parser refuses (431, 408, 400), errors before routing,
// CONNECT, an unsupported Expect, HTTP/1.1 without Host, an upgrade to a path without a socket.
// Every one of them gets the envelope, so a client has one shape of answer to read. HSTS is sent
// only where it means something (HTTPS).
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import { apiPrefix } from '../../src/api/contract/paths.ts';
import { realtimePath } from '../../src/api/contract/market.ts';
import { failure } from '../lib/envelope.ts';
import { pathOnly } from '../lib/redact.ts';

const reasons: Record<number, string> = {
  400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 431: 'Request Header Fields Too Large',
};

/** Writes a whole envelope answer straight to a socket that Fastify never got, and closes it. */
function endWithEnvelope(socket: Duplex, status: number, message: string) {
  const body = JSON.stringify(failure(status, message, { error: 'invalid_request' }));
  socket.end(`HTTP/1.1 ${status} ${reasons[status]}\r\ncontent-type: application/json; charset=utf-8\r\n`
    + `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/** Fastify options: errors met before routing, and requests Node's HTTP parser refuses. */
export const edgeServerOptions: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> = {
  frameworkErrors: (error, _request, reply) => {
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
    void (reply as unknown as FastifyReply).status(status).send(failure(status, 'Invalid request.', { error: 'invalid_request' }));
  },
  clientErrorHandler: (error: Error & { code?: string }, socket) => {
    if (!socket.writable) return void socket.destroy();
    if (error.code === 'HPE_HEADER_OVERFLOW') return endWithEnvelope(socket, 431, 'Request headers too large.');
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return endWithEnvelope(socket, 408, 'Request timed out.');
    return endWithEnvelope(socket, 400, 'Invalid request.');
  },
};

/** Hooks and server listeners for the other edges; register before the routes. */
export function installEdgeAnswers(app: FastifyInstance) {
  // CONNECT (a proxy tunnel) is dropped without a word when nobody listens for it.
  app.server.on('connect', (_request, socket: Duplex) => endWithEnvelope(socket, 405, 'Method not allowed.'));
  // Node's own answer to an Expect other than 100-continue is an empty 417.
  app.server.on('checkExpectation', (_request, response) => {
    response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', connection: 'close' })
      .end(JSON.stringify(failure(417, 'Expectation not supported.', { error: 'invalid_request' })));
  });
  app.addHook('onRequest', async (request, reply) => {
    // HTTP/1.1 requires Host (RFC 9112 §3.2); Node's own refusal is off (httpServerOptions).
    if (request.raw.httpVersion === '1.1' && !request.headers.host) {
      return reply.status(400).send(failure(400, 'The Host header is missing.', { error: 'invalid_request' }));
    }
    // An upgrade to any path but the realtime socket: a plain answer, not a socket opened to be closed.
    if (request.ws && pathOnly(request.url) !== `${apiPrefix}${realtimePath}`) {
      return reply.status(400).send(failure(400, 'This address does not accept a socket connection.', { error: 'invalid_request' }));
    }
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}
