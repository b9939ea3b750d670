import { Button, Form } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { useEmailLoginMutation, usePhoneLoginMutation } from '../../entities/session/authApi.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { AccountCodeFields, accountCodeFieldsByCode } from './AccountCodeFields.tsx';
import { useCountryCode } from './fields.tsx';
import { loginTicketOf, useAskSecondStep } from './secondStep.ts';
import { useCompleteLogin } from './useCompleteLogin.ts';

interface Values { account: string; code: string }

/** Log in with a code sent by e-mail or SMS. */
export function CodeLogin({ channel }: { channel: 'email' | 'phone' }) {
  const { t } = useLingui();
  const [form] = Form.useForm<Values>();
  const countryCode = useCountryCode();
  const [emailLogin, emailState] = useEmailLoginMutation();
  const [phoneLogin, phoneState] = usePhoneLoginMutation();
  const completeLogin = useCompleteLogin();
  const askSecondStep = useAskSecondStep();
  const failure = useFormFailure(form, accountCodeFieldsByCode);

  return (
    <Form form={form} layout="vertical" requiredMarkStyle="none"
      onValuesChange={failure.onValuesChange}
      onFinish={async (values: Values) => {
        failure.clear();
        const account = values.account.trim();
        const result = channel === 'email'
          ? await emailLogin({ email: account, code: values.code })
          : await phoneLogin({ phone: account, countryCode, code: values.code });
        const loginTicket = loginTicketOf(result.error);
        if (result.data) await completeLogin(result.data.token);
        else if (loginTicket) askSecondStep(loginTicket);
        else failure.show(result.error);
      }}
      footer={<>
        <Button block type="submit" color="primary" size="large"
          loading={emailState.isLoading || phoneState.isLoading}>{t`Log in`}</Button>
        <FormError {...failure.placed} />
      </>}>
      <AccountCodeFields form={form} accountType={channel} purpose="login" failure={failure} />
    </Form>
  );
}
