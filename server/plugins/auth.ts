// Resolves the X-Access-Token header to a session. Routes that need a user call
// `requireSession(request)`; there is no other way to learn who is calling.
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../lib/errors.ts';
import { resolveSession, type ActiveSession } from '../domain/kernel/sessions.ts';
import type { Services } from '../domain/kernel/services.ts';

export async function requireSession(services: Services, request: FastifyRequest): Promise<ActiveSession> {
  const header = request.headers['x-access-token'];
  const token = Array.isArray(header) ? header[0] : header;
  if (!token) throw unauthorized('Please log in.');
  const session = await resolveSession(services.db, services.clock, services.limits, token, request.ip);
  if (!session) throw unauthorized('Your session has ended. Please log in again.');
  return session;
}
