// jiedaiHetong (spec §2 loan agreement): the terms the server writes for the figures in the query
// (in the user's language, with their SHA-256), scrollable, and a canvas to sign on with a finger.
// Sending with an empty canvas says "Please sign" (spec §5). Otherwise, after a confirmation, the
// signature goes up as a PNG (upload purpose loan_signature) and the application is sent with the
// terms' hash and a client order id made once for this page: a retry after a failure sends the same
// id, so it cannot apply twice. The user then lands on their loans (jiedaiOrder), under review.
import { useRef, useState } from 'react';
import { useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { ApiError } from '../../api/baseQuery.ts';
import type { LoanSetting } from '../../api/contract/loans.ts';
import { failureText } from '../../api/errorMessages.ts';
import type { SessionView } from '../../api/session.ts';
import { uploadFile } from '../../api/uploadFile.ts';
import { Amount } from '../../components/Amount.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { confirmDialog } from '../../components/feedback.tsx';
import { FormError } from '../../components/form/FormError.tsx';
import { useOnline } from '../../components/OfflineBanner.tsx';
import { useCreditApplyMutation, useLoanAgreementQuery, useLoanSettingsQuery, usePledgeApplyMutation, type AgreementArgs } from './loansApi.ts';
import { newLoanClientOrderId, scaleOf, totalInterestText } from './loanMath.ts';
import { prepareLoanTexts } from './loansTexts.ts';
import { LoanFailure, LoanSkeleton, RatePercent } from './parts.tsx';
import { SignaturePad, type SignaturePadHandle } from './SignaturePad.tsx';
import './loans.css';

export const prepare = prepareLoanTexts;

/** The figures of the query, or undefined when they are missing or not numbers (the page then points back). */
export function agreementArgsOf(params: URLSearchParams): AgreementArgs | undefined {
  const settingId = params.get('settingId') ?? '';
  const amount = params.get('amount') ?? '';
  const days = Number(params.get('days'));
  const collateral = params.get('collateral') ?? undefined;
  if (!/^[1-9][0-9]{0,17}$/.test(settingId) || !/^[0-9]+(\.[0-9]+)?$/.test(amount) || !Number.isInteger(days) || days < 1) return undefined;
  if (collateral !== undefined && !/^[0-9]+(\.[0-9]+)?$/.test(collateral)) return undefined;
  return collateral === undefined ? { settingId, amount, days } : { settingId, amount, days, collateral };
}

export default function LoanAgreementPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const args = agreementArgsOf(params);
  const settings = useLoanSettingsQuery();
  const agreement = useLoanAgreementQuery(args ?? { settingId: '0', amount: '0', days: 1 }, { skip: !args });
  const setting = settings.data?.find((one) => one.id === args?.settingId);
  let body;
  if (!args) {
    body = (
      <div className="loan-failure">
        <p>{t`Choose the loan first.`}</p>
        <Button color="primary" onClick={() => navigate('/jiedai', { replace: true })}>{t`Go to lending`}</Button>
      </div>
    );
  } else if (settings.isLoading || agreement.isLoading) {
    body = <LoanSkeleton label={t`Loading`} />;
  } else if (!agreement.data || !setting) {
    body = (
      <LoanFailure text={t`The agreement could not be loaded.`} error={agreement.error ?? settings.error}
        onRetry={() => { void settings.refetch(); void agreement.refetch(); }} />
    );
  } else {
    body = <AgreementForm args={args} setting={setting} terms={agreement.data.terms} termsHash={agreement.data.termsHash}
      onTermsChanged={() => void agreement.refetch()} />;
  }
  return (
    <div className="loan-page">
      <PageHeader title={t`Loan agreement`} fallback="/jiedai" />
      {body}
    </div>
  );
}

