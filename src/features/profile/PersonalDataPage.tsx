// gerenziliao: personal data (spec §3): surname, first name, gender, birthday, country, address,
// phone. Saved through POST /user/appUser/updateKYC: the fields that changed, and in `clear` the
// ones the user emptied.
import { lazy, Suspense, useState } from 'react';
import { useDispatch } from 'react-redux';
import { Button, ErrorBlock, Form, Input, Radio, Space, DotLoading } from 'antd-mobile';
import { CloseCircleFill } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import {
  birthdayAgeYears, birthdayRange, personalDataFields, type PersonalDataBody, type PersonalDataField, type UserInfo,
} from '../../api/contract/accounts.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { FormError } from '../../components/form/FormError.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { regionName } from '../../lib/countryLabel.ts';
import { locales } from '../../lib/locales.ts';
import { useGetMyUserInfoQuery, useUpdatePersonalDataMutation } from '../../entities/session/authApi.ts';
import { userInfoReceived } from '../../entities/session/userSlice.ts';
import { showToast } from '../../components/feedback.tsx';
import { prepareAccountTexts } from '../../lib/catalogs.ts';
import { BirthdayField, todayIso } from './BirthdayField.tsx';
import './personalData.css';

const CountryPicker = lazy(() => import('../../components/CountryPicker.tsx').then((module) => ({ default: module.CountryPicker })));

type Values = Partial<Record<PersonalDataField, string>>;

/**
 * What the form changed against the stored user: each field filled with a new value is set, each
 * field emptied that held a value is cleared. An empty body means nothing changed.
 */
export function changedFields(values: Values, user: UserInfo): PersonalDataBody {
  const body: Record<string, string> = {};
  const clear: PersonalDataField[] = [];
  for (const field of personalDataFields) {
    const next = values[field]?.trim() ?? '';
    const stored = user[field] ?? '';
    if (next === stored) continue;
    if (next) body[field] = next;
    else clear.push(field);
  }
  return { ...body, ...(clear.length > 0 ? { clear } : {}) } as PersonalDataBody;
}

const userValues = (user: UserInfo): Values => Object.fromEntries(
  personalDataFields.map((field) => [field, user[field] ?? undefined]),
) as Values;

/** The router awaits this before the page shows: its texts. */
export const prepare = prepareAccountTexts;

export default function PersonalDataPage() {
  const { t, i18n } = useLingui();
  const dispatch = useDispatch();
  const query = useGetMyUserInfoQuery();
  const [update, { isLoading }] = useUpdatePersonalDataMutation();
  const [countryOpen, setCountryOpen] = useState(false);
  const pickerLoaded = useLoadedOnce(countryOpen);
  const [form] = Form.useForm<Values>();
  const chosenCountry = Form.useWatch('country', form) as string | undefined;
  // The server's refusals here concern no one field (invalid_request), so they go under the form.
  const failure = useFormFailure(form, {});
  const intl = locales.find((locale) => locale.value === i18n.locale)?.intl ?? 'en-US';
  const user = query.data;

  if (query.isLoading) {
    return <><PageHeader title={t`Personal data`} fallback="/my" />
      <div className="center-note" role="status"><DotLoading /> {t`Loading...`}</div></>;
  }
  if (!user) {
    return <><PageHeader title={t`Personal data`} fallback="/my" />
      <ErrorBlock status="disconnected" title={t`Could not load your data`} description={t`Check your connection and try again.`}>
        <Button color="primary" onClick={() => void query.refetch()}>{t`Retry`}</Button>
      </ErrorBlock></>;
  }
  const { min: ageMin, max: ageMax } = birthdayAgeYears;
  const ageMessage = t`You must be ${ageMin} to ${ageMax} years old.`;
  return (
    <div className="personal-data">
      <PageHeader title={t`Personal data`} fallback="/my" />
      <Form form={form} layout="horizontal" requiredMarkStyle="none" initialValues={userValues(user)}
        onValuesChange={failure.onValuesChange}
        onFinish={async (values: Values) => {
          failure.clear();
          const body = changedFields(values, user);
          if (Object.keys(body).length === 0) {
            void showToast(t`Nothing to save.`);
            return;
          }
          const result = await update(body);
          if (!result.data) {
            failure.show(result.error);
            return;
          }
          dispatch(userInfoReceived(result.data));
          void showToast(t`Saved`);
        }}
        footer={<>
          <Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Save`}</Button>
          <FormError {...failure.placed} />
        </>}>
        <Form.Item name="surname" label={t`Surname`} rules={[{ max: 64 }]}>
          <Input placeholder={t`Surname`} autoComplete="family-name" clearable />
        </Form.Item>
        <Form.Item name="firstName" label={t`First name`} rules={[{ max: 64 }]}>
          <Input placeholder={t`First name`} autoComplete="given-name" clearable />
        </Form.Item>
        <Form.Item name="gender" label={t`Gender`}>
          <Radio.Group>
            <Space wrap>
              <Radio value="male">{t`Male`}</Radio>
              <Radio value="female">{t`Female`}</Radio>
              <Radio value="other">{t`Other`}</Radio>
            </Space>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="birthday" label={t`Birthday`} rules={[{
          validator: async (_rule, value?: string) => {
            // A date stored before the age limit existed is refused here, under the field.
            const range = birthdayRange(todayIso());
            if (value && (value < range.earliest || value > range.latest)) throw new Error(ageMessage);
          },
        }]}>
          <BirthdayField />
        </Form.Item>
        <Form.Item name="country" label={t`Country`}>
          <CountryField intl={intl} onOpen={() => setCountryOpen(true)} />
        </Form.Item>
        <Form.Item name="address" label={t`Address`} rules={[{ max: 200 }]}>
          <Input placeholder={t`Address`} autoComplete="street-address" clearable />
        </Form.Item>
        <Form.Item name="contactPhone" label={t`Phone`}
          rules={[{ pattern: /^\+?[0-9 ]{4,24}$/, message: t`Please enter a valid mobile number` }]}>
          <Input placeholder={t`Phone`} inputMode="tel" autoComplete="tel" clearable />
        </Form.Item>
      </Form>
      {/* The picker brings the whole country list and its calling codes: loaded when first opened,
          then kept, so it closes with its animation and gives focus back. */}
      {pickerLoaded && (
        <Suspense fallback={null}>
          <CountryPicker visible={countryOpen} onClose={() => setCountryOpen(false)} selected={chosenCountry}
            onSelect={(value) => form.setFieldValue('country', value.country_code)} />
        </Suspense>
      )}
    </div>
  );
}

/** The country as a button opening the picker, and a clear button; a form control. */
function CountryField({ value, onChange, id, intl, onOpen }: {
  value?: string; onChange?: (value: string | undefined) => void; id?: string; intl: string; onOpen: () => void;
}) {
  const { t } = useLingui();
  const name = value
    ? regionName(value, intl) ?? value
    : undefined;
  return (
    <div className="choice-field">
      <button type="button" id={id} className="field-button" aria-haspopup="dialog"
        aria-label={name ? `${t`Country`} ${name}` : undefined} onClick={onOpen}>
        {name ?? <span className="placeholder">{t`Choose a country`}</span>}
      </button>
      {value && (
        <button type="button" className="field-clear" aria-label={t`Clear country`} onClick={() => onChange?.(undefined)}>
          <CloseCircleFill aria-hidden="true" />
        </button>
      )}
    </div>
  );
}

/** True from the first time `wanted` is true on. */
function useLoadedOnce(wanted: boolean): boolean {
  const [loaded, setLoaded] = useState(wanted);
  if (wanted && !loaded) setLoaded(true);
  return loaded || wanted;
}
