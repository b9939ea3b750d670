// One identity photo of a KYC application, read with the operator's token (an <img src> could not
// send it; the server audits each read) and shown from a blob URL that is released when the drawer
// closes or the photo changes. Nothing is cached: the service worker leaves /api alone and the
// object URL dies with the drawer.
import { useLingui } from '@lingui/react/macro';
import { Alert, Skeleton } from 'antd';
import { useProofObjectUrl } from '../useProofObjectUrl.ts';
import { kycPhotoUrl } from '../identityApi.ts';

export function KycPhoto({ id, side, label }: { id: string; side: 'front' | 'back'; label: string }) {
  const { t } = useLingui();
  const state = useProofObjectUrl(kycPhotoUrl(id, side));
  if (state.failed) return <Alert type="error" showIcon title={t`The photo could not be loaded.`} data-testid={`kyc-photo-${side}-error`} />;
  if (!state.url) return <div className="admin-proof-box"><Skeleton.Image active style={{ width: 240, height: 160 }} /></div>;
  return (
    <a href={state.url} target="_blank" rel="noopener noreferrer" title={t`Open the photo in full size`}>
      <img className="admin-proof" src={state.url} alt={label} data-testid={`kyc-photo-${side}`} />
    </a>
  );
}
