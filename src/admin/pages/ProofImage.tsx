// A deposit's proof, read with the operator's token (an <img src> could not send it) and shown
// from a blob URL, released when the drawer closes. A PDF proof opens in a new tab instead.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, Button, Skeleton } from 'antd';
import { fetchProof } from '../transport.ts';

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
  if (state.type === 'application/pdf') {
    return <Button href={state.url} target="_blank" rel="noopener noreferrer">{t`Open the proof (PDF)`}</Button>;
  }
  return (
    <a href={state.url} target="_blank" rel="noopener noreferrer" title={t`Open the proof in full size`}>
      <img className="admin-proof" src={state.url} alt={t`Deposit proof`} data-testid="proof-image" />
    </a>
  );
}
