// shenfenRenzhengAd: advanced identity verification (spec §2, §3; issue 11): the current address
// and an emergency contact (surname, name, relationship, phone, address). It needs basic
// verification approved: until then the page explains and links to it. Like the basic page it
// follows the state of the advanced application (pending, approved, rejected with a reason).
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, ErrorBlock, Form, Input, Skeleton, TextArea } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { ApplyAdvancedBody } from '../../api/contract/identity.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { confirmDialog } from '../../components/feedback.tsx';
import { FormError } from '../../components/form/FormError.tsx';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { resultPath } from './BasicVerificationPage.tsx';
import { useApplyAdvancedMutation, useKycStateQuery } from '../../entities/session/kycApi.ts';
import { prepareIdentityTexts } from '../../entities/session/identityTexts.ts';
import { reviewTimeExpectation } from './reviewTime.ts';
import './identity.css';

export const prepare = prepareIdentityTexts;

/** A contact phone as the server takes it: 4–24 digits, spaces, brackets and hyphens, a leading +. */
export const contactPhonePattern = /^\+?[0-9 ()-]{4,24}$/;

type Values = Partial<ApplyAdvancedBody>;
const fieldsByCode: FieldsByCode = {};

export default function AdvancedVerificationPage() {
  const { t, i18n } = useLingui();
  const state = useKycStateQuery();
  const [retrying, setRetrying] = useState(false);
  const header = <PageHeader title={t`Advanced verification`} fallback="/shenfenRenzheng" />;

  if (state.isLoading) {
    return <div className="identity-page">{header}
      <div className="identity-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Title animated /><Skeleton.Paragraph lineCount={5} animated /></div>
    </div>;
  }
  if (!state.data) {
    return <div className="identity-page">{header}
      <ErrorBlock status="disconnected" title={t`Could not load your verification`} description={t`Check your connection and try again.`}>
        <Button color="primary" onClick={() => void state.refetch()}>{t`Retry`}</Button>
      </ErrorBlock>
    </div>;
  }
  const { basic, advanced, advancedReason, level } = state.data;
  return (
    <div className="identity-page">
      {header}
      <div className="identity-body">
        {basic !== 'approved' && (
          <section className="identity-card identity-state" aria-labelledby="advanced-state">
            <h2 id="advanced-state">{t`Basic verification first`}</h2>
            <p>{basic === 'pending'
              ? t`Advanced verification opens once your basic verification is approved. It is under review now.`
              : t`Advanced verification needs your basic verification approved first: your name, your document and its photos.`}</p>
            <Link className="prompt-link" to={basic === 'pending' ? resultPath : '/shenfenRenzheng'}>
              {basic === 'pending' ? t`See the review status` : t`Start basic verification`}
            </Link>
          </section>
        )}
        {basic === 'approved' && advanced === 'pending' && (
          <section className="identity-card identity-state" aria-labelledby="advanced-state">
            <h2 id="advanced-state">{t`Under review`}</h2>
            <p>{t`Your advanced verification has been received and is being reviewed.`}</p>
            <p className="review-time" data-testid="kyc-review-time">{i18n._(reviewTimeExpectation)}</p>
            <Link className="prompt-link" to={resultPath}>{t`See the review status`}</Link>
          </section>
        )}
        {basic === 'approved' && advanced === 'approved' && (
          <section className="identity-card identity-state approved" aria-labelledby="advanced-state">
            <h2 id="advanced-state">{t`Advanced verification approved`}</h2>
            <p>{t`Your verification level: ${level}`}</p>
            <Link className="prompt-link" to={resultPath}>{t`See what each level unlocks`}</Link>
          </section>
        )}
        {basic === 'approved' && advanced === 'rejected' && !retrying && (
          <section className="identity-card identity-state rejected" aria-labelledby="advanced-state">
            <h2 id="advanced-state">{t`Verification rejected`}</h2>
            {advancedReason && <p>{t`Reason: ${advancedReason}`}</p>}
            <Button color="primary" block onClick={() => setRetrying(true)}>{t`Apply again`}</Button>
          </section>
        )}
        {basic === 'approved' && (advanced === 'none' || (advanced === 'rejected' && retrying)) && <AdvancedForm />}
      </div>
    </div>
  );
}

