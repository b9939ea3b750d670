// The other ways to log in under the login form (issue 11), against a scripted server and stubbed
// browser APIs: the wallet button only with an injected wallet (window.ethereum), which it asks for
// the account and chain, then the server for the nonce, then has the wallet sign the EIP-4361
// message and logs in with it (a refused signature, code 4001, is said plainly); one OIDC button
// per provider the server lists, none without providers; the passkey button only where WebAuthn
// exists, its ceremony going through the real @simplewebauthn/browser to navigator.credentials.get.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { configureApiClient } from '../../src/api/api.ts';
import { paths, requestTimeField } from '../../src/api/contract/paths.ts';
import { externalLoginPaths, passkeyPaths, type OidcProvider } from '../../src/api/contract/security.ts';
import { utf8Hex } from '../../src/entities/session/walletSignIn.ts';
import { OtherLogins } from '../../src/features/auth/OtherLogins.tsx';
import { testStore } from './testStore.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

interface Call { path: string; method: string; search: URLSearchParams; body: Record<string, unknown> }
let calls: Call[] = [];
let providers: OidcProvider[] = [];
const nonceFields = {
  nonce: 'k3Jq9xY2pLm7', domain: 'bourse.test', uri: 'https://bourse.test', chainId: 137, version: '1',
  statement: 'Log in to Bourse.', issuedAt: '2026-11-23T08:00:00.000Z', expirationTime: '2026-11-23T08:05:00.000Z',
};

function serve() {
  calls = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const where = new URL(String(url), 'https://bourse.test');
    const path = where.pathname.replace(/^\/api/, '');
    const parsed = typeof init?.body === 'string' && init.body.startsWith('{') ? JSON.parse(init.body) as Record<string, unknown> : {};
    const { [requestTimeField]: _time, ...body } = parsed;
    calls.push({ path, method: init?.method ?? 'GET', search: where.searchParams, body });
    const ok = (result: unknown) => new Response(JSON.stringify({ success: true, code: 200, message: '', result, timestamp: 0 }), { status: 200 });
    if (path === paths.publicKey) return ok('PEM');
    if (path === externalLoginPaths.oidcProviders) return ok(providers);
    if (path === externalLoginPaths.oidcStart) return ok({ authorizationUrl: `${window.location.href.split('#')[0]}#/provider-sign-in?state=s1` });
    if (path === externalLoginPaths.siweNonce) return ok(nonceFields);
    if (path === externalLoginPaths.siweLogin) return ok({ token: 'token-from-wallet' });
    if (path === passkeyPaths.loginOptions) {
      return ok({ challengeId: 'ch-42', options: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'preferred', allowCredentials: [] } });
    }
    if (path === passkeyPaths.login) return ok({ token: 'token-from-passkey' });
    if (path === paths.myUserInfo) return ok({ id: '1001', account: '0xabc', accountType: 'wallet' });
    throw new Error(`no answer scripted for ${path}`);
  }));
}
const sentTo = (path: string) => calls.filter((call) => call.path === path);

function Landed() {
  const location = useLocation();
  return <p data-testid="landed">{location.pathname}</p>;
}

function renderLogins() {
  configureApiClient({ notify: vi.fn() });
  const store = testStore();
  render(<Provider store={store}><I18nProvider i18n={i18n}>
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route path="/login" element={<OtherLogins />} />
        <Route path="/home" element={<Landed />} />
      </Routes>
    </MemoryRouter>
  </I18nProvider></Provider>);
  return store;
}

// ── An injected wallet (EIP-1193) ──
const address = '0x52908400098527886E0F7030069857D2E4169EE7';
const signature = `0x${'ab'.repeat(65)}`;
function injectWallet(sign: (hex: string) => Promise<string> = async () => signature) {
  const requests: { method: string; params?: unknown[] }[] = [];
  vi.stubGlobal('ethereum', {
    request: vi.fn(async (args: { method: string; params?: unknown[] }) => {
      requests.push(args);
      if (args.method === 'eth_requestAccounts') return [address];
      if (args.method === 'eth_chainId') return '0x89';
      if (args.method === 'personal_sign') return sign(String(args.params?.[0]));
      throw Object.assign(new Error('unsupported'), { code: 4200 });
    }),
  });
  return requests;
}
const hexText = (hex: string) => new TextDecoder().decode(Uint8Array.from(hex.slice(2).match(/../g)!, (pair) => Number.parseInt(pair, 16)));

// ── WebAuthn ──
function stubWebAuthn(get: (options: CredentialRequestOptions) => Promise<unknown>) {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  const credentials = { get: vi.fn(get), create: vi.fn(async () => null) };
  Object.defineProperty(navigator, 'credentials', { value: credentials, configurable: true });
  return credentials;
}
const bytes = (...values: number[]) => Uint8Array.from(values).buffer;

beforeEach(() => {
  providers = [];
  serve();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete (navigator as { credentials?: unknown }).credentials;
  window.location.hash = '';
});

