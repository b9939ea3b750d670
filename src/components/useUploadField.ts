// The life of a photo field whose form value is the uploaded file's id (the deposit's payment
// proof, the identity document's sides): take a file, optionally inspect it first (a refusal is
// shown with its preview and nothing is uploaded), make it small (lib/proofImage.ts), upload it with
// progress (api/uploadFile.ts), preview it, remove it, pick again. A newer pick aborts the older
// upload; leaving the page aborts it too and frees the preview.
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useSelector } from 'react-redux';
import { failureText } from '../api/errorMessages.ts';
import type { UploadPurpose } from '../api/contract/wallet.ts';
import type { SessionView } from '../api/session.ts';
import { prepareProofImage } from '../lib/proofImage.ts';
import { uploadFile } from '../api/uploadFile.ts';

export type UploadShown<Refusal> =
  | { phase: 'empty' }
  | { phase: 'preparing' }
  | { phase: 'refused'; preview: string; refusal: Refusal }
  | { phase: 'uploading'; preview: string; isImage: boolean; fraction: number }
  | { phase: 'uploaded'; preview: string; isImage: boolean; name: string }
  | { phase: 'failed'; message: string };

export interface UploadFieldOptions<Refusal> {
  purpose: UploadPurpose;
  /** The form's value: cleared elsewhere (a reset), the field shows nothing attached. */
  value?: string;
  onChange?: (value: string | undefined) => void;
  /** True from the pick until the upload ends, so the form can hold its submission. */
  onBusy(busy: boolean): void;
  /** Looks at the picked file before anything is sent: a refusal stops it there. */
  inspect?: (file: File) => Promise<Refusal | undefined>;
}

export function useUploadField<Refusal = never>({ purpose, value, onChange, onBusy, inspect }: UploadFieldOptions<Refusal>) {
  const token = useSelector((state: SessionView) => state.user.token);
  const [shown, setShown] = useState<UploadShown<Refusal>>({ phase: 'empty' });
  const running = useRef<AbortController>(undefined);
  const preview = useRef<string>(undefined);

  const showPreview = (file: Blob) => {
    const url = URL.createObjectURL(file);
    preview.current = url;
    return url;
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
    setShown({ phase: 'preparing' });
    try {
      const refusal = inspect ? await inspect(file) : undefined;
      if (controller.signal.aborted) return;
      if (refusal !== undefined) {
        setShown({ phase: 'refused', preview: showPreview(file), refusal });
        return;
      }
      // A picture the browser cannot decode goes as it is: the server refuses it by its type.
      const prepared = await prepareProofImage(file);
      if (controller.signal.aborted) return;
      const url = showPreview(prepared);
      const isImage = prepared.type.startsWith('image/');
      setShown({ phase: 'uploading', preview: url, isImage, fraction: 0 });
      const stored = await uploadFile({
        file: prepared, fileName: prepared.name, purpose, token, signal: controller.signal,
        onProgress: (fraction) => setShown((now) => (now.phase === 'uploading' ? { ...now, fraction } : now)),
      });
      setShown({ phase: 'uploaded', preview: url, isImage, name: prepared.name });
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

  /** For an `<input type="file">`: cleared after each pick, so choosing the same file again is a change too. */
  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void take(file);
  };

  return { shown, take, remove, picked };
}
