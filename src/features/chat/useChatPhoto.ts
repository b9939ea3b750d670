// The photo the user picked (or took) for the chat: its preview while it waits, its upload
// (api/uploadFile.ts) on "Send photo", after which the upload's id goes into the outbox like a
// text. A File is not serialisable, so it stays in this hook, out of the store and its actions (the
// Redux style guide), as the other upload fields keep theirs (components/useUploadField.ts).
import { useEffect, useState } from 'react';
import { useSelector } from 'react-redux';
import { useLingui } from '@lingui/react/macro';
import type { ApiError } from '../../api/baseQuery.ts';
import type { SessionView } from '../../api/session.ts';
import { uploadFile } from '../../api/uploadFile.ts';

export function useChatPhoto(onUploaded: (fileId: string) => void) {
  const { t } = useLingui();
  const token = useSelector((state: SessionView) => state.user.token);
  const [photo, setPhoto] = useState<{ file: File; url: string } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [uploading, setUploading] = useState(false);

  useEffect(() => () => { if (photo) URL.revokeObjectURL(photo.url); }, [photo]);

  const pick = (file: File | undefined) => {
    setError(undefined);
    if (!file) return;
    setPhoto({ file, url: URL.createObjectURL(file) });
  };

  const send = async () => {
    if (!photo) return;
    setUploading(true);
    setError(undefined);
    try {
      const uploaded = await uploadFile({ file: photo.file, fileName: photo.file.name || 'photo.jpg', purpose: 'chat', token });
      onUploaded(uploaded.id);
      setPhoto(undefined);
    } catch (caught) {
      setError((caught as ApiError).message ?? t`The photo could not be sent.`);
    } finally {
      setUploading(false);
    }
  };

  return { photo, error, uploading, pick, send, remove: () => setPhoto(undefined) };
}