function AdvancedForm() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const failure = useFormFailure(form, fieldsByCode);
  const [apply, { isLoading }] = useApplyAdvancedMutation();
  const [confirming, setConfirming] = useState(false);
  const required = (message: string) => ({
    validator: async (_rule: unknown, value?: string) => {
      if (!value?.trim()) throw new Error(message);
    },
  });

  const submit = async (values: Values) => {
    failure.clear();
    const body: ApplyAdvancedBody = {
      currentAddress: (values.currentAddress ?? '').trim(),
      emergencySurname: (values.emergencySurname ?? '').trim(),
      emergencyName: (values.emergencyName ?? '').trim(),
      emergencyRelationship: (values.emergencyRelationship ?? '').trim(),
      emergencyPhone: (values.emergencyPhone ?? '').trim(),
      emergencyAddress: (values.emergencyAddress ?? '').trim(),
    };
    setConfirming(true);
    const confirmed = await confirmDialog({
      title: t`Submit for verification?`,
      content: (
        <dl className="identity-summary">
          <div><dt>{t`Current address`}</dt><dd>{body.currentAddress}</dd></div>
          <div><dt>{t`Emergency contact`}</dt><dd>{body.emergencySurname} {body.emergencyName} ({body.emergencyRelationship})</dd></div>
          <div><dt>{t`Phone`}</dt><dd>{body.emergencyPhone}</dd></div>
        </dl>
      ),
      confirmText: t`Submit`,
      cancelText: t`Cancel`,
    }).finally(() => setConfirming(false));
    if (!confirmed) return;
    const result = await apply(body);
    if (!result.data) {
      failure.show(result.error);
      return;
    }
    navigate(resultPath);
  };

  return (
    <Form form={form} layout="vertical" requiredMarkStyle="none" className="identity-form identity-card"
      onValuesChange={failure.onValuesChange}
      onFinish={submit}
      footer={<>
        <Button block type="submit" color="primary" size="large" loading={isLoading || confirming}>{t`Submit`}</Button>
        <FormError {...failure.placed} />
      </>}>
      <Form.Item name="currentAddress" label={t`Current address`} rules={[required(t`Please enter your current address.`)]}>
        <TextArea autoComplete="street-address" maxLength={200} rows={2} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
      <h2 className="identity-subtitle">{t`Emergency contact`}</h2>
      <Form.Item name="emergencySurname" label={t`Contact's surname`} rules={[required(t`Please enter the contact's surname.`)]}>
        <Input autoComplete="off" maxLength={64} clearable />
      </Form.Item>
      <Form.Item name="emergencyName" label={t`Contact's first name`} rules={[required(t`Please enter the contact's first name.`)]}>
        <Input autoComplete="off" maxLength={64} clearable />
      </Form.Item>
      <Form.Item name="emergencyRelationship" label={t`Relationship`} rules={[required(t`Please say how you know the contact.`)]}>
        <Input autoComplete="off" maxLength={32} placeholder={t`For example: parent, spouse, friend`} clearable />
      </Form.Item>
      <Form.Item name="emergencyPhone" label={t`Contact's phone`} validateTrigger="onBlur"
        rules={[{
          validator: async (_rule, value?: string) => {
            const text = value?.trim() ?? '';
            if (!text) throw new Error(t`Please enter the contact's phone number.`);
            if (!contactPhonePattern.test(text)) throw new Error(t`Please enter a valid phone number, for example +44 20 7946 0958.`);
          },
        }]}>
        <Input type="tel" inputMode="tel" autoComplete="off" maxLength={24} clearable />
      </Form.Item>
      <Form.Item name="emergencyAddress" label={t`Contact's address`} rules={[required(t`Please enter the contact's address.`)]}>
        <TextArea autoComplete="off" maxLength={200} rows={2} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
    </Form>
  );
}
