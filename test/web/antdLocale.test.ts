// antd-mobile's built-in texts and accessible labels follow the interface language (they default
// to Chinese), and a slower load for an earlier choice never overrides the latest one.
import { describe, expect, it } from 'vitest';
import { getDefaultConfig } from 'antd-mobile/es/components/config-provider/config-provider.js';
import { activateLocale } from '../../src/lib/i18n.ts';

/** antd-mobile's word for "Confirm" in its current texts. */
const antdLocale = () => (getDefaultConfig().locale as { common: { confirm: string } }).common.confirm;

describe('antd-mobile texts', () => {
  it('speak the interface language', async () => {
    await activateLocale('xi');
    await expect.poll(antdLocale).toBe('Confirmar');
    await activateLocale('ko');
    await expect.poll(antdLocale).toBe('확인');
  });

  it('end in the language chosen last when choices overlap', async () => {
    const first = activateLocale('jp');
    const second = activateLocale('en-us');
    await Promise.all([first, second]);
    await expect.poll(antdLocale).toBe('Confirm');
    // Give any late load of the first choice its chance to (wrongly) win.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(antdLocale()).toBe('Confirm');
  });
});
