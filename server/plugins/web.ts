// How the web is served: the built PWA from disk with the pre-compressed siblings the build wrote
// (`name.br`, `name.gz`, scripts/precompress.ts) chosen by the client's Accept-Encoding, and API
// answers compressed on the fly when they are large enough to gain from it (DESIGN §5).
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyCompress from '@fastify/compress';

/** Files the build pre-compresses, so their answers differ by Accept-Encoding. */
const precompressedFile = /\.(?:m?js|css|html|svg|webmanifest|json|txt|map)(?:\.br|\.gz)?$/;

/** Serves the built PWA under / (register after the API routes). */
export async function serveWeb(app: FastifyInstance, webRoot: string) {
  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: true,
    cacheControl: false,
    preCompressed: true,
    // The build's own bookkeeping (dist/.vite/manifest.json) is not part of the site.
    allowedPath: (pathName) => !pathName.startsWith('/.vite/'),
    setHeaders(res, filePath) {
      // Hashed build output never changes; the entry pages and the worker must always revalidate.
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      } else {
        res.setHeader('cache-control', 'no-cache');
      }
      if (precompressedFile.test(filePath)) res.setHeader('vary', 'accept-encoding');
    },
  });
}

/** JSON and text answers of 1 kB or more, compressed for clients that accept it (register before the routes). */
export const compressionThresholdBytes = 1024;

/**
 * Compresses answers of the routes registered after it: brotli at a quality cheap enough to run on
 * every answer, or gzip. Only JSON and text; already encoded answers (the pre-compressed assets),
 * small ones and the realtime socket (its upgrade never reaches onSend) pass as they are.
 * Request bodies are not decompressed: encrypted POST bodies arrive exactly as sent.
 */
export async function compressAnswers(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: compressionThresholdBytes,
    encodings: ['br', 'gzip'],
    customTypes: /^(?:application\/(?:[\w.+-]+\+)?json|text\/(?!event-stream))/,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
