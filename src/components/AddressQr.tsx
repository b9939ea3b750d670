// The QR code of an address (a deposit address now; an invitation link later), drawn on a canvas
// at the screen's pixel density so a phone camera reads it off another phone's screen. The QR
// library is imported when the first code is drawn, so it is in no first-screen chunk. The canvas
// is an image named by `label` (the address is written out beside it for assistive technology).
import { useEffect, useRef, useState } from 'react';

export interface AddressQrProps {
  value: string;
  /** What the picture is, e.g. "QR code of the USDT TRC20 deposit address". */
  label: string;
  /** Side in CSS pixels. */
  size?: number;
}

export function AddressQr({ value, label, size = 168 }: AddressQrProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'drawing' | 'drawn' | 'failed'>('drawing');
  useEffect(() => {
    let current = true;
    setState('drawing');
    const density = Math.min(3, Math.max(1, Math.round(globalThis.devicePixelRatio || 1)));
    import('qrcode')
      .then(async (module) => {
        // A CommonJS module: its exports are the default export, or the namespace itself.
        const qr = module.default ?? (module as unknown as typeof module.default);
        const target = canvas.current;
        if (!current || !target) return;
        await qr.toCanvas(target, value, {
          width: size * density, margin: 2, errorCorrectionLevel: 'M', color: { dark: '#000000ff', light: '#ffffffff' },
        });
        // The library sizes the canvas in CSS pixels to its bitmap; show it at `size`.
        target.style.width = `${size}px`;
        target.style.height = `${size}px`;
        if (current) setState('drawn');
      })
      .catch((error: unknown) => {
        console.warn('[qr] not drawn', error);
        if (current) setState('failed');
      });
    return () => {
      current = false;
    };
  }, [value, size]);
  return (
    <canvas ref={canvas} className="address-qr" role="img" aria-label={label} data-state={state}
      width={size} height={size} style={{ width: size, height: size, visibility: state === 'failed' ? 'hidden' : undefined }} />
  );
}
