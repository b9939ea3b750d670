// The pixels of a picked or captured photo for the checks (photoChecks.ts): decoded upright (its
// orientation tag applied) and drawn on a canvas no wider than the checks read, so a 12-megapixel
// photo costs a 640-pixel-wide canvas on the main thread (a few milliseconds), not a worker.
import { analysisWidth, checkPhoto, type PhotoCheck } from './photoChecks.ts';

/** The checks' verdict on `file`, or undefined when the browser cannot decode it (the server then refuses it by type). */
export async function checkPhotoFile(file: Blob): Promise<PhotoCheck | undefined> {
  if (typeof createImageBitmap !== 'function') return undefined;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return undefined;
  }
  try {
    const scale = Math.min(1, analysisWidth / bitmap.width);
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) return undefined;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, width, height);
    const pixels = context.getImageData(0, 0, width, height);
    canvas.width = 0;
    canvas.height = 0;
    return checkPhoto(pixels);
  } finally {
    bitmap.close();
  }
}
