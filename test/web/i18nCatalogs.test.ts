// Feature catalogs (lib/i18n.ts): a page's own catalog is merged into the active language when
// the page loads, loaded once per language, and loaded again in the new language when the
// language changes, so texts of pages already open follow the switch.
import { describe, expect, it, vi } from 'vitest';
import { activateLocale, i18n, loadFeatureCatalog, type CatalogLoader } from '../../src/lib/i18n.ts';

const fakeCatalog = vi.fn<CatalogLoader>(async (code) => ({ messages: { feature_hello: `hello in ${code}` } }));

describe('feature catalogs', () => {
  it('merges a feature catalog into the active language, once per language', async () => {
    await activateLocale('en-us');
    await loadFeatureCatalog('fake', fakeCatalog);
    expect(i18n._('feature_hello')).toBe('hello in en-us');
    await loadFeatureCatalog('fake', fakeCatalog);
    expect(fakeCatalog).toHaveBeenCalledOnce();
  });

  it('loads the feature catalogs again when the language changes, beside the main catalog', async () => {
    await activateLocale('ko');
    expect(fakeCatalog).toHaveBeenLastCalledWith('ko');
    expect(i18n.locale).toBe('ko');
    expect(i18n._('feature_hello')).toBe('hello in ko');
    // The main catalog is there too: a text of the shell in Korean.
    expect(Object.keys(i18n.messages).length).toBeGreaterThan(50);
    await loadFeatureCatalog('fake', fakeCatalog);
    expect(fakeCatalog).toHaveBeenCalledTimes(2);
  });

  it('loads the real market catalog of every page that needs it', async () => {
    const { prepareMarketTexts } = await import('../../src/entities/market/catalog.ts');
    const locale = 'jp';
    await activateLocale(locale);
    await prepareMarketTexts();
    const { messages } = await import(`../../src/locales/${locale}/market.po`) as { messages: Record<string, unknown> };
    for (const id of Object.keys(messages)) expect(i18n.messages[id], id).toBeDefined();
  });
});
