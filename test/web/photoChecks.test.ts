// The identity photo checks on documents drawn here: a light card with dark text-like strokes and
// a photo block on a darker, slightly noisy table. The good one passes; a blurred, a darkened, a
// burnt-out, a half-shadowed and a shifted (cut off) copy are each refused with their reason.
import { describe, expect, it } from 'vitest';
import {
  checkPhoto, greyImage, laplacianVariance, minBorderContrast, minSharpness, otsu,
} from '../../src/features/identity/photoChecks.ts';
import { documentPhoto } from './documentPhoto.ts';

describe('identity photo checks', () => {
  it('passes a sharp, evenly lit document with all four edges inside the frame', () => {
    const check = checkPhoto(documentPhoto());
    expect(check.failures).toEqual([]);
    expect(check.ok).toBe(true);
    expect(check.measures.edges).toEqual({ left: true, top: true, right: true, bottom: true });
    // The card is 70% of the width, centred: found where it was drawn.
    expect(check.measures.document?.left).toBeCloseTo(0.15, 1);
    expect(check.measures.document?.right).toBeCloseTo(0.85, 1);
    expect(check.measures.sharpness).toBeGreaterThan(minSharpness * 3);
    expect(check.measures.borderContrast).toBeGreaterThan(minBorderContrast);
  });

  it('passes a document off centre whose edges are still inside, and a large photo averaged down', () => {
    expect(checkPhoto(documentPhoto({ shiftX: 80, shiftY: -40 })).failures).toEqual([]);
    expect(checkPhoto(documentPhoto({ width: 1600, height: 1200 })).failures).toEqual([]);
  });

  it('passes a card in an upright phone photo (9:16, the card across 70% of the width), and refuses its bad copies alike', () => {
    const upright = { width: 540, height: 960 };
    const check = checkPhoto(documentPhoto(upright));
    expect(check.failures).toEqual([]);
    expect(check.measures.document?.left).toBeCloseTo(0.15, 1);
    expect(check.measures.document?.right).toBeCloseTo(0.85, 1);
    expect(checkPhoto(documentPhoto({ width: 1080, height: 1920 })).failures).toEqual([]);
    expect(checkPhoto(documentPhoto({ ...upright, blur: 4 })).failures).toEqual(['blurry']);
    expect(checkPhoto(documentPhoto({ ...upright, gain: 0.28 })).failures).toEqual(['dark']);
    expect(checkPhoto(documentPhoto({ ...upright, shiftY: 420 })).failures).toEqual(['cut_off']);
    expect(checkPhoto(documentPhoto({ ...upright, shiftX: 150 })).failures).toEqual(['cut_off']);
    expect(checkPhoto(documentPhoto({ ...upright, background: 228 })).failures).toContain('cut_off');
  });

  it('refuses a blurred photo as blurry, and only as blurry', () => {
    const check = checkPhoto(documentPhoto({ blur: 4 }));
    expect(check.failures).toEqual(['blurry']);
    expect(check.measures.sharpness).toBeLessThan(minSharpness);
  });

  it('refuses a darkened photo as dark', () => {
    const check = checkPhoto(documentPhoto({ gain: 0.28 }));
    expect(check.failures).toEqual(['dark']);
  });

  it('refuses a burnt-out photo as bright', () => {
    expect(checkPhoto(documentPhoto({ gain: 1.9, background: 150 })).failures).toContain('bright');
  });

  it('refuses a photo with a shadow over half of the card as uneven', () => {
    const check = checkPhoto(documentPhoto({ shadow: 0.3 }));
    expect(check.failures).toContain('uneven');
    expect(check.failures).not.toContain('dark');
  });

  it('refuses a document shifted past a side of the frame as cut off, whichever side', () => {
    for (const shift of [{ shiftX: 200 }, { shiftX: -200 }, { shiftY: 200 }, { shiftY: -200 }]) {
      const check = checkPhoto(documentPhoto(shift));
      expect(check.failures, JSON.stringify(shift)).toEqual(['cut_off']);
    }
    const right = checkPhoto(documentPhoto({ shiftX: 200 })).measures.edges;
    expect(right).toEqual({ left: true, top: true, right: false, bottom: true });
  });

  it('refuses a document that fills the whole frame (no border to see) as cut off', () => {
    expect(checkPhoto(documentPhoto({ background: 228 })).failures).toContain('cut_off');
  });

  it('measures its parts as documented', () => {
    // Otsu on two equal peaks splits between them and explains nearly all the variance.
    const histogram = new Float64Array(256);
    histogram[40] = 100;
    histogram[200] = 100;
    const split = otsu(histogram);
    expect(split.threshold).toBeGreaterThanOrEqual(40);
    expect(split.threshold).toBeLessThan(200);
    expect(split.contrast).toBeCloseTo(1, 5);
    // A flat image has no Laplacian; a checkerboard a large one.
    const flat = new Float32Array(100).fill(120);
    expect(laplacianVariance(flat, 10, { left: 0, top: 0, right: 10, bottom: 10 })).toBe(0);
    const board = Float32Array.from({ length: 100 }, (_, i) => ((i % 10) + Math.floor(i / 10)) % 2 ? 255 : 0);
    expect(laplacianVariance(board, 10, { left: 0, top: 0, right: 10, bottom: 10 })).toBeGreaterThan(10_000);
    // Averaged down to 640 px wide, proportions kept.
    const big = greyImage({ width: 1280, height: 960, data: new Uint8ClampedArray(1280 * 960 * 4).fill(255) });
    expect([big.width, big.height]).toEqual([640, 480]);
    expect(big.grey[0]).toBeCloseTo(255, 3);
    expect(() => greyImage({ width: 0, height: 1, data: new Uint8ClampedArray(0) })).toThrow();
  });
});
