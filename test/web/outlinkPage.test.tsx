// The outside-link page (/outlink?url=…): a web address is named (its host and the whole address)
// with Continue and Back; anything else is refused with a fixed text, and the refused text itself
// never appears, so a crafted link cannot put its own words into the app's page.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import OutlinkPage from '../../src/features/outlink/OutlinkPage.tsx';

function renderAt(url: string) {
  return render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={[`/outlink?url=${encodeURIComponent(url)}`]}>
        <Routes><Route path="/outlink" element={<OutlinkPage />} /></Routes>
      </MemoryRouter>
    </I18nProvider>,
  );
}

describe('OutlinkPage', () => {
  afterEach(cleanup);

  it('names the site of a web address and offers to continue', () => {
    renderAt('https://example.com/promo?a=1');
    expect(screen.getByText('example.com')).toBeTruthy();
    expect(screen.getByText('https://example.com/promo?a=1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
  });

  it('refuses anything else with a fixed text and never echoes what it was given', () => {
    for (const given of [
      'Your account is frozen, call +1 555 0100 to unlock it',
      'javascript:alert("Your account is frozen")',
      'data:text/html,Your account is frozen',
    ]) {
      const { container } = renderAt(given);
      expect(screen.getByText('This link cannot be opened.')).toBeTruthy();
      expect(screen.getByText('Only links to websites (http or https addresses) can be opened from the app.')).toBeTruthy();
      expect(container.textContent).not.toContain('frozen');
      expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
      cleanup();
    }
  });
});
