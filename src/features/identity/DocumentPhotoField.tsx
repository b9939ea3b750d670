// One side of the identity document as a form control whose value is the uploaded file's id: a
// photo from the camera view (CameraCapture) or a picked file is checked here first (photoChecks:
// complete border, uniform brightness, clear focus); a photo that fails is shown with what failed,
// in words, and is not uploaded; one that passes is made small (wallet/proofImage.ts) and uploaded
// with purpose "identity" (wallet/uploadFile.ts), with its progress.
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useSelector } from 'react-redux';
import { CameraOutline, CloseCircleFill, PictureOutline } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { failureText } from '../../api/errorMessages.ts';
import type { UserState } from '../auth/userSlice.ts';
import { prepareProofImage } from '../wallet/proofImage.ts';
import { uploadFile } from '../wallet/uploadFile.ts';
import { CameraCapture, cameraAvailable } from './CameraCapture.tsx';
import type { PhotoFailure } from './photoChecks.ts';
import { checkPhotoFile } from './photoPixels.ts';

type Shown =
  | { phase: 'empty' }
  | { phase: 'checking' }
  | { phase: 'refused'; preview: string; failures: PhotoFailure[] }
  | { phase: 'uploading'; preview: string; fraction: number }
  | { phase: 'uploaded'; preview: string }
  | { phase: 'failed'; message: string };

/** The order the reasons are said in: the border first (retaking fixes it first), focus last. */
const reasonOrder: PhotoFailure[] = ['cut_off', 'dark', 'bright', 'uneven', 'blurry'];

export function DocumentPhotoField({ label, value, onChange, onBusy, id }: {
  label: string; value?: string; onChange?: (value: string | undefined) => void; onBusy(busy: boolean): void; id?: string;
}) {
  const { t } = useLingui();
  const token = useSelector((state: { user: UserState }) => state.user.token);
  const [shown, setShown] = useState<Shown>({ phase: 'empty' });
  const [camera, setCamera] = useState(false);
  const running = useRef<AbortController>(undefined);
  const preview = useRef<string>(undefined);

  const reasons: Record<PhotoFailure, string> = {
    cut_off: t`The document's border is not complete — fit all four edges inside the frame.`,
    dark: t`The photo is too dark — take it in more light.`,
    bright: t`The photo is too bright — avoid glare and direct light on the document.`,
    uneven: t`The light is uneven — avoid shadows and reflections on the document.`,
    blurry: t`The photo is blurry — hold the phone still and let the camera focus.`,
  };

  const forgetPreview = useCallback(() => {
    if (preview.current) URL.revokeObjectURL(preview.current);
    preview.current = undefined;
  }, []);
  useEffect(() => () => {
    running.current?.abort();
    forgetPreview();
  }, [forgetPreview]);
  useEffect(() => {
    if (value === undefined) setShown((now) => (now.phase === 'uploaded' ? { phase: 'empty' } : now));
  }, [value]);

  const take = async (file: File) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    forgetPreview();
    onChange?.(undefined);
    onBusy(true);
    setShown({ phase: 'checking' });
    try {
      const check = await checkPhotoFile(file);
      if (controller.signal.aborted) return;
      const url = URL.createObjectURL(file);
      preview.current = url;
      if (check && !check.ok) {
        setShown({ phase: 'refused', preview: url, failures: reasonOrder.filter((reason) => check.failures.includes(reason)) });
        return;
      }
      // A picture the browser cannot decode goes to the server, which refuses it by its type.
      const prepared = await prepareProofImage(file);
      if (controller.signal.aborted) return;
      setShown({ phase: 'uploading', preview: url, fraction: 0 });
      const stored = await uploadFile({
        file: prepared, fileName: prepared.name, purpose: 'identity', token, signal: controller.signal,
        onProgress: (fraction) => setShown((now) => (now.phase === 'uploading' ? { ...now, fraction } : now)),
      });
      setShown({ phase: 'uploaded', preview: url });
      onChange?.(stored.id);
    } catch (error) {
      if (controller.signal.aborted) return;
      forgetPreview();
      setShown({ phase: 'failed', message: failureText(error) });
    } finally {
      if (running.current === controller) {
        running.current = undefined;
        onBusy(false);
      }
    }
  };

  const remove = () => {
    running.current?.abort();
    running.current = undefined;
    onBusy(false);
    forgetPreview();
    setShown({ phase: 'empty' });
    onChange?.(undefined);
  };

  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void take(file);
  };

  const withPreview = shown.phase === 'refused' || shown.phase === 'uploading' || shown.phase === 'uploaded' ? shown : undefined;
  const percent = shown.phase === 'uploading' ? Math.round(shown.fraction * 100) : 100;
  const busy = shown.phase === 'checking' || shown.phase === 'uploading';
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
      {shown.phase === 'checking' && <p className="document-status" role="status">{t`Checking the photo…`}</p>}
      {shown.phase === 'refused' && (
        <div className="document-refused" role="alert">
          <p>{t`This photo cannot be used:`}</p>
          <ul>{shown.failures.map((failure) => <li key={failure} data-reason={failure}>{reasons[failure]}</li>)}</ul>
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
