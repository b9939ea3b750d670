// The realtime socket at /api/ws as a Fastify route: the caps are checked on the upgrade request,
// before the handshake, and the accepted socket is handed to the hub (hub.ts), which composes the
// connections and their limits, the market fan-out, the user channel and the operators' channel.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { realtimePath } from '../../../src/api/contract/market.ts';
import type { MarketView } from '../../domain/core/market/view.ts';
import { failure } from '../../lib/envelope.ts';
import type { Clock } from '../../lib/time.ts';
import type { ConnectionSlot } from './connections.ts';
import { RealtimeHub, type RealtimeUsers } from './hub.ts';
import type { RealtimeSettings } from './settings.ts';

export interface RealtimeOptions {
  view: MarketView;
  clock: Clock;
  settings: RealtimeSettings;
  /** The user channel and the operators' channel: how tokens become users and operators, and where their events come from. */
  users?: RealtimeUsers;
}

/**
 * Adds the socket route under the app's prefix. @fastify/websocket must already be registered on
 * the root app (before any route, so it can refuse upgrades to the other routes). The caps are
 * checked on the upgrade request, before the handshake, and refused with an HTTP answer in the
 * envelope (429 for the address, 503 for the server); the slot is released when the TCP socket
 * closes, whether or not the upgrade went through.
 */
export function registerRealtime(app: FastifyInstance, options: RealtimeOptions): RealtimeHub {
  const hub = new RealtimeHub(options.view, options.clock, options.settings, app.log, undefined, options.users);
  const slots = new WeakMap<IncomingMessage, ConnectionSlot>();
  app.addHook('onClose', async () => hub.close());
  const admitSocket = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.ws) return;
    const admission = hub.admit(request.ip);
    if (admission === 'address_full') {
      return reply.code(429).header('retry-after', '10')
        .send(failure(429, 'Too many connections from this address.', { error: 'too_many_connections' }));
    }
    if (admission === 'server_full') {
      return reply.code(503).header('retry-after', '10')
        .send(failure(503, 'The server holds all the connections it can. Try again later.', { error: 'server_busy' }));
    }
    // The socket may have gone while earlier hooks waited; then 'close' may be past, and the
    // upgrade will not happen (ws drops a socket that is no longer writable). Without a TCP
    // socket (injectWS) the slot is released when the WebSocket closes.
    const raw = request.raw.socket as Socket | undefined;
    if (raw?.destroyed) {
      admission.release();
      return;
    }
    raw?.once('close', admission.release);
    slots.set(request.raw, admission);
  };
  app.get(realtimePath, { websocket: true, onRequest: admitSocket }, (socket, request) => {
    const slot = slots.get(request.raw);
    if (!slot) {
      socket.close(1011, 'No connection slot.');
      return;
    }
    hub.accept(socket, slot);
  });
  return hub;
}
