// The identity photo checks (spec §5: a complete border, uniform brightness, clear focus), run in
// the browser on the photo before it is uploaded, so the user retakes a bad one at once rather
// than waiting for an operator to refuse it. Pure functions over RGBA pixels ({width, height,
// data}, as a canvas's ImageData), tested on images generated in test/web/photoChecks.test.ts;
// the page draws the photo on a canvas no wider than `analysisWidth` and calls checkPhoto.
//
// - Focus: the variance of the Laplacian of the grey image inside the document (a sharp photo has
//   strong, narrow edges; a blurred one has weak, wide ones).
// - Brightness: the mean luminance (too dark, too bright) and its evenness: the paper's level
//   (a high percentile, so text does not count) in each cell of a grid over the document — a
//   shadow or a glare over part of it makes them differ.
// - Border: the document is told from the background by Otsu's threshold, the class covering most
//   of the frame's outer ring being the background's (the camera view asks for a margin). Its four
//   edges must lie inside the frame: a side of the frame the document runs into is cut off; no
//   clear contrast between the document and its background means no border was found at all.
//
// The server checks the upload again by its bytes and type (server/domain/kernel/uploads.ts); these
// checks only spare the user a refusal, they are not a security boundary.

export interface Pixels { width: number; height: number; data: Uint8ClampedArray }
export type PhotoFailure = 'blurry' | 'dark' | 'bright' | 'uneven' | 'cut_off';

/** Pictures are analysed at most this wide (a larger one is averaged down first). */
export const analysisWidth = 640;
/** Below this variance of the Laplacian (grey levels², at analysisWidth) the photo is blurry. */
export const minSharpness = 80;
/** Mean luminance (0–255) below which the photo is too dark. */
export const minMeanLuminance = 60;
/** The document's paper level (its 90th percentile of luminance) below which it is too dark. */
export const minPaperLuminance = 95;
/** Mean luminance above which the photo is washed out. */
export const maxMeanLuminance = 225;
/** Share of burnt-out pixels (≥ 250) above which the photo is too bright. */
export const maxOverexposedShare = 0.35;
/** Darkest over brightest paper level among the cells of the document below which the light is uneven. */
export const minEvenness = 0.7;
/** How much of the grey variance the document/background split must explain for the border to count as found. */
export const minBorderContrast = 0.55;
/** A document edge closer than this share of the frame to the frame's side counts as touching it. */
export const edgeMargin = 0.015;
/** Share of a frame side's outer strip covered by the document above which that edge is cut off. */
export const maxSideCover = 0.08;
/**
 * The document must cover at least this share of the largest square inside the frame (its shorter
 * side squared) to count as found. Measured against the square, not the whole frame, so that a card
 * in an upright phone photo (9:16) counts as one in a landscape photo does.
 */
export const minDocumentArea = 0.2;
/**
 * A column or row is part of the document when its document pixels reach this share of the frame's
 * shorter side (a card held upright is about a quarter of a 9:16 photo's height, but 44% of its width).
 */
const profileShare = 0.3;
/** The grid over the document for the evenness of its light. */
const gridCells = 4;

export interface PhotoMeasures {
  /** Variance of the Laplacian inside the document (or the frame when none was found). */
  sharpness: number;
  /** Mean luminance of the frame, 0–255, and its standard deviation. */
  meanLuminance: number;
  luminanceSpread: number;
  /** The document's paper level, 0–255. */
  paperLuminance: number;
  overexposedShare: number;
  /** Darkest over brightest cell of the document's paper level (0–1). */
  evenness: number;
  /** Share of the grey variance explained by the document/background split (Otsu's η, 0–1). */
  borderContrast: number;
  /** The document as shares of the frame (0–1), when one was found. */
  document?: { left: number; top: number; right: number; bottom: number };
  /** Which edges lie inside the frame. */
  edges: { left: boolean; top: boolean; right: boolean; bottom: boolean };
}

export interface PhotoCheck { ok: boolean; failures: PhotoFailure[]; measures: PhotoMeasures }

