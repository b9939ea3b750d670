// A loan's signature image and signed agreement, read with the operator's token (an <img src> or a
// plain link could not send it): the image from a blob URL released when the drawer closes, the PDF
// downloaded from a blob URL with a file name, never opened in a tab (a blob URL belongs to the back
// office's origin).
import { useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, Skeleton, Typography } from 'antd';
import { fetchProof } from '../../transport.ts';
import { useProofObjectUrl } from '../../useProofObjectUrl.ts';
import { loanAgreementUrl, loanSignatureUrl } from '../../investApi.ts';

export function LoanSignature({ id }: { id: string }) {
  const { t } = useLingui();
  const state = useProofObjectUrl(loanSignatureUrl(id));
  if (state.failed) return <Alert type="error" showIcon title={t`The signature could not be loaded.`} data-testid="loan-signature-error" />;
  if (!state.url) return <Skeleton.Image active style={{ width: 240, height: 120 }} />;
  return <img className="admin-signature" src={state.url} alt={t`The user's signature`} data-testid="loan-signature" />;
}

export function AgreementLink({ id }: { id: string }) {
  const { t } = useLingui();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const made = useRef<string[]>([]);
  useEffect(() => () => {
    for (const url of made.current) URL.revokeObjectURL(url);
  }, []);
  const download = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const { objectUrl } = await fetchProof(loanAgreementUrl(id));
      made.current.push(objectUrl);
      const anchor = document.createElement('a');
      anchor.href = objectUrl;
      anchor.download = `loan-agreement-${id.replace(/[^A-Za-z0-9_-]/g, '')}.pdf`;
      document.body.appendChild(anchor);
      anchor.click();
      anchor.remove();
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span>
      <a href={loanAgreementUrl(id)} aria-busy={busy} data-testid="loan-agreement" onClick={(event) => {
        event.preventDefault();
        if (!busy) void download();
      }}>{t`Agreement (PDF)`}</a>
      {failed && <Typography.Text type="danger" style={{ marginLeft: 8 }}>{t`The agreement could not be downloaded.`}</Typography.Text>}
    </span>
  );
}
