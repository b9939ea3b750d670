// shenfenRenzheng: basic identity verification (spec §2, §5; issue 11). The page follows the
// state of the user's basic application (isHaveAuth): under review → says so and links to the
// result; approved → the level reached and the way to advanced verification; rejected → the
// operator's reason and the form again; none → the form. The form asks for the surname, first
// name, ID type and number and both sides of the document, each photo checked in the browser
// (DocumentPhotoField) before it uploads; a confirmation sums it up before it is sent.
import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, ErrorBlock, Form, Input, Selector, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { IdType } from '../../api/contract/identity.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { confirmDialog } from '../../components/feedback.tsx';
import { FormError } from '../../components/form/FormError.tsx';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { DocumentPhotoField } from './DocumentPhotoField.tsx';
import { useApplyBasicMutation, useKycStateQuery } from '../../entities/session/kycApi.ts';
import { prepareIdentityTexts } from '../../entities/session/identityTexts.ts';
import { reviewTimeExpectation } from './reviewTime.ts';
import './identity.css';

export const prepare = prepareIdentityTexts;

export const resultPath = '/renzhengResult';
export const advancedPath = '/shenfenRenzhengAd';

/** The ID number as the server takes it: 4–32 letters, digits, spaces and hyphens. */
export const idNumberPattern = /^[A-Za-z0-9 -]{4,32}$/;

interface Values { surname?: string; firstName?: string; idType?: IdType[]; idNumber?: string; frontFileId?: string; backFileId?: string }

const fieldsByCode: FieldsByCode = { kyc_photo_invalid: 'frontFileId', file_missing: 'frontFileId' };

export default function BasicVerificationPage() {
  const { t, i18n } = useLingui();
  const state = useKycStateQuery();
  const [retrying, setRetrying] = useState(false);
  const header = <PageHeader title={t`Identity verification`} fallback="/my" />;

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
  const { basic, level, basicReason } = state.data;
  return (
    <div className="identity-page">
      {header}
      <div className="identity-body">
        {basic === 'pending' && (
          <section className="identity-card identity-state" aria-labelledby="basic-state">
            <h2 id="basic-state">{t`Under review`}</h2>
            <p>{t`Your documents have been received and are being reviewed.`}</p>
            <p className="review-time" data-testid="kyc-review-time">{i18n._(reviewTimeExpectation)}</p>
            <Link className="prompt-link" to={resultPath}>{t`See the review status`}</Link>
          </section>
        )}
        {basic === 'approved' && (
          <section className="identity-card identity-state approved" aria-labelledby="basic-state">
            <h2 id="basic-state">{t`Basic verification approved`}</h2>
            <p>{t`Your verification level: ${level}`}</p>
            {level < 2 && state.data.advanced !== 'pending' && (
              <Link className="prompt-link" to={advancedPath}>{t`Continue with advanced verification`}</Link>
            )}
            <Link className="prompt-link secondary" to={resultPath}>{t`See what each level unlocks`}</Link>
          </section>
        )}
        {basic === 'rejected' && !retrying && (
          <section className="identity-card identity-state rejected" aria-labelledby="basic-state">
            <h2 id="basic-state">{t`Verification rejected`}</h2>
            {basicReason && <p>{t`Reason: ${basicReason}`}</p>}
            <Button color="primary" block onClick={() => setRetrying(true)}>{t`Apply again`}</Button>
          </section>
        )}
        {(basic === 'none' || (basic === 'rejected' && retrying)) && <BasicForm />}
      </div>
    </div>
  );
}