/** The luminance (Rec. 601) of each pixel, averaged down to at most `maxWidth` wide. */
export function greyImage(image: Pixels, maxWidth = analysisWidth): { width: number; height: number; grey: Float32Array } {
  const { width, height, data } = image;
  if (!(width > 0 && height > 0) || data.length < width * height * 4) throw new Error(`not an RGBA picture: ${width}×${height}`);
  const scale = Math.min(1, maxWidth / width);
  const outWidth = Math.max(1, Math.round(width * scale));
  const outHeight = Math.max(1, Math.round(height * scale));
  const sum = new Float64Array(outWidth * outHeight);
  const count = new Float64Array(outWidth * outHeight);
  for (let y = 0; y < height; y += 1) {
    const row = Math.min(outHeight - 1, Math.floor(y * scale)) * outWidth;
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 4;
      const cell = row + Math.min(outWidth - 1, Math.floor(x * scale));
      sum[cell] += 0.299 * data[at] + 0.587 * data[at + 1] + 0.114 * data[at + 2];
      count[cell] += 1;
    }
  }
  const grey = new Float32Array(outWidth * outHeight);
  for (let i = 0; i < grey.length; i += 1) grey[i] = count[i] ? sum[i] / count[i] : 0;
  return { width: outWidth, height: outHeight, grey };
}

