// The second step of a login into an account with Google Authenticator bound: the first factor was
// right and the server asked for a code (google_code_required). With the login ticket it gave
// (every login of ours: secondStep.ts) the code completes it through loginSecondStep; from a
// server that gives no ticket, the password the user typed (kept in memory only, in this
// component's props) is sent again with the code to googleSecretLogin. A recovery code can stand
// in for the 6-digit code, once.
import { useState } from 'react';
import { Button, Form } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { useGoogleSecretLoginMutation, useLoginSecondStepMutation } from '../../entities/session/twoFactorApi.ts';
import { SecondFactorField, secondFactorOf, SecondFactorSwitch, type SecondFactorValues } from '../../entities/session/SecondFactorFields.tsx';
import { useCompleteLogin } from './useCompleteLogin.ts';


const fieldsByCode: FieldsByCode = {
  google_code_invalid: 'googleCode', google_code_required: 'googleCode', recovery_code_invalid: 'recoveryCode',
};

type FirstFactor = { loginTicket: string } | { account: string; password: string; countryCode?: string };

export function GoogleCodeStep({ onBack, ...firstFactor }: FirstFactor & {
  /** Back to the login forms (the ticket or password is forgotten). */
  onBack: () => void;
}) {
  const { t } = useLingui();
  const [form] = Form.useForm<SecondFactorValues>();
  const [useRecovery, setUseRecovery] = useState(false);
  const [passwordLogin, passwordState] = useGoogleSecretLoginMutation();
  const [ticketLogin, ticketState] = useLoginSecondStepMutation();
  const isLoading = passwordState.isLoading || ticketState.isLoading;
  const completeLogin = useCompleteLogin();
  const failure = useFormFailure(form, fieldsByCode);

  return (
    <Form form={form} layout="vertical" requiredMarkStyle="none" className="google-code-step"
      onValuesChange={failure.onValuesChange}
      onFinish={async (values: SecondFactorValues) => {
        failure.clear();
        const proof = secondFactorOf(values, useRecovery);
        const result = 'loginTicket' in firstFactor
          ? await ticketLogin({ loginTicket: firstFactor.loginTicket, ...proof })
          : await passwordLogin({ ...firstFactor, ...proof });
        if (result.data) await completeLogin(result.data.token);
        else failure.show(result.error);
      }}
      footer={<>
        <Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Log in`}</Button>
        <FormError {...failure.placed} />
        <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 8 }}>
          <SecondFactorSwitch useRecovery={useRecovery} onSwitch={() => { failure.clear(); setUseRecovery(!useRecovery); }} />
          <Button fill="none" size="small" onClick={onBack}>{t`Back`}</Button>
        </div>
      </>}>
      <p style={{ margin: '0 16px 8px', color: 'var(--adm-color-weak)' }}>
        {useRecovery
          ? t`Enter one of the recovery codes you saved when you bound Google Authenticator. Each works once.`
          : t`Open Google Authenticator and enter the 6-digit code for Bourse.`}
      </p>
      <SecondFactorField useRecovery={useRecovery} />
    </Form>
  );
}
