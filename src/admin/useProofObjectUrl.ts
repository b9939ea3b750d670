// A file the back office reads with the operator's token (an <img src> could not send it), shown
// from a blob URL that is released when the component goes or the address changes. Nothing is
// cached: the service worker leaves /api alone and the object URL dies with the component.
import { useEffect, useState } from 'react';
import { fetchProof } from './transport.ts';

export function useProofObjectUrl(url: string): { url?: string; failed?: boolean } {
  const [state, setState] = useState<{ url?: string; failed?: boolean }>({});
  useEffect(() => {
    let cancelled = false;
    let made: string | undefined;
    setState({});
    fetchProof(url).then(({ objectUrl }) => {
      made = objectUrl;
      if (cancelled) URL.revokeObjectURL(objectUrl);
      else setState({ url: objectUrl });
    }, () => {
      if (!cancelled) setState({ failed: true });
    });
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  return state;
}
