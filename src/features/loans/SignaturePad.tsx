// A signature drawn with a finger, a pen or the mouse on a canvas (pointer events, so one code path
// for all three). The canvas's bitmap is its CSS size × devicePixelRatio, so the ink is sharp on a
// phone's dense screen, within the sides the server takes; strokes are kept as points in CSS pixels
// and redrawn when the size changes (a rotation), so a resize never loses the signature. The parent
// reads it through the handle: whether anything was drawn, a PNG of it, and Clear.
import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { signatureSidesMaxPx } from '../../api/contract/loans.ts';

export interface SignaturePadHandle {
  /** True until a stroke is drawn (a tap draws a dot: a stroke too). */
  isEmpty(): boolean;
  /** The signature as a PNG on a white background, or undefined when empty. */
  toPng(): Promise<Blob | undefined>;
  clear(): void;
}

type Point = { x: number; y: number };

/** Ink width in CSS pixels. */
const lineWidthPx = 2.5;
/** A signature is a few hundred points: a bound that a stuck pointer cannot pass. */
const pointsMax = 20_000;

/** Whether any stroke was drawn: the check the page makes before sending. */
export const hasStrokes = (strokes: readonly (readonly Point[])[]) => strokes.some((stroke) => stroke.length > 0);

function drawStrokes(canvas: HTMLCanvasElement, strokes: readonly (readonly Point[])[], ratio: number) {
  const context = canvas.getContext('2d');
  if (!context) return;
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.strokeStyle = '#111827';
  context.fillStyle = '#111827';
  context.lineWidth = lineWidthPx;
  context.lineCap = 'round';
  context.lineJoin = 'round';
  for (const stroke of strokes) {
    if (stroke.length === 1) {
      context.beginPath();
      context.arc(stroke[0].x, stroke[0].y, lineWidthPx / 2, 0, Math.PI * 2);
      context.fill();
      continue;
    }
    context.beginPath();
    stroke.forEach((point, index) => (index === 0 ? context.moveTo(point.x, point.y) : context.lineTo(point.x, point.y)));
    context.stroke();
  }
}

export const SignaturePad = forwardRef<SignaturePadHandle, { onChange?: (empty: boolean) => void; label: string }>(
  function SignaturePad({ onChange, label }, handle) {
    const { t } = useLingui();
    const canvasRef = useRef<HTMLCanvasElement>(null);
    const strokes = useRef<Point[][]>([]);
    const drawing = useRef<number | undefined>(undefined);
    const ratio = useRef(1);
    const [empty, setEmpty] = useState(true);

    const redraw = useCallback(() => {
      const canvas = canvasRef.current;
      if (canvas) drawStrokes(canvas, strokes.current, ratio.current);
    }, []);

    /** Sizes the bitmap to the element's CSS box × devicePixelRatio, then draws the strokes again. */
    const fit = useCallback(() => {
      const canvas = canvasRef.current;
      if (!canvas) return;
      const box = canvas.getBoundingClientRect();
      // The screen's density up to 4, but never a bitmap past the sides the server takes
      // (signatureSidesMaxPx): a dense screen's pad at 527 × 180 CSS px and ratio 4 would be 2108 px wide.
      const sidesRatio = Math.min(signatureSidesMaxPx.long / Math.max(1, box.width, box.height),
        signatureSidesMaxPx.short / Math.max(1, Math.min(box.width, box.height)));
      ratio.current = Math.min(Math.max(1, Math.min(4, globalThis.devicePixelRatio || 1)), sidesRatio);
      const width = Math.max(1, Math.round(box.width * ratio.current));
      const height = Math.max(1, Math.round(box.height * ratio.current));
      if (canvas.width !== width || canvas.height !== height) {
        canvas.width = width;
        canvas.height = height;
      }
      redraw();
    }, [redraw]);

    useEffect(() => {
      fit();
      const canvas = canvasRef.current;
      if (!canvas || typeof ResizeObserver === 'undefined') {
        globalThis.addEventListener?.('resize', fit);
        return () => globalThis.removeEventListener?.('resize', fit);
      }
      const observer = new ResizeObserver(fit);
      observer.observe(canvas);
      return () => observer.disconnect();
    }, [fit]);

    const changed = useCallback(() => {
      const now = !hasStrokes(strokes.current);
      setEmpty(now);
      onChange?.(now);
    }, [onChange]);

    const clear = useCallback(() => {
      strokes.current = [];
      drawing.current = undefined;
      redraw();
      changed();
    }, [redraw, changed]);

    useImperativeHandle(handle, () => ({
      isEmpty: () => !hasStrokes(strokes.current),
      clear,
      toPng: () => new Promise<Blob | undefined>((resolve) => {
        const canvas = canvasRef.current;
        if (!canvas || !hasStrokes(strokes.current)) {
          resolve(undefined);
          return;
        }
        redraw();
        canvas.toBlob((blob) => resolve(blob ?? undefined), 'image/png');
      }),
    }), [clear, redraw]);

    const pointOf = (event: ReactPointerEvent<HTMLCanvasElement>): Point => {
      const box = event.currentTarget.getBoundingClientRect();
      return { x: event.clientX - box.left, y: event.clientY - box.top };
    };
    const total = () => strokes.current.reduce((sum, stroke) => sum + stroke.length, 0);

    const down = (event: ReactPointerEvent<HTMLCanvasElement>) => {
      if (event.button !== 0 && event.pointerType === 'mouse') return;
      event.preventDefault();
      event.currentTarget.setPointerCapture?.(event.pointerId);
      drawing.current = event.pointerId;
      strokes.current.push([pointOf(event)]);
      redraw();
      changed();
    };
    const move = (event: ReactPointerEvent<HTMLCanvasElement>) => {
      if (drawing.current !== event.pointerId || total() >= pointsMax) return;
      event.preventDefault();
      const stroke = strokes.current.at(-1);
      // Coalesced events give every point the finger passed, not only one per frame.
      const native = event.nativeEvent as PointerEvent;
      const events = typeof native.getCoalescedEvents === 'function' ? native.getCoalescedEvents() : [];
      const box = event.currentTarget.getBoundingClientRect();
      const points = events.length > 0 ? events.map((one) => ({ x: one.clientX - box.left, y: one.clientY - box.top })) : [pointOf(event)];
      stroke?.push(...points);
      redraw();
    };
    const up = (event: ReactPointerEvent<HTMLCanvasElement>) => {
      if (drawing.current !== event.pointerId) return;
      drawing.current = undefined;
      event.currentTarget.releasePointerCapture?.(event.pointerId);
    };

    return (
      <div className="signature-pad">
        <canvas ref={canvasRef} className="signature-canvas" role="img" aria-label={label} data-empty={empty ? 'true' : 'false'}
          onPointerDown={down} onPointerMove={move} onPointerUp={up} onPointerCancel={up} />
        {empty && <span className="signature-hint" aria-hidden="true">{t`Sign here with your finger`}</span>}
        <button type="button" className="signature-clear" onClick={clear} disabled={empty}>{t`Clear`}</button>
      </div>
    );
  },
);
