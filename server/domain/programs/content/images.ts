// Images operators put in content (covers and inline pictures), issue 21. They go through the
// same pipeline as users' uploads (domain/kernel/uploads.ts): the type read from the bytes, the pixel
// count checked before decoding, decoded and encoded afresh without metadata, stored under a
// random name in the same storage. Only images (no PDF). They are public: served by id to anyone,
// immutable, with headers that keep the browser from reading them as anything but an image.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ContentImageResult } from '../../../../src/api/contract/content.ts';
import type { Executor } from '../../../db/client.ts';
import { contentImages } from '../../../db/schema.ts';
import { AppError, notFound } from '../../../lib/errors.ts';
import { fileMissing, prepareUpload, sniffType, type UploadStorage } from '../../kernel/uploads.ts';
import { contentImagePath } from './sanitize.ts';

const extensions = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' } as const;
const contentTypes = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;

/** Checks, re-encodes and stores an operator's image; answers its id and public URL. */
export async function saveContentImage(db: Executor, storage: UploadStorage, operatorId: bigint, bytes: Buffer, now: Date): Promise<ContentImageResult> {
  if (bytes.length === 0) throw fileMissing();
  const kind = sniffType(bytes);
  if (kind === 'pdf') throw new AppError(400, 'file_type_unsupported', 'Please upload a JPEG, PNG or WebP image.');
  const prepared = await prepareUpload(bytes);
  if (prepared.kind === 'pdf') throw new AppError(400, 'file_type_unsupported', 'Please upload a JPEG, PNG or WebP image.');
  const contentType = contentTypes[prepared.kind];
  const id = randomBytes(16).toString('hex');
  const storedName = `${randomBytes(24).toString('hex')}.${extensions[contentType]}`;
  await storage.put(storedName, prepared.bytes);
  await db.insert(contentImages).values({
    id, operatorId, contentType, storedName, sizeBytes: prepared.bytes.length, width: prepared.width, height: prepared.height, createdAt: now,
  });
  return {
    id, url: contentImagePath(id), contentType, size: prepared.bytes.length,
    ...(prepared.width ? { width: prepared.width } : {}), ...(prepared.height ? { height: prepared.height } : {}),
  };
}

const imageNotFound = () => notFound('file_not_found', 'No such image.');

/** The bytes and headers of a content image by id (public, cacheable for good: an id never changes its bytes). */
export async function contentImageAnswer(db: Executor, storage: UploadStorage, id: string) {
  const [row] = /^[0-9a-f]{32}$/.test(id) ? await db.select().from(contentImages).where(eq(contentImages.id, id)).limit(1) : [];
  if (!row) throw imageNotFound();
  const bytes = await storage.get(row.storedName);
  if (!bytes) throw imageNotFound();
  return {
    bytes,
    headers: {
      'content-type': row.contentType,
      'content-disposition': `inline; filename="content-${row.id}.${row.storedName.split('.')[1]}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=31536000, immutable',
      'cross-origin-resource-policy': 'same-origin',
      'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
    },
  };
}
