// Passkeys in the security centre (issue 11): the account's passkeys listed (name, added, last
// used or never, synced), adding one through the real @simplewebauthn/browser with the browser's
// navigator.credentials.create stubbed (the options decoded for the browser, the attestation sent
// to register with the name typed), removing one only after the confirmation, and what a closed
// passkey sheet or an already registered device says. There is no rename in this section.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import { paths, requestTimeField } from '../../src/api/contract/paths.ts';
import { passkeyPaths, type PasskeyInfo } from '../../src/api/contract/security.ts';
import { PasskeysSection } from '../../src/features/security/PasskeysSection.tsx';

const feedback = vi.hoisted(() => ({
  confirm: vi.fn(async (_options: { title?: unknown }) => true), toast: vi.fn(async (_text: string) => undefined),
}));
vi.mock('../../src/components/feedback.tsx', () => ({
  confirmDialog: feedback.confirm, showToast: feedback.toast, alertDialog: vi.fn(async () => undefined),
}));
vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const passkey = (id: string, name: string, more: Partial<PasskeyInfo> = {}): PasskeyInfo => ({
  id, name, createdAt: Date.UTC(2026, 10, 20, 12), lastUsedAt: Date.UTC(2026, 10, 22, 12), backedUp: false, deviceType: 'singleDevice', ...more,
});

interface Call { path: string; body: Record<string, unknown> }
let calls: Call[] = [];
let stored: PasskeyInfo[] = [];
/** The proof registerOptions asks for (none: the session suffices), and the password it takes. */
let proofNeeded: 'password' | 'google' | undefined;
const rightPassword = 'Secret123pass';

/** A server holding `stored`: register adds one named as asked, remove takes one away. */
function serve() {
  calls = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(String(url), 'https://bourse.test').pathname.replace(/^\/api/, '');
    const parsed = typeof init?.body === 'string' && init.body.startsWith('{') ? JSON.parse(init.body) as Record<string, unknown> : {};
    const { [requestTimeField]: _time, ...body } = parsed;
    calls.push({ path, body });
    const ok = (result: unknown) => new Response(JSON.stringify({ success: true, code: 200, message: '', result, timestamp: 0 }), { status: 200 });
    if (path === paths.publicKey) return ok('PEM');
    if (path === passkeyPaths.list) return ok(stored);
    const refuse = (error: string) => new Response(JSON.stringify({ success: false, code: 400, message: error, result: { error }, timestamp: 0 }),
      { status: 200 });
    if (path === passkeyPaths.registerOptions && proofNeeded === 'password') {
      if (body.password === undefined) return refuse('password_required');
      if (body.password !== rightPassword) return refuse('credentials_invalid');
    }
    if (path === passkeyPaths.registerOptions && proofNeeded === 'google' && body.googleCode !== '123456') return refuse('google_code_required');
    if (path === passkeyPaths.registerOptions) {
      return ok({
        challengeId: 'reg-7', options: {
          challenge: 'Y2hhbGxlbmdl', rp: { name: 'Bourse', id: 'localhost' },
          user: { id: 'dXNlci0x', name: 'someone@example.com', displayName: 'someone@example.com' },
          pubKeyCredParams: [{ type: 'public-key', alg: -7 }, { type: 'public-key', alg: -257 }],
          excludeCredentials: stored.map((item) => ({ id: item.id, type: 'public-key' })),
          authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        },
      });
    }
    if (path === passkeyPaths.register) {
      const added = passkey('BQYHCA', typeof body.name === 'string' ? body.name : 'Passkey', { createdAt: Date.UTC(2026, 10, 23, 9), lastUsedAt: null, backedUp: true });
      stored = [...stored, added];
      return ok(added);
    }
    if (path === passkeyPaths.remove) {
      stored = stored.filter((item) => item.id !== body.id);
      return ok(null);
    }
    throw new Error(`no answer scripted for ${path}`);
  }));
}
const sentTo = (path: string) => calls.filter((call) => call.path === path);

const bytes = (...values: number[]) => Uint8Array.from(values).buffer;
/** WebAuthn in the browser: navigator.credentials.create answers as `create` says. */
function stubWebAuthn(create: (options: CredentialCreationOptions) => Promise<unknown>) {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  const credentials = { create: vi.fn(create), get: vi.fn(async () => null) };
  Object.defineProperty(navigator, 'credentials', { value: credentials, configurable: true });
  return credentials;
}
const attestation = async () => ({
  id: 'BQYHCA', rawId: bytes(5, 6, 7, 8), type: 'public-key', authenticatorAttachment: 'platform',
  response: {
    attestationObject: bytes(1, 2, 3), clientDataJSON: bytes(4, 5),
    getTransports: () => ['internal', 'hybrid'], getPublicKeyAlgorithm: () => -7,
    getPublicKey: () => bytes(9, 9), getAuthenticatorData: () => bytes(6, 6),
  },
  getClientExtensionResults: () => ({ credProps: { rk: true } }),
});