/** Variance of the 4-neighbour Laplacian over a rectangle of the grey image (its inner pixels). */
export function laplacianVariance(grey: Float32Array, width: number, box: Box): number {
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (let y = Math.max(1, box.top); y < box.bottom - 1; y += 1) {
    for (let x = Math.max(1, box.left); x < box.right - 1; x += 1) {
      const i = y * width + x;
      const value = grey[i - 1] + grey[i + 1] + grey[i - width] + grey[i + width] - 4 * grey[i];
      n += 1;
      sum += value;
      squares += value * value;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return squares / n - mean * mean;
}

/** Otsu's threshold of a histogram and the share of the variance it explains (η). */
export function otsu(histogram: Float64Array): { threshold: number; contrast: number } {
  let total = 0;
  let weighted = 0;
  for (let v = 0; v < 256; v += 1) {
    total += histogram[v];
    weighted += v * histogram[v];
  }
  if (total === 0) return { threshold: 128, contrast: 0 };
  const mean = weighted / total;
  let variance = 0;
  for (let v = 0; v < 256; v += 1) variance += histogram[v] * (v - mean) ** 2;
  variance /= total;
  let best = 0;
  let threshold = 128;
  let below = 0;
  let belowSum = 0;
  for (let v = 0; v < 255; v += 1) {
    below += histogram[v];
    belowSum += v * histogram[v];
    const above = total - below;
    if (below === 0 || above === 0) continue;
    const difference = belowSum / below - (weighted - belowSum) / above;
    const between = (below / total) * (above / total) * difference * difference;
    if (between > best) {
      best = between;
      threshold = v;
    }
  }
  return { threshold, contrast: variance > 0 ? best / variance : 0 };
}

interface Box { left: number; top: number; right: number; bottom: number }

/** The value below which `share` of the values lie (values 0–255). */
function percentile(histogram: Float64Array, share: number): number {
  let total = 0;
  for (let v = 0; v < 256; v += 1) total += histogram[v];
  let seen = 0;
  for (let v = 0; v < 256; v += 1) {
    seen += histogram[v];
    if (seen >= share * total) return v;
  }
  return 255;
}

function histogramOf(grey: Float32Array, width: number, box: Box): Float64Array {
  const histogram = new Float64Array(256);
  for (let y = box.top; y < box.bottom; y += 1) {
    for (let x = box.left; x < box.right; x += 1) histogram[Math.min(255, Math.max(0, Math.round(grey[y * width + x])))] += 1;
  }
  return histogram;
}

/** The first and last index where `profile` reaches `share`, or undefined. */
function span(profile: Float64Array, share: number): [number, number] | undefined {
  let first = -1;
  let last = -1;
  for (let i = 0; i < profile.length; i += 1) {
    if (profile[i] >= share) {
      if (first < 0) first = i;
      last = i;
    }
  }
  return first < 0 ? undefined : [first, last + 1];
}

/** Runs the three checks on a photo; `ok` when none failed. */
export function checkPhoto(image: Pixels): PhotoCheck {
  const { width, height, grey } = greyImage(image);
  const frame: Box = { left: 0, top: 0, right: width, bottom: height };
  const pixels = width * height;
  const failures: PhotoFailure[] = [];

  // Brightness of the frame.
  const histogram = histogramOf(grey, width, frame);
  let sum = 0;
  let squares = 0;
  let overexposed = 0;
  for (let v = 0; v < 256; v += 1) {
    sum += v * histogram[v];
    squares += v * v * histogram[v];
    if (v >= 250) overexposed += histogram[v];
  }
  const meanLuminance = sum / pixels;
  const luminanceSpread = Math.sqrt(Math.max(0, squares / pixels - meanLuminance ** 2));
  const overexposedShare = overexposed / pixels;

  // The document: the Otsu class that is not the background, the background being the class that
  // covers most of the frame's outer ring (the document sits inside the frame, with a margin).
  const { threshold, contrast: borderContrast } = otsu(histogram);
  const ring = Math.max(1, Math.round(Math.min(width, height) * 0.05));
  let ringLight = 0;
  let ringPixels = 0;
  for (let y = 0; y < height; y += 1) {
    const edgeRow = y < ring || y >= height - ring;
    for (let x = 0; x < width; x += 1) {
      if (!edgeRow && x >= ring && x < width - ring) continue;
      ringPixels += 1;
      if (grey[y * width + x] > threshold) ringLight += 1;
    }
  }
  const documentIsLight = ringLight * 2 < ringPixels;
  const isDocument = (value: number) => (value > threshold) === documentIsLight;
  const side = Math.min(width, height);
  const columns = new Float64Array(width);
  const rows = new Float64Array(height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (isDocument(grey[y * width + x])) {
        columns[x] += 1 / side;
        rows[y] += 1 / side;
      }
    }
  }
  const across = span(columns, profileShare);
  const down = span(rows, profileShare);
  const found = borderContrast >= minBorderContrast && across !== undefined && down !== undefined
    && (across[1] - across[0]) * (down[1] - down[0]) >= minDocumentArea * side * side;
  const box: Box = found ? { left: across[0], right: across[1], top: down[0], bottom: down[1] } : frame;

  // How much of each side's outer strip the document covers.
  const strip = Math.max(1, Math.round(Math.min(width, height) * edgeMargin));
  const cover = (x0: number, x1: number, y0: number, y1: number) => {
    let hits = 0;
    for (let y = y0; y < y1; y += 1) for (let x = x0; x < x1; x += 1) if (isDocument(grey[y * width + x])) hits += 1;
    return hits / Math.max(1, (x1 - x0) * (y1 - y0));
  };
  const marginX = Math.round(width * edgeMargin);
  const marginY = Math.round(height * edgeMargin);
  const edges = {
    left: found && box.left > marginX && cover(0, strip, 0, height) <= maxSideCover,
    right: found && box.right < width - marginX && cover(width - strip, width, 0, height) <= maxSideCover,
    top: found && box.top > marginY && cover(0, width, 0, strip) <= maxSideCover,
    bottom: found && box.bottom < height - marginY && cover(0, width, height - strip, height) <= maxSideCover,
  };
  if (!(edges.left && edges.right && edges.top && edges.bottom)) failures.push('cut_off');

  // Focus inside the document.
  const sharpness = laplacianVariance(grey, width, box);
  if (sharpness < minSharpness) failures.push('blurry');

  // The paper's level over the document, cell by cell, and the frame's halves.
  const paperLuminance = percentile(histogramOf(grey, width, box), 0.9);
  const levels: number[] = [];
  const boxWidth = box.right - box.left;
  const boxHeight = box.bottom - box.top;
  for (let gy = 0; gy < gridCells; gy += 1) {
    for (let gx = 0; gx < gridCells; gx += 1) {
      const cell: Box = {
        left: box.left + Math.floor((boxWidth * gx) / gridCells), right: box.left + Math.floor((boxWidth * (gx + 1)) / gridCells),
        top: box.top + Math.floor((boxHeight * gy) / gridCells), bottom: box.top + Math.floor((boxHeight * (gy + 1)) / gridCells),
      };
      if (cell.right > cell.left && cell.bottom > cell.top) levels.push(Math.max(1, percentile(histogramOf(grey, width, cell), 0.95)));
    }
  }
  const evenness = levels.length ? Math.min(...levels) / Math.max(...levels) : 1;
  if (meanLuminance < minMeanLuminance || paperLuminance < minPaperLuminance) failures.push('dark');
  else if (meanLuminance > maxMeanLuminance || overexposedShare > maxOverexposedShare) failures.push('bright');
  else if (evenness < minEvenness) failures.push('uneven');

  const measures: PhotoMeasures = {
    sharpness, meanLuminance, luminanceSpread, paperLuminance, overexposedShare, evenness, borderContrast, edges,
    ...(found ? { document: { left: box.left / width, top: box.top / height, right: box.right / width, bottom: box.bottom / height } } : {}),
  };
  return { ok: failures.length === 0, failures, measures };
}
