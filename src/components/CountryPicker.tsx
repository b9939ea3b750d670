import { useMemo, useState } from 'react';
import { List, Popup, SearchBar } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { countries, countryName, type CountryInfo } from '../lib/countries.ts';
import { locales } from '../lib/locales.ts';

/** The country picker with calling codes, searchable by name in the current language or by code. */
export function CountryPicker({ visible, onClose, onSelect }: {
  visible: boolean; onClose: () => void; onSelect: (country: CountryInfo) => void;
}) {
  const { t, i18n } = useLingui();
  const [query, setQuery] = useState('');
  const intl = locales.find((locale) => locale.value === i18n.locale)?.intl ?? 'en-US';
  const named = useMemo(() => countries.map((country) => ({ country, name: countryName(country, intl) }))
    .sort((a, b) => a.name.localeCompare(b.name, intl)), [intl]);
  const needle = query.trim().toLowerCase().replace(/^\+/, '');
  const shown = needle ? named.filter(({ country, name }) => name.toLowerCase().includes(needle)
    || country.english_name.toLowerCase().includes(needle) || country.phone_code.startsWith(needle)) : named;
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} position="bottom"
      bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12, height: '75vh', display: 'flex', flexDirection: 'column' }}>
      <h2 className="popup-title">{t`Country or region`}</h2>
      <div className="popup-search">
        <SearchBar placeholder={t`Search`} value={query} onChange={setQuery} aria-label={t`Search countries`} />
      </div>
      <div className="popup-scroll">
        <List>
          {shown.map(({ country, name }) => (
            <List.Item key={country.country_code} extra={`+${country.phone_code}`}
              onClick={() => {
                onSelect(country);
                onClose();
              }}>
              {name}
            </List.Item>
          ))}
        </List>
        {shown.length === 0 && <p className="empty-note">{t`No matching country.`}</p>}
      </div>
    </Popup>
  );
}
