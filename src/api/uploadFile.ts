// An upload with progress: POST /api/sys/common/upload as multipart (`file` and `purpose`), the
// user's token in X-Access-Token. XMLHttpRequest rather than the api's fetch, because only XHR
// reports how much of the body has gone (fetch has no upload progress in browsers today). The
// body is not encrypted: the spec sends uploads as they are (server/routes/sys.ts). A refusal
// rejects with the same ApiError shape as every other call, so components/form places it.
import { apiPrefix } from './contract/paths.ts';
import { walletPaths, type UploadPurpose, type UploadResult } from './contract/wallet.ts';
import type { ApiError } from './baseQuery.ts';
import { successCodes } from './baseQuery.ts';
import { genericErrorText, networkErrorText, translateError } from './errorMessages.ts';

/** A photo on a slow mobile uplink takes a while: longer than a JSON call's 60 s. */
export const uploadTimeoutMs = 180_000;

export interface UploadOptions {
  file: Blob;
  fileName: string;
  purpose: UploadPurpose;
  token: string;
  /** Share of the body sent, 0..1, as it goes. */
  onProgress?(fraction: number): void;
  signal?: AbortSignal;
}

/** The refusal an upload answers, as the api's baseQuery would shape it. */
export function uploadFailure(status: number, text: string): ApiError {
  let envelope: { code?: unknown; message?: unknown; result?: { error?: unknown; retryAfterSeconds?: unknown } } | undefined;
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    envelope = undefined;
  }
  if (!envelope || typeof envelope.code !== 'number') {
    // A proxy's own page (413 from nginx, 502): no envelope, so no code to translate.
    if (status === 413) return { kind: 'api', code: 413, error: 'file_too_large', message: translateError('file_too_large') ?? genericErrorText() };
    return { kind: 'network', status, message: status === 0 ? networkErrorText() : genericErrorText() };
  }
  if (envelope.code === 401) return { kind: 'api', code: 401, error: 'unauthorized', message: translateError('unauthorized') ?? genericErrorText() };
  const error = typeof envelope.result?.error === 'string' ? envelope.result.error : undefined;
  const retryAfterSeconds = typeof envelope.result?.retryAfterSeconds === 'number' ? envelope.result.retryAfterSeconds : undefined;
  const message = translateError(error) ?? (typeof envelope.message === 'string' && envelope.message ? envelope.message : genericErrorText());
  return { kind: 'api', code: envelope.code, error, message, retryAfterSeconds };
}

/** Uploads `file` and resolves with the stored file's id and address; rejects with an ApiError, or an AbortError. */
export function uploadFile({ file, fileName, purpose, token, onProgress, signal }: UploadOptions): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const request = new XMLHttpRequest();
    const abort = () => request.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const done = () => signal?.removeEventListener('abort', abort);
    request.open('POST', `${apiPrefix}${walletPaths.upload}`);
    request.timeout = uploadTimeoutMs;
    if (token) request.setRequestHeader('X-Access-Token', token);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    });
    request.addEventListener('load', () => {
      done();
      try {
        const envelope = JSON.parse(request.responseText) as { code: number; result: UploadResult };
        if ((successCodes as readonly number[]).includes(envelope.code) && envelope.result?.id) {
          onProgress?.(1);
          resolve(envelope.result);
          return;
        }
      } catch {
        // Not an envelope: uploadFailure says what it was.
      }
      reject(uploadFailure(request.status, request.responseText));
    });
    const failed = () => {
      done();
      reject({ kind: 'network', message: networkErrorText() } satisfies ApiError);
    };
    request.addEventListener('error', failed);
    request.addEventListener('timeout', failed);
    request.addEventListener('abort', () => {
      done();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    });
    const body = new FormData();
    body.append('purpose', purpose);
    body.append('file', file, fileName);
    request.send(body);
  });
}
