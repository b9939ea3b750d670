// One side of the identity document as a form control whose value is the uploaded file's id: a
// photo from the camera view (CameraCapture) or a picked file is checked here first (photoChecks:
// complete border, uniform brightness, clear focus); a photo that fails is shown with what failed,
// in words, and is not uploaded; one that passes is made small and uploaded with purpose
// "identity", with its progress (components/useUploadField.ts, shared with the deposit's proof).
import { useState } from 'react';
import { CameraOutline, CloseCircleFill, PictureOutline } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { useUploadField } from '../../components/useUploadField.ts';
import { CameraCapture, cameraAvailable } from './CameraCapture.tsx';
import type { PhotoFailure } from './photoChecks.ts';
import { checkPhotoFile } from './photoPixels.ts';

/** The order the reasons are said in: the border first (retaking fixes it first), focus last. */
const reasonOrder: PhotoFailure[] = ['cut_off', 'dark', 'bright', 'uneven', 'blurry'];

export function DocumentPhotoField({ label, value, onChange, onBusy, id }: {
  label: string; value?: string; onChange?: (value: string | undefined) => void; onBusy(busy: boolean): void; id?: string;
}) {
  const { t } = useLingui();
  const [camera, setCamera] = useState(false);
  const { shown, take, remove, picked } = useUploadField<PhotoFailure[]>({
    purpose: 'identity', value, onChange, onBusy,
    // Refused with what failed, in the order the reasons are said; undefined when it passes (or cannot be read).
    inspect: async (file) => {
      const check = await checkPhotoFile(file);
      return check && !check.ok ? reasonOrder.filter((reason) => check.failures.includes(reason)) : undefined;
    },
  });

  const reasons: Record<PhotoFailure, string> = {
    cut_off: t`The document's border is not complete — fit all four edges inside the frame.`,
    dark: t`The photo is too dark — take it in more light.`,
    bright: t`The photo is too bright — avoid glare and direct light on the document.`,
    uneven: t`The light is uneven — avoid shadows and reflections on the document.`,
    blurry: t`The photo is blurry — hold the phone still and let the camera focus.`,
  };

  const withPreview = shown.phase === 'refused' || shown.phase === 'uploading' || shown.phase === 'uploaded' ? shown : undefined;
  const percent = shown.phase === 'uploading' ? Math.round(shown.fraction * 100) : 100;
  const busy = shown.phase === 'preparing' || shown.phase === 'uploading';
  return (
    <div className="document-photo" id={id} role="group" aria-label={label}>
      {withPreview && (
        <div className={`document-preview${shown.phase === 'refused' ? ' refused' : ''}`}>
          <img src={withPreview.preview} alt={t`Preview: ${label}`} />
          <button type="button" className="document-remove" aria-label={t`Remove the photo: ${label}`} onClick={remove}>
            <CloseCircleFill aria-hidden="true" />
          </button>
        </div>
      )}
      {shown.phase !== 'uploaded' && shown.phase !== 'uploading' && (
        <div className="document-pickers">
          {cameraAvailable() ? (
            <button type="button" className="document-pick" onClick={() => setCamera(true)} disabled={busy}>
              <CameraOutline aria-hidden="true" />
              <span>{shown.phase === 'refused' ? t`Retake with the camera` : t`Camera`}</span>
            </button>
          ) : (
            <label className="document-pick">
              <input type="file" accept="image/*" capture="environment" onChange={picked} disabled={busy}
                aria-label={t`Take a photo with the camera: ${label}`} />
              <CameraOutline aria-hidden="true" />
              <span>{t`Camera`}</span>
            </label>
          )}
          <label className="document-pick">
            <input type="file" accept="image/*" onChange={picked} disabled={busy} aria-label={t`Choose a photo: ${label}`} />
            <PictureOutline aria-hidden="true" />
            <span>{t`Gallery`}</span>
          </label>
        </div>
      )}
      {shown.phase === 'preparing' && <p className="document-status" role="status">{t`Checking the photo…`}</p>}
      {shown.phase === 'refused' && (
        <div className="document-refused" role="alert">
          <p>{t`This photo cannot be used:`}</p>
          <ul>{shown.refusal.map((failure) => <li key={failure} data-reason={failure}>{reasons[failure]}</li>)}</ul>
        </div>
      )}
      {shown.phase === 'uploading' && (
        <div className="document-progress">
          <div className="document-bar" role="progressbar" aria-label={t`Upload progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
            <div style={{ width: `${percent}%` }} />
          </div>
          <span className="document-percent">{t`Uploading… ${percent}%`}</span>
        </div>
      )}
      {shown.phase === 'uploaded' && <p className="document-status done" role="status">{t`Photo checked and uploaded.`}</p>}
      {shown.phase === 'failed' && <p className="document-error" role="alert">{shown.message}</p>}
      {camera && (
        <CameraCapture title={label} onClose={() => setCamera(false)} onCapture={(file) => {
          setCamera(false);
          void take(file);
        }} />
      )}
    </div>
  );
}