function renderSection() {
  configureApiClient({ notify: vi.fn() });
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  render(<Provider store={store}><I18nProvider i18n={i18n}><PasskeysSection /></I18nProvider></Provider>);
}
const row = (name: string) => screen.getByText(name, { selector: '.passkeys-item-name' }).closest('li')!;

beforeEach(() => {
  feedback.confirm.mockReset().mockResolvedValue(true);
  feedback.toast.mockReset().mockResolvedValue(undefined);
  proofNeeded = undefined;
  stored = [passkey('AQIDBA', 'Laptop'), passkey('CQoLDA', 'YubiKey', { lastUsedAt: null, backedUp: true, deviceType: 'multiDevice', createdAt: Date.UTC(2026, 10, 21, 12) })];
  serve();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete (navigator as { credentials?: unknown }).credentials;
});

describe('the passkeys section', () => {
  it('lists the passkeys with when each was added and last used, and which is synced', async () => {
    stubWebAuthn(attestation);
    renderSection();
    await screen.findByText('Laptop', {}, { timeout: 5_000 });
    expect(within(row('Laptop')).getByText(/^Added Nov\s2\d,\s2026 · Last used .+$/)).toBeTruthy();
    expect(within(row('Laptop')).queryByText(/Synced/)).toBeNull();
    expect(row('YubiKey').textContent).toMatch(/Added Nov\s2\d,\s2026 · Never used · Synced/);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('says when there are none, and that a browser without WebAuthn cannot add one', async () => {
    stored = [];
    renderSection();
    expect(await screen.findByText('No passkeys yet.', {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByText('This browser does not support passkeys.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });

  it('adds a passkey: the server options go to the browser, the attestation and the name go back, and the list shows it', async () => {
    const credentials = stubWebAuthn(attestation);
    renderSection();
    await screen.findByText('Laptop', {}, { timeout: 5_000 });
    fireEvent.change(screen.getByRole('textbox', { name: 'Passkey name' }), { target: { value: '  My phone ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('My phone', {}, { timeout: 5_000 })).toBeTruthy();
    expect(feedback.toast).toHaveBeenCalledWith('Passkey added');
    expect((screen.getByRole('textbox', { name: 'Passkey name' }) as HTMLInputElement).value).toBe('');

    // What the browser was asked: the challenge and user id decoded, this account's passkeys excluded.
    const asked = credentials.create.mock.calls[0][0].publicKey!;
    expect(new TextDecoder().decode(asked.challenge as ArrayBuffer)).toBe('challenge');
    expect(new TextDecoder().decode(asked.user.id as ArrayBuffer)).toBe('user-1');
    expect(asked.excludeCredentials!.map((item) => [...new Uint8Array(item.id as ArrayBuffer)])).toEqual([[1, 2, 3, 4], [9, 10, 11, 12]]);

    const registered = sentTo(passkeyPaths.register);
    expect(registered).toHaveLength(1);
    expect(registered[0].body).toEqual({
      challengeId: 'reg-7', name: 'My phone',
      response: {
        id: 'BQYHCA', rawId: 'BQYHCA', type: 'public-key', authenticatorAttachment: 'platform', clientExtensionResults: { credProps: { rk: true } },
        response: {
          attestationObject: 'AQID', clientDataJSON: 'BAU', transports: ['internal', 'hybrid'], publicKeyAlgorithm: -7,
          publicKey: 'CQk', authenticatorData: 'BgY',
        },
      },
    });
  });

  it('asks for the password when the server wants a fresh proof, says when it is wrong, and adds the passkey with it', async () => {
    proofNeeded = 'password';
    const credentials = stubWebAuthn(attestation);
    renderSection();
    await screen.findByText('Laptop', {}, { timeout: 5_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const form = await screen.findByRole('form', { name: 'Confirm it is you' }, { timeout: 5_000 });
    expect(credentials.create).not.toHaveBeenCalled();
    const field = within(form).getAllByLabelText('Your password').find((element) => element.tagName === 'INPUT')!;
    expect(field.getAttribute('type')).toBe('password');
    fireEvent.change(field, { target: { value: 'Wrong123pass' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Confirm' }));
    expect(await within(form).findByText('The account or password is wrong.', {}, { timeout: 5_000 })).toBeTruthy();
    fireEvent.change(field, { target: { value: rightPassword } });
    fireEvent.click(within(form).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(sentTo(passkeyPaths.register)).toHaveLength(1), { timeout: 5_000 });
    expect(sentTo(passkeyPaths.registerOptions).map((call) => call.body)).toEqual([{}, { password: 'Wrong123pass' }, { password: rightPassword }]);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Confirm it is you' })).toBeNull());
    expect(feedback.toast).toHaveBeenCalledWith('Passkey added');
  });

  it('asks for the Google Authenticator code on a bound account', async () => {
    proofNeeded = 'google';
    stubWebAuthn(attestation);
    renderSection();
    await screen.findByText('Laptop', {}, { timeout: 5_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const form = await screen.findByRole('form', { name: 'Confirm it is you' }, { timeout: 5_000 });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Google Authenticator code' }), { target: { value: '123456' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(sentTo(passkeyPaths.register)).toHaveLength(1), { timeout: 5_000 });
    expect(sentTo(passkeyPaths.registerOptions).at(-1)?.body).toEqual({ googleCode: '123456' });
  });

  it('marks a passkey the server flagged as possibly copied', async () => {
    stored = [passkey('AQIDBA', 'Laptop', { flaggedAt: Date.UTC(2026, 10, 24) }), passkey('CQoLDA', 'YubiKey')];
    renderSection();
    await screen.findByText('Laptop', {}, { timeout: 5_000 });
    expect(within(row('Laptop')).getByText('This passkey may have been copied: remove it.')).toBeTruthy();
    expect(within(row('YubiKey')).queryByText(/may have been copied/)).toBeNull();
  });

  it('sends no name when none is typed', async () => {
    stubWebAuthn(attestation);
    renderSection();
    await screen.findByText('Laptop', {}, { timeout: 5_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await waitFor(() => expect(sentTo(passkeyPaths.register)).toHaveLength(1), { timeout: 5_000 });
    expect(sentTo(passkeyPaths.register)[0].body).not.toHaveProperty('name');
  });

  it('says no passkey was created when the passkey sheet is closed, and registers nothing', async () => {
    const credentials = stubWebAuthn(async () => { throw new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'); });
    renderSection();
    await screen.findByText('Laptop', {}, { timeout: 5_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('No passkey was created.', {}, { timeout: 5_000 })).toBeTruthy();
    expect(credentials.create).toHaveBeenCalledTimes(1);
    expect(sentTo(passkeyPaths.register)).toEqual([]);
    expect(feedback.toast).not.toHaveBeenCalled();
  });

  it('says when this device already holds a passkey for the account', async () => {
    stubWebAuthn(async () => { throw new DOMException('The authenticator was previously registered.', 'InvalidStateError'); });
    renderSection();
    await screen.findByText('Laptop', {}, { timeout: 5_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('This device already holds a passkey for your account.', {}, { timeout: 5_000 })).toBeTruthy();
    expect(sentTo(passkeyPaths.register)).toEqual([]);
  });

  it('removes a passkey with its id only after the confirmation', async () => {
    stubWebAuthn(attestation);
    renderSection();
    await screen.findByText('Laptop', {}, { timeout: 5_000 });

    feedback.confirm.mockResolvedValueOnce(false);
    fireEvent.click(within(row('Laptop')).getByRole('button', { name: 'Remove passkey Laptop' }));
    await waitFor(() => expect(feedback.confirm).toHaveBeenCalledTimes(1));
    expect(feedback.confirm.mock.calls[0][0].title).toBe('Remove passkey Laptop?');
    expect(sentTo(passkeyPaths.remove)).toEqual([]);
    expect(row('Laptop')).toBeTruthy();

    fireEvent.click(within(row('Laptop')).getByRole('button', { name: 'Remove passkey Laptop' }));
    await waitFor(() => expect(screen.queryByText('Laptop')).toBeNull(), { timeout: 5_000 });
    expect(feedback.confirm).toHaveBeenCalledTimes(2);
    expect(sentTo(passkeyPaths.remove).map((call) => call.body)).toEqual([{ id: 'AQIDBA' }]);
    expect(feedback.toast).toHaveBeenCalledWith('Passkey removed');
    expect(row('YubiKey')).toBeTruthy();
  });
});
