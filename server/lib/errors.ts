// User errors are values of AppError: an HTTP status below 500, a stable code from the contract
// and a clear English message. Anything else that is thrown is a programmer error and becomes 500.
import type { ErrorCode } from '../../src/api/contract/common.ts';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorCode: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (code: ErrorCode, message: string) => new AppError(400, code, message);
export const unauthorized = (message = 'Please log in again.') => new AppError(401, 'unauthorized', message);
export const conflict = (code: ErrorCode, message: string) => new AppError(409, code, message);
export const notFound = (code: ErrorCode, message: string) => new AppError(404, code, message);
export const rateLimited = (retryAfterSeconds: number, message = 'Too many requests, please try again later.') =>
  new AppError(429, 'rate_limited', message, { retryAfterSeconds });

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`assertion failed: ${message}`);
}
