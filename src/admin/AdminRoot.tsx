// The back office's frame: antd in the operator's language, the login screen or the signed-in
// layout (a side menu of screens, the operator, a language select and log out in the header).
import { useEffect, useState, type ReactNode } from 'react';
import { I18nProvider } from '@lingui/react';
import { useLingui } from '@lingui/react/macro';
import { App as AntApp, Button, ConfigProvider, Layout, Menu, Select, Space, Tag, Typography } from 'antd';
import type { Locale } from 'antd/es/locale';
import { useSelector } from 'react-redux';
import { useReducedMotion } from '../lib/reducedMotion.ts';
import { locales, type LocaleCode } from '../lib/locales.ts';
import { useLogoutMutation, useMeQuery } from './api.ts';
import { activateAdminLocale, i18n } from './i18n.ts';
import { LoginScreen } from './LoginScreen.tsx';
import { sections, type SectionKey } from './sections.tsx';
import { logOut, type AdminState, type AdminStore } from './store.ts';
import { configureTransport } from './transport.ts';

/** The language select of the header and of the login screen. */
export function LanguageSelect({ value, onChange }: { value: LocaleCode; onChange(code: LocaleCode): void }) {
  const { t } = useLingui();
  return (
    <Select<LocaleCode> aria-label={t`Language`} value={value} onChange={onChange} style={{ width: 190 }}
      options={locales.map((locale) => ({ value: locale.value, label: locale.text }))} data-testid="admin-lang" />
  );
}

/** Failures that no screen shows in place (a list that did not load) go to antd's message. */
function NotifyBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => configureTransport({ notify: (text) => void message.error(text) }), [message]);
  return null;
}

const sectionFromHash = (): SectionKey => {
  const key = window.location.hash.replace(/^#\/?/, '');
  return (sections.some((section) => section.key === key) ? key : 'deposits') as SectionKey;
};

function Shell({ store, language }: { store: AdminStore; language: ReactNode }) {
  const { t } = useLingui();
  const [section, setSection] = useState<SectionKey>(sectionFromHash);
  const { data: me } = useMeQuery();
  const [logout, { isLoading: loggingOut }] = useLogoutMutation();
  useEffect(() => {
    const onHash = () => setSection(sectionFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const visible = sections;
  const current = visible.find((item) => item.key === section) ?? visible[0];
  const Screen = current.Screen;
  const roleText = me?.role === 'admin' ? t`Administrator` : t`Finance`;
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider width={220} breakpoint="lg" collapsedWidth={0}>
        <div className="admin-brand">{t`Bourse back office`}</div>
        <Menu theme="dark" mode="inline" selectedKeys={[current.key]}
          items={visible.map((item) => ({ key: item.key, label: i18n._(item.label) }))}
          onClick={({ key }) => {
            window.location.hash = `#/${key}`;
            setSection(key as SectionKey);
          }} />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="admin-header">
          <h1>{i18n._(current.label)}</h1>
          {me && (
            <Space>
              <Typography.Text data-testid="admin-operator">{me.email}</Typography.Text>
              <Tag color={me.role === 'admin' ? 'blue' : 'green'}>{roleText}</Tag>
            </Space>
          )}
          {language}
          <Button loading={loggingOut} onClick={async () => {
            await logout();
            logOut(store, false);
          }}>{t`Log out`}</Button>
        </Layout.Header>
        <Layout.Content className="admin-content">
          <Screen />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

export function AdminRoot({ store, initialLocale, initialAntdLocale }: {
  store: AdminStore; initialLocale: LocaleCode; initialAntdLocale: Locale;
}) {
  const [code, setCode] = useState(initialLocale);
  const [antdLocale, setAntdLocale] = useState(initialAntdLocale);
  const token = useSelector((state: AdminState) => state.session.token);
  const reducedMotion = useReducedMotion();
  const changeLanguage = async (next: LocaleCode) => {
    const loaded = await activateAdminLocale(next);
    setAntdLocale(loaded);
    setCode(next);
  };
  const language = <LanguageSelect value={code} onChange={(next) => void changeLanguage(next)} />;
  return (
    <I18nProvider i18n={i18n}>
      <ConfigProvider locale={antdLocale} theme={{ token: { colorPrimary: '#0b3d91', motion: !reducedMotion } }}>
        <AntApp>
          <NotifyBridge />
          {token ? <Shell key={code} store={store} language={language} /> : <LoginScreen store={store} language={language} />}
        </AntApp>
      </ConfigProvider>
    </I18nProvider>
  );
}
