// The country picker and the phone field (issue 8, points 10 and 15): the current country first
// and marked, search, a close button and Escape, an empty state; the code button left of the number.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { Form } from 'antd-mobile';
import { activateLocale, i18n } from '../../src/lib/i18n.ts';
import { prepareAccountTexts } from '../../src/lib/catalogs.ts';
import { CountryPicker } from '../../src/components/CountryPicker.tsx';
import { countries } from '../../src/lib/countries.ts';
import { CountryCodeInput } from '../../src/features/auth/fields.tsx';
import { userSlice } from '../../src/entities/session/userSlice.ts';

afterEach(async () => {
  cleanup();
  await activateLocale('en-us');
});

function renderPicker(selected?: string) {
  const onClose = vi.fn();
  const onSelect = vi.fn();
  render(
    <I18nProvider i18n={i18n}>
      <CountryPicker visible onClose={onClose} onSelect={onSelect} selected={selected} />
    </I18nProvider>,
  );
  const dialog = screen.getByRole('dialog');
  const rows = () => within(dialog).queryAllByRole('button').filter((button) => button.classList.contains('country-row'));
  return { dialog, rows, onClose, onSelect };
}

describe('CountryPicker', () => {
  it('lists every country, the current one first and marked for sight and for assistive technology', () => {
    const { dialog, rows } = renderPicker('GB');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByRole('dialog', { name: 'Country or region' })).toBe(dialog);
    expect(rows()).toHaveLength(countries.length);
    const [first, second] = rows();
    expect(first.textContent).toBe('🇬🇧United Kingdom+44✓');
    expect(first.getAttribute('aria-current')).toBe('true');
    expect(second.getAttribute('aria-current')).toBeNull();
    expect(rows().filter((row) => row.getAttribute('aria-current'))).toHaveLength(1);
  });

  it('searches by calling code and by name, says when nothing matches, and hands back the choice', () => {
    const { dialog, rows, onSelect, onClose } = renderPicker('US');
    const search = within(dialog).getByRole('searchbox', { name: 'Search countries' });
    fireEvent.change(search, { target: { value: '+44' } });
    expect(rows().map((row) => row.textContent)).toEqual([
      '🇬🇧United Kingdom+44', '🇬🇬Guernsey+44', '🇮🇲Isle of Man+44', '🇯🇪Jersey+44',
    ]);
    fireEvent.change(search, { target: { value: 'zzz' } });
    expect(rows()).toHaveLength(0);
    expect(within(dialog).getByRole('status').textContent).toBe('No matching country.');
    fireEvent.change(search, { target: { value: 'japan' } });
    fireEvent.click(rows()[0]);
    expect(onSelect).toHaveBeenCalledWith({ country_code: 'JP', english_name: 'Japan', chinese_name: '日本', phone_code: '81' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes with its close button and with Escape', () => {
    const { dialog, onClose } = renderPicker();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('names the countries and speaks its labels in the language of the page', async () => {
    await activateLocale('ko');
    await prepareAccountTexts();
    const { dialog, rows } = renderPicker('KR');
    expect(screen.getByRole('dialog', { name: '국가 또는 지역' })).toBe(dialog);
    expect(rows()[0].textContent).toBe('🇰🇷대한민국+82✓');
    fireEvent.change(within(dialog).getByRole('searchbox', { name: '국가 검색' }), { target: { value: '영국' } });
    expect(rows()[0].textContent).toBe('🇬🇧영국+44');
    expect(within(dialog).getByRole('button', { name: '닫기' })).toBeTruthy();
  });
});

describe('CountryCodeInput', () => {
  function renderField(withCountryCode?: boolean) {
    const store = configureStore({ reducer: { user: userSlice.reducer } });
    render(
      <Provider store={store}>
        <I18nProvider i18n={i18n}>
          <Form>
            <Form.Item name="account" label="Mobile">
              <CountryCodeInput withCountryCode={withCountryCode} placeholder="Mobile" />
            </Form.Item>
          </Form>
        </I18nProvider>
      </Provider>,
    );
    return store;
  }

  it('puts the code button before the number, labelled with the country, and opens the picker', async () => {
    renderField();
    const button = screen.getByRole('button', { name: 'Country code: United States +1. Change' });
    const input = screen.getByRole('textbox', { name: 'Mobile' });
    expect(button.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(button.parentElement).toBe(input.closest('.country-code-input'));
    await act(async () => {
      fireEvent.click(button);
    });
    expect(await screen.findByRole('dialog', { name: 'Country or region' })).toBeTruthy();
    expect(button.getAttribute('aria-expanded')).toBe('true');
  });

  it('shows no button while the field does not hold a phone number', () => {
    renderField(false);
    expect(screen.queryByRole('button', { name: /Country code/ })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Mobile' })).toBeTruthy();
  });
});
