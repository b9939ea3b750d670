// Files users upload (deposit proofs and identity documents). The type is read from the
// file's first bytes, never from its name or the browser's word; images are decoded and encoded
// afresh, which drops every metadata block (EXIF with the phone's GPS position, XMP, comments) and
// anything hidden after the image; each file gets a random id and a random stored name. The bytes
// live behind UploadStorage: the local disk now, object storage later behind the same interface.
// Identity documents (purpose 'identity') are images only and are sealed (AES-GCM, lib/secretBox)
// before they reach the storage: the stored file is never the plain image. Decoding is the costly
// part (a 6 KB PNG can declare tens of megapixels), so the pixel count is read from the header and
// checked first, and at most two images are decoded at once per instance, with a bounded queue.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { uploadUrl, type UploadPurpose, type UploadResult } from '../../../src/api/contract/wallet.ts';
import { signatureSidesMaxPx } from '../../../src/api/contract/loans.ts';
import type { Executor } from '../../db/client.ts';
import { uploads } from '../../db/schema.ts';
import { AppError, notFound, rateLimited } from '../../lib/errors.ts';
import { openBytes, sealBytes } from '../../lib/secretBox.ts';

/** Where upload bytes are kept. Names are the random names this module makes, never user text. */
export interface UploadStorage {
  put(name: string, bytes: Buffer): Promise<void>;
  /** The bytes, or undefined when nothing is stored under the name. */
  get(name: string): Promise<Buffer | undefined>;
}

const storedNamePattern = /^[0-9a-f]{48}\.(jpg|png|webp|pdf)(\.sealed)?$/;

/** The secret box purpose identity files are sealed under. */
export const identitySealPurpose = 'identity-upload';

