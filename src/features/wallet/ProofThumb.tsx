// The user's own deposit proof, small beside its record. The file is served only to its owner
// (the X-Access-Token header, which an <img src> cannot send), so it is fetched and shown from a
// blob URL, revoked when the row goes away. It is fetched once the row scrolls near the screen,
// so a long list does not download every proof at once. Tapping it shows the picture large; a
// PDF proof opens in the browser's own viewer.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useSelector } from 'react-redux';
import { ImageViewer } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { UserState } from '../../entities/session/userSlice.ts';

type Proof = { state: 'waiting' } | { state: 'loading' } | { state: 'failed' } | { state: 'ready'; url: string; pdf: boolean };

/** Starts when the element comes within a screen of the viewport (at once where there is no IntersectionObserver). */
function useNearScreen<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return undefined;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return undefined;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setNear(true);
    }, { rootMargin: '100% 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

export function ProofThumb({ url }: { url: string }) {
  const { t } = useLingui();
  const token = useSelector((state: { user: UserState }) => state.user.token);
  const [ref, near] = useNearScreen<HTMLButtonElement>();
  const [proof, setProof] = useState<Proof>({ state: 'waiting' });
  const [attempt, setAttempt] = useState(0);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!near) return undefined;
    const controller = new AbortController();
    let objectUrl: string | undefined;
    setProof({ state: 'loading' });
    void (async () => {
      try {
        const response = await fetch(url, { headers: token ? { 'X-Access-Token': token } : {}, signal: controller.signal });
        if (!response.ok) throw new Error(`proof: HTTP ${response.status}`);
        const blob = await response.blob();
        objectUrl = URL.createObjectURL(blob);
        if (controller.signal.aborted) {
          URL.revokeObjectURL(objectUrl);
          return;
        }
        setProof({ state: 'ready', url: objectUrl, pdf: blob.type === 'application/pdf' });
      } catch (error) {
        if (!controller.signal.aborted) {
          console.warn('[wallet] proof unavailable', error);
          setProof({ state: 'failed' });
        }
      }
    })();
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, token, near, attempt]);

  const onClick = () => {
    if (proof.state === 'failed') setAttempt((count) => count + 1);
    else if (proof.state === 'ready' && proof.pdf) window.open(proof.url, '_blank', 'noopener');
    else if (proof.state === 'ready') setOpen(true);
  };
  const label = proof.state === 'failed' ? t`The proof could not be loaded. Tap to try again.` : t`View the payment proof`;
  return (
    <>
      <button ref={ref} type="button" className={`proof-thumb proof-${proof.state}`} aria-label={label} title={label}
        aria-busy={proof.state === 'loading' || proof.state === 'waiting'} onClick={onClick}>
        {proof.state === 'ready' && !proof.pdf && <img src={proof.url} alt="" className="proof-image" />}
        {proof.state === 'ready' && proof.pdf && <span className="proof-pdf" aria-hidden="true">PDF</span>}
        {proof.state === 'failed' && (
          <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round"
            aria-hidden="true" focusable="false"><path d="M20 12a8 8 0 1 1-2.3-5.6" /><path d="M20 4v4h-4" /></svg>
        )}
      </button>
      {proof.state === 'ready' && !proof.pdf && (
        <ImageViewer image={proof.url} visible={open} onClose={() => setOpen(false)} />
      )}
    </>
  );
}
