// A deposit's proof, read with the operator's token (an <img src> could not send it) and shown
// from a blob URL, released when the drawer closes. Only an image is shown in the page; a PDF (or
// anything else) is offered as a download with a file name, never opened in a tab: a blob URL
// belongs to the back office's origin, and the server sends such files as attachments for that
// reason (a document opened inline would run inside the back office).
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, Button, Skeleton } from 'antd';
import { fetchProof } from '../transport.ts';

/** The types shown inline: the image formats the server accepts for a proof. */
const inlineTypes = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** A file name for the download: the upload's id from its URL, and an extension for its type. */
export function proofFileName(url: string, type: string): string {
  const id = (url.split('?')[0].split('/').pop() ?? '').replace(/[^A-Za-z0-9_-]/g, '') || 'file';
  const extension = type === 'application/pdf' ? 'pdf' : 'bin';
  return `deposit-proof-${id}.${extension}`;
}

export function ProofImage({ url }: { url: string }) {
  const { t } = useLingui();
  const [state, setState] = useState<{ url?: string; type?: string; failed?: boolean }>({});
  useEffect(() => {
    let cancelled = false;
    let made: string | undefined;
    setState({});
    fetchProof(url).then(({ objectUrl, type }) => {
      made = objectUrl;
      if (cancelled) URL.revokeObjectURL(objectUrl);
      else setState({ url: objectUrl, type });
    }, () => {
      if (!cancelled) setState({ failed: true });
    });
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  if (state.failed) return <Alert type="error" showIcon title={t`The proof could not be loaded.`} />;
  if (!state.url) return <div className="admin-proof-box"><Skeleton.Image active style={{ width: 320, height: 320 }} /></div>;
  if (!inlineTypes.has(state.type ?? '')) {
    return (
      <Button href={state.url} download={proofFileName(url, state.type ?? '')} data-testid="proof-download">
        {state.type === 'application/pdf' ? t`Download the proof (PDF)` : t`Download the proof`}
      </Button>
    );
  }
  return (
    <a href={state.url} target="_blank" rel="noopener noreferrer" title={t`Open the proof in full size`}>
      <img className="admin-proof" src={state.url} alt={t`Deposit proof`} data-testid="proof-image" />
    </a>
  );
}