function BasicForm() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const failure = useFormFailure(form, fieldsByCode);
  const [apply, { isLoading }] = useApplyBasicMutation();
  const [confirming, setConfirming] = useState(false);
  const busy = useRef({ frontFileId: false, backFileId: false });
  const submitting = useRef(false);
  const idTypes: { label: string; value: IdType }[] = [{ label: t`Passport`, value: 'passport' }, { label: t`ID card`, value: 'id_card' }];

  const submit = async (values: Values) => {
    failure.clear();
    const idType = values.idType?.[0];
    if (!idType || !values.frontFileId || !values.backFileId) return;
    const body = {
      surname: (values.surname ?? '').trim(), firstName: (values.firstName ?? '').trim(), idType,
      idNumber: (values.idNumber ?? '').trim(), frontFileId: values.frontFileId, backFileId: values.backFileId,
    };
    setConfirming(true);
    const confirmed = await confirmDialog({
      title: t`Submit for verification?`,
      content: (
        <dl className="identity-summary">
          <div><dt>{t`Surname`}</dt><dd>{body.surname}</dd></div>
          <div><dt>{t`First name`}</dt><dd>{body.firstName}</dd></div>
          <div><dt>{t`ID type`}</dt><dd>{idTypes.find((type) => type.value === idType)?.label}</dd></div>
          <div><dt>{t`ID number`}</dt><dd>{body.idNumber}</dd></div>
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

  const photoRule = (name: 'frontFileId' | 'backFileId', missing: string) => ({
    validator: async (_rule: unknown, value?: string) => {
      if (busy.current[name]) {
        if (submitting.current) throw new Error(t`Please wait until the photo is checked and uploaded.`);
        return;
      }
      if (!value) throw new Error(missing);
    },
  });
  const required = (message: string) => ({
    validator: async (_rule: unknown, value?: string) => {
      if (!value?.trim()) throw new Error(message);
    },
  });

  return (
    <Form form={form} layout="vertical" requiredMarkStyle="none" className="identity-form identity-card"
      onValuesChange={failure.onValuesChange}
      onFinish={async (values: Values) => {
        submitting.current = false;
        await submit(values);
      }}
      onFinishFailed={() => {
        submitting.current = false;
      }}
      footer={<>
        <Button block type="submit" color="primary" size="large" loading={isLoading || confirming}
          onClick={() => {
            submitting.current = true;
          }}>{t`Submit`}</Button>
        <FormError {...failure.placed} />
      </>}>
      <p className="identity-intro">{t`Enter your name exactly as it is written on your document.`}</p>
      <Form.Item name="surname" label={t`Surname`} rules={[required(t`Please enter your surname.`)]}>
        <Input autoComplete="family-name" maxLength={64} clearable />
      </Form.Item>
      <Form.Item name="firstName" label={t`First name`} rules={[required(t`Please enter your first name.`)]}>
        <Input autoComplete="given-name" maxLength={64} clearable />
      </Form.Item>
      <Form.Item name="idType" label={t`ID type`} initialValue={['id_card']}
        rules={[{ validator: async (_rule, value?: IdType[]) => { if (!value?.length) throw new Error(t`Please choose the type of your document.`); } }]}>
        <Selector columns={2} showCheckMark={false} options={idTypes} />
      </Form.Item>
      <Form.Item name="idNumber" label={t`ID number`} validateTrigger="onBlur"
        rules={[{
          validator: async (_rule, value?: string) => {
            const text = value?.trim() ?? '';
            if (!text) throw new Error(t`Please enter the number of your document.`);
            if (!idNumberPattern.test(text)) throw new Error(t`A document number is 4 to 32 letters, digits, spaces or hyphens.`);
          },
        }]}>
        <Input autoComplete="off" autoCapitalize="characters" maxLength={32} clearable />
      </Form.Item>
      <Form.Item name="frontFileId" label={t`Front of the document`} rules={[photoRule('frontFileId', t`Please add a photo of the front of your document.`)]}
        description={t`We check each photo on your phone before it is sent: the whole document in the frame, even light, sharp focus.`}>
        <DocumentPhotoField label={t`Front of the document`} onBusy={(now) => { busy.current.frontFileId = now; }} />
      </Form.Item>
      <Form.Item name="backFileId" label={t`Back of the document`} rules={[photoRule('backFileId', t`Please add a photo of the back of your document.`)]}>
        <DocumentPhotoField label={t`Back of the document`} onBusy={(now) => { busy.current.backFileId = now; }} />
      </Form.Item>
    </Form>
  );
}
