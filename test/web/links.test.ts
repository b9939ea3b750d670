// External links (spec §2): mode 1 does nothing, 2 navigates directly, 4 opens the in-app
// outside-link page with the encoded target in its url query parameter. Only http(s) targets
// are ever followed, so a link from the server cannot run script in the app.
import { describe, expect, it } from 'vitest';
import { isSafeExternalUrl, linkAction, type LinkMode } from '../../src/lib/links.ts';

const target = 'https://example.com/promo?a=1&b=two words#part';

describe('linkAction', () => {
  it('mode 1 does nothing', () => {
    expect(linkAction(1, target)).toEqual({ kind: 'none' });
  });

  it('mode 2 navigates straight to the target', () => {
    expect(linkAction(2, target)).toEqual({ kind: 'navigate', url: target });
    expect(linkAction(2, 'http://example.com/')).toEqual({ kind: 'navigate', url: 'http://example.com/' });
  });

  it('mode 4 opens the outside-link page with the target encoded in its url parameter', () => {
    const action = linkAction(4, target);
    expect(action).toEqual({ kind: 'outlink', path: `/outlink?url=${encodeURIComponent(target)}` });
    if (action.kind !== 'outlink') throw new Error('expected an outlink action');
    const query = new URLSearchParams(action.path.split('?')[1]);
    expect([...query.keys()]).toEqual(['url']);
    expect(query.get('url')).toBe(target);
  });

  it('refuses javascript: URLs in every mode', () => {
    const attacks = ['javascript:alert(1)', 'JavaScript:alert(document.cookie)', '  javascript:alert(1)', 'java\tscript:alert(1)'];
    for (const mode of [1, 2, 4] as LinkMode[]) {
      for (const url of attacks) expect(linkAction(mode, url), `${mode} ${url}`).toEqual({ kind: 'none' });
    }
  });

  it('refuses other schemes and text that is not an absolute URL', () => {
    for (const url of ['data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'file:///etc/passwd', '', 'not a url']) {
      expect(linkAction(2, url), url).toEqual({ kind: 'none' });
      expect(linkAction(4, url), url).toEqual({ kind: 'none' });
    }
  });
});

describe('isSafeExternalUrl', () => {
  it('accepts http and https only', () => {
    expect(isSafeExternalUrl('https://example.com')).toBe(true);
    expect(isSafeExternalUrl('HTTP://EXAMPLE.COM/path')).toBe(true);
    expect(isSafeExternalUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeExternalUrl('mailto:help@example.com')).toBe(false);
    expect(isSafeExternalUrl('/relative/path')).toBe(false);
  });
});
