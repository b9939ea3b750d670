// gerenziliao: personal data (spec §3): surname, first name, gender, birthday, country, address,
// phone. Saved through POST /user/appUser/updateKYC.
import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { Button, DatePicker, ErrorBlock, Form, Input, Radio, Space, DotLoading } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { DateTime } from 'luxon';
import type { PersonalDataBody, UserInfo } from '../../api/contract/accounts.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { CountryPicker } from '../../components/CountryPicker.tsx';
import { countries, countryName } from '../../lib/countries.ts';
import { locales } from '../../lib/locales.ts';
import { useGetMyUserInfoQuery, useUpdatePersonalDataMutation } from '../auth/authApi.ts';
import { userInfoReceived } from '../auth/userSlice.ts';
import { showToast } from '../../components/feedback.tsx';
import { prepareAccountTexts } from '../auth/accountTexts.ts';

type Values = Omit<PersonalDataBody, 'birthday'> & { birthday?: Date };

function changedFields(values: Values, user: UserInfo): PersonalDataBody {
  const next: Record<string, string | undefined> = {
    ...values,
    birthday: values.birthday ? DateTime.fromJSDate(values.birthday).toFormat('yyyy-MM-dd') : undefined,
  };
  const body: Record<string, string> = {};
  for (const [key, value] of Object.entries(next)) {
    const trimmed = typeof value === 'string' ? value.trim() : value;
    if (trimmed && trimmed !== user[key as keyof UserInfo]) body[key] = trimmed;
  }
  return body as PersonalDataBody;
}

/** The router awaits this before the page shows: its texts. */
export const prepare = prepareAccountTexts;

export default function PersonalDataPage() {
  const { t, i18n } = useLingui();
  const dispatch = useDispatch();
  const query = useGetMyUserInfoQuery();
  const [update, { isLoading }] = useUpdatePersonalDataMutation();
  const [pickerOpen, setPickerOpen] = useState<'date' | 'country' | null>(null);
  const [form] = Form.useForm<Values>();
  const country = Form.useWatch('country', form);
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
  const today = new Date();
  return (
    <div className="personal-data">
      <PageHeader title={t`Personal data`} fallback="/my" />
      <Form form={form} layout="horizontal" requiredMarkStyle="none"
        initialValues={{
          surname: user.surname ?? '', firstName: user.firstName ?? '', gender: user.gender ?? undefined,
          birthday: user.birthday ? DateTime.fromFormat(user.birthday, 'yyyy-MM-dd').toJSDate() : undefined,
          country: user.country ?? undefined, address: user.address ?? '', contactPhone: user.contactPhone ?? '',
        }}
        onFinish={async (values: Values) => {
          const body = changedFields(values, user);
          if (Object.keys(body).length === 0) {
            void showToast(t`Nothing to save.`);
            return;
          }
          const result = await update(body);
          if (!result.data) return;
          dispatch(userInfoReceived(result.data));
          void showToast(t`Saved`);
        }}
        footer={<Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Save`}</Button>}>
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
        <Form.Item name="birthday" label={t`Birthday`} trigger="onConfirm" onClick={() => setPickerOpen('date')}>
          <DatePicker visible={pickerOpen === 'date'} onClose={() => setPickerOpen(null)}
            min={new Date(1900, 0, 1)} max={today} title={t`Birthday`} confirmText={t`Confirm`} cancelText={t`Cancel`}>
            {(value) => (value ? DateTime.fromJSDate(value).toFormat('yyyy-MM-dd') : <span className="placeholder">{t`Choose a date`}</span>)}
          </DatePicker>
        </Form.Item>
        <Form.Item name="country" label={t`Country`} onClick={() => setPickerOpen('country')}>
          <button type="button" className="field-button" aria-label={t`Country`}>
            {country ? countryName(countries.find((item) => item.country_code === country) ?? { country_code: country, english_name: country }, intl)
              : <span className="placeholder">{t`Choose a country`}</span>}
          </button>
        </Form.Item>
        <Form.Item name="address" label={t`Address`} rules={[{ max: 200 }]}>
          <Input placeholder={t`Address`} autoComplete="street-address" clearable />
        </Form.Item>
        <Form.Item name="contactPhone" label={t`Phone`}
          rules={[{ pattern: /^\+?[0-9 ]{4,24}$/, message: t`Please enter a valid mobile number` }]}>
          <Input placeholder={t`Phone`} inputMode="tel" autoComplete="tel" clearable />
        </Form.Item>
      </Form>
      <CountryPicker visible={pickerOpen === 'country'} onClose={() => setPickerOpen(null)}
        onSelect={(value) => form.setFieldValue('country', value.country_code)} />
    </div>
  );
}