function AgreementForm({ args, setting, terms, termsHash, onTermsChanged }: {
  args: AgreementArgs; setting: LoanSetting; terms: string; termsHash: string; onTermsChanged: () => void;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const online = useOnline();
  const token = useSelector((state: SessionView) => state.user.token);
  const pad = useRef<SignaturePadHandle>(null);
  // Made once for this page: every retry sends the same id, so the server answers the first loan.
  const [clientOrderId] = useState(newLoanClientOrderId);
  // The uploaded signature, kept until the user draws again: a retry does not upload it twice.
  const uploaded = useRef<string | undefined>(undefined);
  const [signMessage, setSignMessage] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [uploading, setUploading] = useState(false);
  const [creditApply, credit] = useCreditApplyMutation();
  const [pledgeApply, pledge] = usePledgeApplyMutation();
  const busy = uploading || credit.isLoading || pledge.isLoading;
  const scale = scaleOf(setting.minAmount);
  const interest = totalInterestText(args.amount, setting.dailyRate, args.days, scale);

  const submit = async () => {
    setFailure(undefined);
    if (!pad.current || pad.current.isEmpty()) {
      setSignMessage(t`Please sign`);
      return;
    }
    setSignMessage(undefined);
    const confirmed = await confirmDialog({
      title: t`Apply for this loan?`,
      content: setting.type === 'pledge'
        ? t`Borrow ${args.amount} ${setting.asset} for ${args.days} days against ${args.collateral ?? ''} ${setting.collateralAsset ?? ''}, locked at once until the loan is repaid.`
        : t`Borrow ${args.amount} ${setting.asset} for ${args.days} days. The interest is ${interest ?? '—'} ${setting.asset}.`,
      confirmText: t`Apply`,
      cancelText: t`Cancel`,
    });
    if (!confirmed) return;
    try {
      if (!uploaded.current) {
        setUploading(true);
        const png = await pad.current.toPng();
        if (!png) {
          setSignMessage(t`Please sign`);
          return;
        }
        uploaded.current = (await uploadFile({ file: png, fileName: 'signature.png', purpose: 'loan_signature', token })).id;
      }
      setUploading(false);
      const body = { settingId: args.settingId, amount: args.amount, days: args.days, signatureFileId: uploaded.current, termsHash, clientOrderId };
      const loan = setting.type === 'pledge'
        ? await pledgeApply({ ...body, collateral: args.collateral ?? '' }).unwrap()
        : await creditApply(body).unwrap();
      navigate(`/jiedaiOrder?id=${encodeURIComponent(loan.id)}`, { replace: true });
    } catch (error) {
      const code = (error as Partial<Extract<ApiError, { kind: 'api' }>>)?.error;
      // A refused signature is signed and uploaded afresh next time.
      if (code === 'signature_invalid' || code === 'signature_empty' || code === 'signature_too_large') uploaded.current = undefined;
      if (code === 'loan_terms_changed') onTermsChanged();
      setFailure(failureText(error));
    } finally {
      setUploading(false);
    }
  };

  return (
    <div className="loan-form">
      <section className="loan-card" aria-label={t`The loan`}>
        <dl className="loan-figures">
          <div><dt>{t`Type`}</dt><dd>{setting.type === 'pledge' ? t`Pledge loan` : t`Credit loan`}</dd></div>
          <div><dt>{t`Amount`}</dt><dd><Amount value={args.amount} asset={setting.asset} scale={scale} exact withAsset /></dd></div>
          <div><dt>{t`Days`}</dt><dd>{args.days}</dd></div>
          <div><dt>{t`Daily rate`}</dt><dd><RatePercent rate={setting.dailyRate} /></dd></div>
          <div><dt>{t`Total interest`}</dt><dd>{interest ? <Amount value={interest} asset={setting.asset} scale={scale} exact withAsset /> : '—'}</dd></div>
          {args.collateral && <div><dt>{t`Collateral`}</dt><dd>{args.collateral} {setting.collateralAsset}</dd></div>}
        </dl>
      </section>
      <section className="loan-card" aria-labelledby="loan-terms-title">
        <h2 id="loan-terms-title" className="loan-card-title">{t`Terms`}</h2>
        {/* Focusable, so the keyboard can scroll it. */}
        <div className="loan-terms" tabIndex={0} role="document" aria-label={t`Terms of the agreement`}>{terms}</div>
        <p className="loan-hash">{t`SHA-256 of the terms`}: <code>{termsHash}</code></p>
      </section>
      <section className="loan-card" aria-labelledby="loan-sign-title">
        <h2 id="loan-sign-title" className="loan-card-title">{t`Your signature`}</h2>
        <SignaturePad ref={pad} label={t`Signature`} onChange={(empty) => {
          uploaded.current = undefined;
          if (!empty) setSignMessage(undefined);
        }} />
        {signMessage && <p className="form-error loan-sign-error" role="alert">{signMessage}</p>}
      </section>
      <FormError message={failure} />
      {!online && <p className="loan-note" role="status">{t`You are offline. You can apply when the connection is back.`}</p>}
      <Button block color="primary" size="large" loading={busy} disabled={!online} onClick={() => void submit()}>{t`Sign and apply`}</Button>
    </div>
  );
}
