// A chat photo, read with the session token (an <img src> could not send it) and shown from a
// blob URL, released when the bubble goes.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';

export function ChatImage({ url, token, alt }: { url: string; token: string; alt: string }) {
  const { t } = useLingui();
  const [state, setState] = useState<{ src?: string; failed?: boolean }>({});
  useEffect(() => {
    let cancelled = false;
    let made: string | undefined;
    fetch(url, { headers: { 'x-access-token': token } })
      .then(async (response) => {
        if (!response.ok) throw new Error(`status ${response.status}`);
        made = URL.createObjectURL(await response.blob());
        if (cancelled) URL.revokeObjectURL(made);
        else setState({ src: made });
      })
      .catch(() => { if (!cancelled) setState({ failed: true }); });
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url, token]);
  if (state.failed) return <p className="chat-note">{t`The photo could not be loaded.`}</p>;
  if (!state.src) return <div className="chat-image chat-image-loading" aria-label={t`Loading photo`} />;
  return <img className="chat-image" src={state.src} alt={alt} data-testid="chat-image" />;
}
