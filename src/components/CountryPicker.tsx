// The country picker of the phone field and of the personal data: every country with a calling
// code (lib/countries.ts), named in the current language, with its flag and code, searchable by
// name (current language or English), ISO code or calling code. The current country is listed
// first and marked. A dialog for assistive technology: it takes the focus when it opens, gives it
// back when it closes, and Escape, the close button or the mask close it.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Popup } from 'antd-mobile';
import { CloseOutline } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { countryFlag, namedCountries, searchCountries, type CountryInfo, type NamedCountry } from '../lib/countries.ts';
import { intlOf } from '../lib/locales.ts';
import './CountryPicker.css';

export function CountryPicker({ visible, onClose, onSelect, selected }: {
  visible: boolean; onClose: () => void; onSelect: (country: CountryInfo) => void;
  /** The ISO code of the country chosen now ("US"): listed first and marked. */
  selected?: string;
}) {
  const { t, i18n } = useLingui();
  const [query, setQuery] = useState('');
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const opener = useRef<Element | null>(null);
  const named = useMemo(() => namedCountries(intlOf(i18n.locale)), [i18n.locale]);
  const shown = useMemo(() => currentFirst(searchCountries(named, query), selected), [named, query, selected]);

  // The parent may pass a new onClose on every render; the key listener reads the latest.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (!visible) return;
    opener.current = document.activeElement;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      closeRef.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [visible]);

  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} position="bottom" bodyClassName="country-picker"
      afterShow={() => {
        // Into the dialog, unless the person already tapped into it (the search field) meanwhile.
        if (!dialogRef.current?.contains(document.activeElement)) dialogRef.current?.focus({ preventScroll: true });
      }}
      afterClose={() => {
        // The next opening starts over: the whole list, from the top (the current country).
        setQuery('');
        if (listRef.current) listRef.current.scrollTop = 0;
        if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus({ preventScroll: true });
      }}>
      <div className="country-picker-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} ref={dialogRef}>
        <div className="country-picker-header">
          <h2 id={titleId} className="country-picker-title">{t`Country or region`}</h2>
          <button type="button" className="country-picker-close" aria-label={t`Close`} onClick={onClose}>
            <CloseOutline aria-hidden="true" />
          </button>
        </div>
        <div className="country-picker-search">
          <input type="search" value={query} onChange={(event) => setQuery(event.target.value)}
            placeholder={t`Name, code or +44`} aria-label={t`Search countries`} enterKeyHint="search"
            autoComplete="off" autoCorrect="off" spellCheck={false} />
        </div>
        <div className="country-picker-scroll" ref={listRef}>
          {shown.length > 0 ? (
            <ul className="country-list" aria-label={t`Countries and regions`}>
              {shown.map(({ country, name }) => (
                <CountryRow key={country.country_code} country={country} name={name}
                  current={country.country_code === selected}
                  onChoose={() => {
                    onSelect(country);
                    onClose();
                  }} />
              ))}
            </ul>
          ) : (
            <p className="country-picker-empty" role="status">{t`No matching country.`}</p>
          )}
        </div>
      </div>
    </Popup>
  );
}

function CountryRow({ country, name, current, onChoose }: {
  country: CountryInfo; name: string; current: boolean; onChoose: () => void;
}) {
  return (
    <li>
      <button type="button" className="country-row" aria-current={current ? 'true' : undefined} onClick={onChoose}>
        <span className="country-row-flag" aria-hidden="true">{countryFlag(country.country_code)}</span>
        <span className="country-row-name">{name}</span>
        <span className="country-row-code">+{country.phone_code}</span>
        <span className="country-row-mark" aria-hidden="true">{current ? '✓' : ''}</span>
      </button>
    </li>
  );
}

/** The list with the current country moved to the top, where the picker opens. */
function currentFirst(list: NamedCountry[], selected: string | undefined): NamedCountry[] {
  const index = selected ? list.findIndex((item) => item.country.country_code === selected) : -1;
  return index > 0 ? [list[index], ...list.slice(0, index), ...list.slice(index + 1)] : list;
}
