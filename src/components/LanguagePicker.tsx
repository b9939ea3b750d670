import { CheckList, Popup } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { activateLocale } from '../lib/i18n.ts';
import { locales, type LocaleCode } from '../lib/locales.ts';

/** The language picker: the ten languages, each named in itself. */
export function LanguagePicker({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { t, i18n } = useLingui();
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} position="bottom"
      bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12, maxHeight: '80vh', overflowY: 'auto' }}>
      <h2 className="popup-title">{t`Language`}</h2>
      <CheckList value={[i18n.locale]} aria-label={t`Language`}
        onChange={async (value) => {
          const chosen = value[0] as LocaleCode | undefined;
          if (chosen) await activateLocale(chosen);
          onClose();
        }}>
        {locales.map((locale) => (
          <CheckList.Item key={locale.value} value={locale.value} aria-label={locale.text}>
            <span aria-hidden="true" className="language-icon">{locale.icon}</span> <span lang={locale.intl}>{locale.text}</span>
          </CheckList.Item>
        ))}
      </CheckList>
    </Popup>
  );
}
