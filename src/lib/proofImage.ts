// A proof photo made small in the browser before it is uploaded: a phone photo is 3-12 MB and
// 12-50 megapixels, of which an operator reading a transfer receipt needs a screen's worth. The
// picture is decoded (turned upright by its orientation tag), scaled so its longest side is at most
// 1600 px and encoded as JPEG at quality 0.85 — a few hundred kB, uploaded in seconds on a mobile
// network. A picture that already fits and is small is sent as it is. Whatever is sent, the server
// checks it again by its bytes and re-encodes it (server/domain/kernel/uploads.ts).
//
// The decision and the sizes are a pure function (planProofImage), tested on its own; the
// decoding and drawing below it need a browser's canvas.

/** The longest side, in pixels, of the picture that is uploaded. */
export const proofLongestSideMax = 1600;
/** JPEG quality of a re-encoded picture: receipts stay legible, noise does not cost bytes. */
export const proofJpegQuality = 0.85;
/** A picture that fits and weighs at most this is uploaded unchanged. */
export const proofSmallBytes = 400 * 1024;
/** Types the server keeps as images: others are re-encoded (or, if they do not decode, sent for the server to refuse). */
const keptTypes = ['image/jpeg', 'image/png', 'image/webp'];

export interface ImageFacts { width: number; height: number; bytes: number; type: string }
export type ProofPlan = { action: 'keep' } | { action: 'reencode'; width: number; height: number };

/**
 * The largest size within `longest` × `longest` with the picture's own proportions (never larger
 * than the picture, never below 1 px a side).
 */
export function fitWithin(width: number, height: number, longest = proofLongestSideMax): { width: number; height: number } {
  if (!(width > 0 && height > 0)) throw new Error(`not a picture size: ${width}×${height}`);
  const ratio = Math.min(1, longest / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * ratio)), height: Math.max(1, Math.round(height * ratio)) };
}

/** What to do with a decoded picture: send it as it is, or draw it at a size and encode it as JPEG. */
export function planProofImage(image: ImageFacts): ProofPlan {
  const target = fitWithin(image.width, image.height);
  const fits = target.width === image.width && target.height === image.height;
  if (fits && image.bytes <= proofSmallBytes && keptTypes.includes(image.type)) return { action: 'keep' };
  return { action: 'reencode', ...target };
}

/** "IMG_2041.HEIC" → "IMG_2041.jpg". */
export const jpegName = (name: string) => `${name.replace(/\.[^./\\]*$/, '') || 'proof'}.jpg`;

async function encodeJpeg(bitmap: ImageBitmap, width: number, height: number): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  // JPEG has no transparency: a transparent screenshot would otherwise turn black.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', proofJpegQuality));
  canvas.width = 0;
  canvas.height = 0;
  if (!blob) throw new Error('the picture could not be encoded');
  return blob;
}

/**
 * The file to upload for `file`: made smaller when it is large, else the file itself. A file the
 * browser cannot decode (a PDF, a HEIC photo in a browser without HEIC) is returned unchanged, so
 * the server's refusal ("Please choose a JPEG, PNG or WebP image") is what the user reads.
 */
export async function prepareProofImage(file: File): Promise<File> {
  if (typeof createImageBitmap !== 'function') return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  try {
    const plan = planProofImage({ width: bitmap.width, height: bitmap.height, bytes: file.size, type: file.type });
    if (plan.action === 'keep') return file;
    const blob = await encodeJpeg(bitmap, plan.width, plan.height);
    // A small picture in an odd format can grow as JPEG; keep the smaller one the server takes.
    if (blob.size >= file.size && keptTypes.includes(file.type) && plan.width === bitmap.width) return file;
    return new File([blob], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
  } catch {
    return file;
  } finally {
    bitmap.close();
  }
}