/** Files under `dir` (DATA_DIR/uploads), written aside and renamed so a reader never sees half a file. */
export function localDiskStorage(dir: string): UploadStorage {
  const fileOf = (name: string) => {
    if (!storedNamePattern.test(name)) throw new Error(`not a stored upload name: ${name}`);
    return path.join(dir, name);
  };
  return {
    async put(name, bytes) {
      const file = fileOf(name);
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
      await fs.writeFile(partial, bytes, { mode: 0o600, flag: 'wx' });
      await fs.rename(partial, file);
    },
    async get(name) {
      try {
        return await fs.readFile(fileOf(name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
  };
}

/**
 * Size and pixel ceilings: a phone photo is a few MB and 12 to 40 megapixels (the 48 and 50
 * megapixel sensors save 12 by default). Every pixel costs decoding time, so nothing larger is taken.
 */
export const uploadBytesMax = 8 * 1024 * 1024;
export const uploadPixelsMax = 40_000_000;

/** An image's long and short side, at most: either way up, since a photo's orientation tag may turn it. */
export interface SidesMax { long: number; short: number }

export const withinSides = (width: number, height: number, sides: SidesMax) =>
  Math.max(width, height) <= sides.long && Math.min(width, height) <= sides.short;

export const signatureTooLarge = () => new AppError(400, 'signature_too_large',
  `A signature image may be at most ${signatureSidesMaxPx.long} × ${signatureSidesMaxPx.short} pixels. Please sign on the app's pad.`,
  { sidesMaxPx: signatureSidesMaxPx });

/** A purpose's tighter bound on the sides, and the refusal past it. */
export interface SidesBound { sides: SidesMax; refusal: () => AppError }

/**
 * Tighter bounds for some purposes, checked from the header with the pixel count: a loan signature
 * is a drawing from the app's pad (contract/loans.ts signatureSidesMaxPx), never a 35-megapixel
 * photo that each application would have to decode again (issue 38).
 */
const sidesBoundByPurpose: Partial<Record<UploadPurpose, SidesBound>> = {
  loan_signature: { sides: signatureSidesMaxPx, refusal: signatureTooLarge },
};

/** How many images one instance decodes and re-encodes at once, and how many may wait for a turn. */
export const decodesAtOnceMax = 2;
export const decodesWaitingMax = 20;

/**
 * A counting semaphore with a bounded queue. A released slot passes straight to the first waiter,
 * so a waiter is never overtaken; past `waitingMax` waiters a new one is refused at once (the
 * caller tries again later) instead of queueing without end while each waits longer.
 */
export class DecodeSlots {
  running = 0;
  /** The most slots ever held at once since the last resetPeak (for tests). */
  runningPeak = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly slotsMax: number, readonly waitingMax: number) {}

  get waiting(): number { return this.waiters.length; }

  resetPeak(): void { this.runningPeak = this.running; }

  async acquire(): Promise<void> {
    if (this.running < this.slotsMax) {
      this.running += 1;
      this.runningPeak = Math.max(this.runningPeak, this.running);
      return;
    }
    if (this.waiters.length >= this.waitingMax) {
      throw rateLimited(1, 'Many images are being read right now. Please try again in a moment.');
    }
    await new Promise<void>((resolve) => { this.waiters.push(resolve); });
  }

  release(): void {
    if (this.running <= 0) throw new Error('assertion failed: a decode slot released that was not held');
    const next = this.waiters.shift();
    if (next) next(); else this.running -= 1;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}

/** This instance's decode slots. Exported so tests can hold slots and read the counters. */
export const decodeSlots = new DecodeSlots(decodesAtOnceMax, decodesWaitingMax);

type FileKind = 'jpeg' | 'png' | 'webp' | 'pdf';
const contentTypes: Record<FileKind, string> = {
  jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', pdf: 'application/pdf',
};
const extensions: Record<FileKind, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', pdf: 'pdf' };

/** The file's type by its magic bytes, or undefined for anything else. */
export function sniffType(bytes: Buffer): FileKind | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (bytes.length >= 5 && bytes.toString('latin1', 0, 5) === '%PDF-') return 'pdf';
  return undefined;
}

const refuse = (code: 'file_missing' | 'file_type_unsupported' | 'file_too_large' | 'file_too_many_pixels', message: string) =>
  new AppError(code === 'file_too_large' ? 413 : 400, code, message, code === 'file_too_large' ? { bytesMax: uploadBytesMax } : {});

export const fileTooLarge = () => refuse('file_too_large', `The file is larger than ${uploadBytesMax / (1024 * 1024)} MB.`);
export const fileMissing = () => refuse('file_missing', 'Please attach a file.');

interface Prepared { kind: FileKind; bytes: Buffer; width: number | null; height: number | null }

/**
 * Checks a file and gives the bytes to keep: an image re-encoded without metadata (turned upright
 * first, since its orientation tag goes with the rest), a PDF as sent. Refuses what is not a
 * JPEG, PNG, WebP or PDF, an image that does not decode, and one with too many pixels or sides past
 * its purpose's bound (by its header, before any decoding and without waiting for a decode slot).
 */
export async function prepareUpload(bytes: Buffer, sidesBound?: SidesBound): Promise<Prepared> {
  if (bytes.length === 0) throw fileMissing();
  if (bytes.length > uploadBytesMax) throw fileTooLarge();
  const kind = sniffType(bytes);
  if (!kind) throw refuse('file_type_unsupported', 'Please upload a JPEG, PNG or WebP photo, or a PDF.');
  if (kind === 'pdf') {
    if (!bytes.subarray(-1024).toString('latin1').includes('%%EOF')) {
      throw refuse('file_type_unsupported', 'The PDF is incomplete or damaged.');
    }
    return { kind, bytes, width: null, height: null };
  }
  let metadata: sharp.Metadata;
  try {
    // The header alone: the pixel count is checked before anything is decoded.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refuse('file_type_unsupported', 'The image could not be read.');
  }
  const expected = kind === 'jpeg' ? 'jpeg' : kind;
  if (metadata.format !== expected || !metadata.width || !metadata.height) {
    throw refuse('file_type_unsupported', 'The image could not be read.');
  }
  if (metadata.width * metadata.height * (metadata.pages ?? 1) > uploadPixelsMax) {
    throw refuse('file_too_many_pixels', `The image has more than ${uploadPixelsMax / 1_000_000} megapixels.`);
  }
  if (sidesBound && !withinSides(metadata.width, metadata.height, sidesBound.sides)) throw sidesBound.refusal();
  return decodeSlots.run(() => reencode(bytes, kind));
}

/** Decodes and encodes the image afresh; called only within a decode slot. */
async function reencode(bytes: Buffer, kind: 'jpeg' | 'png' | 'webp'): Promise<Prepared> {
  try {
    // Animated images keep their first frame only (a proof is a still picture).
    const image = sharp(bytes, { limitInputPixels: uploadPixelsMax, failOn: 'error' }).rotate();
    const encoded = kind === 'jpeg' ? image.jpeg({ quality: 88, mozjpeg: true })
      : kind === 'png' ? image.png({ compressionLevel: 8 }) : image.webp({ quality: 88 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { kind, bytes: data, width: info.width, height: info.height };
  } catch {
    throw refuse('file_type_unsupported', 'The image could not be read.');
  }
}

export type UploadRow = typeof uploads.$inferSelect;

/** Checks, cleans and stores a user's file; answers its id and the URL its owner reads it at. */
export async function saveUpload(db: Executor, storage: UploadStorage, userId: bigint, purpose: UploadPurpose,
  bytes: Buffer, now: Date, pepper?: Buffer): Promise<UploadResult> {
  if (purpose === 'identity' && bytes.length > 0 && sniffType(bytes) === 'pdf') {
    throw refuse('file_type_unsupported', 'Please upload a JPEG, PNG or WebP photo of the document.');
  }
  // A chat attachment is a photo shown in the conversation (issue 21): never a document.
  if (purpose === 'chat' && bytes.length > 0 && sniffType(bytes) === 'pdf') {
    throw refuse('file_type_unsupported', 'Please send a JPEG, PNG or WebP photo.');
  }
  const prepared = await prepareUpload(bytes, sidesBoundByPurpose[purpose]);
  const id = randomBytes(16).toString('hex');
  const sealed = purpose === 'identity';
  if (sealed && !pepper) throw new Error('identity uploads are sealed: pass the pepper');
  const storedName = `${randomBytes(24).toString('hex')}.${extensions[prepared.kind]}${sealed ? '.sealed' : ''}`;
  await storage.put(storedName, sealed ? sealBytes(pepper!, identitySealPurpose, prepared.bytes) : prepared.bytes);
  await db.insert(uploads).values({
    id, ownerUserId: userId, purpose, contentType: contentTypes[prepared.kind], storedName,
    sizeBytes: prepared.bytes.length, width: prepared.width, height: prepared.height, createdAt: now,
  });
  return { id, url: uploadUrl(id), contentType: contentTypes[prepared.kind], size: prepared.bytes.length };
}

const uploadNotFound = () => notFound('file_not_found', 'No such file.');

/**
 * The user's own upload by id. Another user's file answers exactly as a missing one, so an id
 * tells nobody whether it exists.
 */
export async function ownUpload(db: Executor, userId: bigint, id: string): Promise<UploadRow> {
  const [row] = /^[0-9a-f]{32}$/.test(id)
    ? await db.select().from(uploads).where(and(eq(uploads.id, id), eq(uploads.ownerUserId, userId))).limit(1)
    : [];
  if (!row) throw uploadNotFound();
  return row;
}

/** Any user's upload of `purpose` by id, for operators (identity files only through the audited KYC route). */
export async function anyUpload(db: Executor, id: string, purpose: UploadPurpose): Promise<UploadRow> {
  const [row] = /^[0-9a-f]{32}$/.test(id)
    ? await db.select().from(uploads).where(and(eq(uploads.id, id), eq(uploads.purpose, purpose))).limit(1) : [];
  if (!row) throw uploadNotFound();
  return row;
}

/** The bytes and headers an upload is served with: never sniffed into another type, never inline script. */
export async function uploadAnswer(storage: UploadStorage, row: UploadRow, pepper?: Buffer) {
  const stored = await storage.get(row.storedName);
  if (!stored) throw uploadNotFound();
  const sealed = row.storedName.endsWith('.sealed');
  if (sealed && !pepper) throw new Error('a sealed upload needs the pepper to open');
  const bytes = sealed ? openBytes(pepper!, identitySealPurpose, stored) : stored;
  const extension = row.storedName.split('.')[1];
  // Images show in place; a PDF downloads (a browser's PDF viewer runs its own scripts).
  const disposition = row.contentType === 'application/pdf' ? 'attachment' : 'inline';
  return {
    bytes,
    headers: {
      'content-type': row.contentType,
      'content-disposition': `${disposition}; filename="${row.purpose}-${row.id}.${extension}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
      'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
    },
  };
}