describe('log in with a wallet', () => {
  it('is not offered without a wallet in the browser', async () => {
    renderLogins();
    await waitFor(() => expect(sentTo(externalLoginPaths.oidcProviders)).toHaveLength(1));
    expect(screen.getByRole('region', { name: 'Other ways to log in' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Log in with a wallet' })).toBeNull();
  });

  it('asks for the nonce on the wallet chain, has the EIP-4361 message signed and logs in with it', async () => {
    const requests = injectWallet();
    const store = renderLogins();
    fireEvent.click(screen.getByRole('button', { name: 'Log in with a wallet' }));
    expect((await screen.findByTestId('landed', {}, { timeout: 5_000 })).textContent).toBe('/home');
    expect(store.getState().user.token).toBe('token-from-wallet');

    const nonces = sentTo(externalLoginPaths.siweNonce);
    expect(nonces).toHaveLength(1);
    expect(nonces[0].search.get('chainId')).toBe('137');
    expect(requests.map((request) => request.method)).toEqual(['eth_requestAccounts', 'eth_chainId', 'personal_sign']);
    const [signedHex, signer] = requests[2].params as [string, string];
    expect(signer).toBe(address);
    const message = hexText(signedHex);
    const lines = message.split('\n');
    expect(lines[0]).toBe('bourse.test wants you to sign in with your Ethereum account:');
    expect(lines[1]).toBe(address);
    expect(lines).toContain('URI: https://bourse.test');
    expect(lines).toContain('Version: 1');
    expect(lines).toContain('Chain ID: 137');
    expect(lines).toContain('Nonce: k3Jq9xY2pLm7');
    expect(lines).toContain('Issued At: 2026-11-23T08:00:00.000Z');
    expect(lines).toContain('Expiration Time: 2026-11-23T08:05:00.000Z');
    expect(utf8Hex(message)).toBe(signedHex);

    const logins = sentTo(externalLoginPaths.siweLogin);
    expect(logins).toHaveLength(1);
    expect(logins[0].method).toBe('POST');
    expect(logins[0].body).toEqual({ message, signature });
  });

  it('says so when the user refuses to sign, and logs nothing in', async () => {
    injectWallet(async () => { throw Object.assign(new Error('User rejected the request.'), { code: 4001 }); });
    const store = renderLogins();
    fireEvent.click(screen.getByRole('button', { name: 'Log in with a wallet' }));
    const alert = await screen.findByText('The wallet did not sign. Try again, or log in another way.', {}, { timeout: 5_000 });
    expect(alert).toBeTruthy();
    expect(sentTo(externalLoginPaths.siweLogin)).toEqual([]);
    expect(store.getState().user.token).toBe('');
    expect(screen.queryByTestId('landed')).toBeNull();
  });
});

describe('log in with a provider (OpenID Connect)', () => {
  it('offers one button per provider the server lists, and starts the flow with the one chosen', async () => {
    providers = [{ id: 'google', name: 'Google' }, { id: 'keycloak', name: 'Company SSO' }];
    renderLogins();
    const google = await screen.findByRole('button', { name: 'Continue with Google' }, { timeout: 5_000 });
    expect(screen.getByRole('button', { name: 'Continue with Company SSO' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Continue with / })).toHaveLength(2);

    fireEvent.click(google);
    // The browser leaves for the provider's address (here a fragment of this page: the one navigation jsdom performs).
    await waitFor(() => expect(window.location.hash).toBe('#/provider-sign-in?state=s1'), { timeout: 5_000 });
    const starts = sentTo(externalLoginPaths.oidcStart);
    expect(starts).toHaveLength(1);
    expect(starts[0].body).toEqual({ provider: 'google' });
  });

  it('shows no provider button when the server lists none', async () => {
    renderLogins();
    await waitFor(() => expect(sentTo(externalLoginPaths.oidcProviders)).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Other ways to log in' }).textContent).toBe(''));
    expect(screen.queryByRole('button', { name: /^Continue with / })).toBeNull();
  });
});

describe('log in with a passkey', () => {
  it('is not offered where the browser has no WebAuthn', async () => {
    renderLogins();
    await waitFor(() => expect(sentTo(externalLoginPaths.oidcProviders)).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Log in with a passkey' })).toBeNull();
  });

  it('signs the server challenge with a passkey the device offers and logs in', async () => {
    const credentials = stubWebAuthn(async () => ({
      id: 'AQIDBA', rawId: bytes(1, 2, 3, 4), type: 'public-key', authenticatorAttachment: 'platform',
      response: { authenticatorData: bytes(5, 6), clientDataJSON: bytes(7, 8), signature: bytes(9, 10), userHandle: bytes(11) },
      getClientExtensionResults: () => ({}),
    }));
    const store = renderLogins();
    fireEvent.click(await screen.findByRole('button', { name: 'Log in with a passkey' }, { timeout: 5_000 }));
    expect((await screen.findByTestId('landed', {}, { timeout: 5_000 })).textContent).toBe('/home');
    expect(store.getState().user.token).toBe('token-from-passkey');
    const asked = credentials.get.mock.calls[0][0].publicKey!;
    expect(new TextDecoder().decode(asked.challenge as ArrayBuffer)).toBe('challenge');
    expect(asked.rpId).toBe('localhost');
    expect(sentTo(passkeyPaths.login)[0].body).toEqual({
      challengeId: 'ch-42',
      response: {
        id: 'AQIDBA', rawId: 'AQIDBA', type: 'public-key', authenticatorAttachment: 'platform', clientExtensionResults: {},
        response: { authenticatorData: 'BQY', clientDataJSON: 'Bwg', signature: 'CQo', userHandle: 'Cw' },
      },
    });
  });

  it('says no passkey was used when the system sheet is closed', async () => {
    stubWebAuthn(async () => { throw new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'); });
    const store = renderLogins();
    fireEvent.click(await screen.findByRole('button', { name: 'Log in with a passkey' }, { timeout: 5_000 }));
    expect(await screen.findByText('No passkey was used. Try again, or log in another way.', {}, { timeout: 5_000 })).toBeTruthy();
    expect(sentTo(passkeyPaths.login)).toEqual([]);
    expect(store.getState().user.token).toBe('');
  });
});
