// The signature of a loan application, checked before the application's transaction (issue 38):
// the caller's own upload of purpose loan_signature; its sides read from the image's header and
// bounded (contract/loans.ts signatureSidesMaxPx) before anything is decoded; then decoded in one
// of the instance's decode slots (uploads.ts) and refused unless it holds ink over a real area.
// Nothing here locks a row or holds a database connection while it decodes, so a costly image
// costs its own request only, never another client's reads.
import sharp from 'sharp';
import { signatureSidesMaxPx } from '../../../../src/api/contract/loans.ts';
import type { Executor } from '../../../db/client.ts';
import { assert, badRequest } from '../../../lib/errors.ts';
import { decodeSlots, ownUpload, signatureTooLarge, withinSides, type UploadStorage } from '../../kernel/uploads.ts';

/** A pixel is ink when its grey level is this far from the background's: JPEG noise is not. */
export const inkContrastMin = 64;
/** At least this many ink pixels: a stroke of the pad's 2.5 px pen about 20 px long at a pixel ratio of 1. */
export const inkPixelsMin = 50;
/**
 * The ink's bounding box, at least (either way up). A name signed small on a phone at a pixel ratio
 * of 1 spans more; a dot, a tap or a 2 × 1 image does not. A ratio of 2 or 3 only makes it larger.
 */
export const inkBoxMinPx = { long: 40, short: 10 } as const;

export interface InkMeasure { pixels: number; boxWidth: number; boxHeight: number }

/**
 * The ink of a greyscale image (one byte a pixel, row by row): the pixels far from the commonest
 * level (the paper, whether white or not), and the box around them.
 */
export function measureInk(grey: Uint8Array, width: number, height: number): InkMeasure {
  assert(width > 0 && height > 0 && grey.length === width * height, `a ${width} × ${height} grey image`);
  const histogram = new Uint32Array(256);
  for (const level of grey) histogram[level] += 1;
  let background = 0;
  for (let level = 1; level < 256; level += 1) if (histogram[level] > histogram[background]) background = level;
  let pixels = 0;
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    for (let x = 0; x < width; x += 1) {
      if (Math.abs(grey[row + x] - background) < inkContrastMin) continue;
      pixels += 1;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  return { pixels, boxWidth: right < 0 ? 0 : right - left + 1, boxHeight: bottom < 0 ? 0 : bottom - top + 1 };
}

/** Whether the ink covers a real area: enough pixels, and a box no smaller than inkBoxMinPx. */
export const inkedEnough = (ink: InkMeasure) => ink.pixels >= inkPixelsMin
  && Math.max(ink.boxWidth, ink.boxHeight) >= inkBoxMinPx.long && Math.min(ink.boxWidth, ink.boxHeight) >= inkBoxMinPx.short;

const invalid = (why: string) => badRequest('signature_invalid', why);

/** The sides the image's header declares (nothing decoded), or undefined when it cannot be read. */
async function headerSides(bytes: Buffer): Promise<{ width: number; height: number } | undefined> {
  try {
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    return metadata.width && metadata.height && (metadata.pages ?? 1) === 1 ? { width: metadata.width, height: metadata.height } : undefined;
  } catch {
    return undefined;
  }
}

/** The image flattened on white and turned grey, decoded within the pixel bound; undefined when it does not decode. */
async function greyPixels(bytes: Buffer) {
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: signatureSidesMaxPx.long * signatureSidesMaxPx.short, failOn: 'error' })
      .flatten({ background: '#ffffff' }).greyscale().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    return { grey: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch {
    return undefined;
  }
}

/**
 * Checks the signature an application names, in this order: the caller's own upload of purpose
 * loan_signature, an image (signature_invalid); its sides within the bound (signature_too_large);
 * ink over a real area (signature_empty). Call it before the application's transaction.
 */
export async function checkSignature(db: Executor, storage: UploadStorage, userId: bigint, fileId: string): Promise<void> {
  const upload = await ownUpload(db, userId, fileId).catch(() => undefined);
  if (!upload) throw invalid('The signature file was not found among your uploads.');
  if (upload.purpose !== 'loan_signature' || !upload.contentType.startsWith('image/')) {
    throw invalid('The signature must be an image uploaded as a loan signature.');
  }
  const bytes = await storage.get(upload.storedName);
  if (!bytes) throw invalid('The signature file was not found among your uploads.');
  // Uploads made before the bound existed may be up to 40 megapixels: the header says so for nothing.
  const sides = await headerSides(bytes);
  if (!sides) throw invalid('The signature image could not be read.');
  if (!withinSides(sides.width, sides.height, signatureSidesMaxPx)) throw signatureTooLarge();
  // A decode slot may be refused (too many images waiting): that 429 goes to the caller as it is.
  const decoded = await decodeSlots.run(() => greyPixels(bytes));
  if (!decoded) throw invalid('The signature image could not be read.');
  if (!inkedEnough(measureInk(decoded.grey, decoded.width, decoded.height))) {
    throw badRequest('signature_empty', 'Please sign: the signature has no drawn line over a real area.');
  }
}
