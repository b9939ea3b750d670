// The camera view for a document photo: the back camera (facingMode environment) full screen with
// a card-shaped frame to fit the document in, a capture button and a cancel button. The captured
// frame is handed over as a JPEG file, to be checked like a picked one. When the camera cannot be
// opened (no permission, no camera, an insecure page) the view says so and the user picks a file.
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useLingui } from '@lingui/react/macro';

/** Whether this browser can show a live camera at all. */
export const cameraAvailable = () => typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';

export function CameraCapture({ title, onCapture, onClose }: { title: string; onCapture(file: File): void; onClose(): void }) {
  const { t } = useLingui();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<'starting' | 'live' | 'failed'>('starting');

  useEffect(() => {
    let stream: MediaStream | undefined;
    let stopped = false;
    navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false })
      .then(async (opened) => {
        if (stopped) {
          opened.getTracks().forEach((track) => track.stop());
          return;
        }
        stream = opened;
        if (video.current) {
          video.current.srcObject = opened;
          await video.current.play().catch(() => undefined);
        }
        setState('live');
      })
      .catch(() => {
        if (!stopped) setState('failed');
      });
    return () => {
      stopped = true;
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  const capture = () => {
    const source = video.current;
    if (!source || !source.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = source.videoWidth;
    canvas.height = source.videoHeight;
    canvas.getContext('2d')?.drawImage(source, 0, 0);
    canvas.toBlob((blob) => {
      canvas.width = 0;
      canvas.height = 0;
      if (blob) onCapture(new File([blob], `document-${Date.now()}.jpg`, { type: 'image/jpeg' }));
    }, 'image/jpeg', 0.92);
  };

  return createPortal(
    <div className="camera-view" role="dialog" aria-modal="true" aria-label={title}>
      <video ref={video} className="camera-video" playsInline muted autoPlay aria-hidden="true" />
      <div className="camera-frame" aria-hidden="true" />
      <p className="camera-hint" role="status">
        {state === 'failed' ? t`The camera could not be opened. Close this view and choose a photo instead.` : t`Fit all four edges of the document inside the frame, in good light, and hold still.`}
      </p>
      <div className="camera-actions">
        <button type="button" className="camera-cancel" onClick={onClose}>{t`Cancel`}</button>
        <button type="button" className="camera-shutter" onClick={capture} disabled={state !== 'live'} aria-label={t`Take the photo`} />
      </div>
    </div>,
    document.body,
  );
}
