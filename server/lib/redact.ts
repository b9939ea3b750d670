// What the logs may say about a request: its path without the query string (which carries e-mail
// addresses and phone numbers), and error texts with query parameters, e-mail addresses and long
// digit runs masked. Used by the logger's serializers and the error handler.
import type { FastifyRequest } from 'fastify';

export const pathOnly = (url: string) => url.split('?')[0].slice(0, 200);

export function redactText(text: string): string {
  return text
    // Drizzle's "Failed query: …\nparams: …" names the values bound to the statement.
    .replace(/params:[\s\S]*$/m, 'params: [redacted]')
    .replace(/[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+/g, '[email]')
    .replace(/\+?\d{6,}/g, '[digits]');
}

export const logSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: pathOnly(request.url), remoteAddress: request.ip };
  },
  err(error: Error & { code?: string; statusCode?: number }) {
    return {
      type: error.name,
      code: error.code,
      statusCode: error.statusCode,
      message: redactText(String(error.message)),
      stack: redactText(error.stack ?? ''),
    };
  },
};
