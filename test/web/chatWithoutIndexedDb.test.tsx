// The chat page when the device's IndexedDB fails (issue 33): the database refuses to open (a
// private mode, a denied permission, a broken profile) or opening throws at once. The device's
// storage (lib/storage.ts) says so once and keeps the chat's copy in memory, so the page still
// loads the conversation from the server, sends a message, and shows what it kept when it is
// opened again with the server unreachable. Before, the page's load of its copy had no catch: it
// showed nothing and never asked the server.
import { createDecipheriv, webcrypto } from 'node:crypto';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import type { ChatHistory, ChatMessage } from '../../src/api/contract/chat.ts';
import { chatPaths } from '../../src/api/contract/chat.ts';

/**
 * The server's key pair: the page fetches the public key and seals its POST bodies with it, the
 * fake server opens them as the real one does (RSA-OAEP unwraps the AES key, AES-256-ECB the body).
 */
const { subtle } = webcrypto;
let keys: CryptoKeyPair;
let publicPem: string;
beforeAll(async () => {
  keys = await subtle.generateKey({ name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true, ['encrypt', 'decrypt']);
  const spki = Buffer.from(await subtle.exportKey('spki', keys.publicKey)).toString('base64');
  publicPem = `-----BEGIN PUBLIC KEY-----\n${spki.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
});

async function openBody(sealed: string): Promise<Record<string, unknown>> {
  const [wrappedKey, ciphertext] = sealed.split('.');
  const keyText = new TextDecoder().decode(await subtle.decrypt({ name: 'RSA-OAEP' }, keys.privateKey, Buffer.from(wrappedKey, 'base64')));
  const decipher = createDecipheriv('aes-256-ecb', Buffer.from(keyText, 'utf8'), null);
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8')) as Record<string, unknown>;
}

type Failure = 'open-fails' | 'open-throws';

/** An IndexedDB whose every open fails: the request's error event, or an exception at once. */
function failingIndexedDb(failure: Failure) {
  return {
    open: vi.fn(() => {
      if (failure === 'open-throws') throw new DOMException('The operation is insecure.', 'SecurityError');
      const request: Partial<IDBOpenDBRequest> & { error: DOMException } = { error: new DOMException('Permission denied', 'UnknownError') };
      setTimeout(() => (request.onerror as ((event: Event) => void) | null | undefined)?.(new Event('error')), 0);
      return request;
    }),
  };
}

const userId = '42';
const conversationId = 'c-100';
const at = Date.UTC(2026, 10, 27, 3);
const fromUser: ChatMessage = { conversationId, seq: 1, sender: 'user', clientMessageId: 'm0000000000000001', text: 'Is my deposit in?', createdAt: at };
const fromSupport: ChatMessage = { conversationId, seq: 2, sender: 'operator', text: 'Yes, it was credited this morning.', createdAt: at + 60_000 };
const history: ChatHistory = { conversationId, messages: [fromUser, fromSupport], operatorReadSeq: 1, lastSeq: 2, status: 'open' };

/** The server: the conversation's history, duty, and a send that stores the message as seq 3. */
function serve({ up }: { up: boolean }) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const parsed = new URL(String(url), 'http://bourse.test');
    const path = parsed.pathname.replace(/^\/api/, '');
    const ok = (result: unknown) => new Response(JSON.stringify({ success: true, code: 200, message: '', result, timestamp: 0 }));
    if (path.includes('getPublicKey')) return ok(publicPem);
    calls.push(`${init?.method ?? 'GET'} ${path}`);
    if (!up) throw new TypeError('Failed to fetch');
    if (path === chatPaths.duty) return ok({ onDuty: true });
    if (path === chatPaths.history) return ok(history);
    if (path === chatPaths.read) return ok({ userReadSeq: 2 });
    if (path === chatPaths.typing) return ok(null);
    if (path === chatPaths.send) {
      const body = await openBody(String(init?.body)) as { clientMessageId: string; text: string };
      return ok({ conversationId, seq: 3, sender: 'user', clientMessageId: body.clientMessageId, text: body.text, createdAt: at + 120_000 } satisfies ChatMessage);
    }
    return ok(null);
  }));
  return calls;
}

/** The app's own store and the chat page, for a signed-in user, as the app renders them. */
async function openChatPage() {
  const [{ createAppStore }, { userInfoReceived }, { i18n }, { default: ChatPage }, { configureApiClient }] = await Promise.all([
    import('../../src/app/store.ts'), import('../../src/entities/session/userSlice.ts'), import('../../src/lib/i18n.ts'),
    import('../../src/features/chat/ChatPage.tsx'), import('../../src/api/api.ts'),
  ]);
  configureApiClient({ notify: vi.fn() });
  const { store, persistor } = createAppStore();
  await waitFor(() => expect(persistor.getState().bootstrapped).toBe(true));
  store.dispatch(userInfoReceived({ id: userId } as Parameters<typeof userInfoReceived>[0]));
  const page = () => <Provider store={store}><I18nProvider i18n={i18n}><MemoryRouter><ChatPage /></MemoryRouter></I18nProvider></Provider>;
  const view = render(page());
  return { store, persistor, view, page };
}

const messageTexts = () => screen.queryAllByTestId('chat-message').map((bubble) => within(bubble).queryByText(/./, { selector: '.chat-text' })?.textContent);

describe.each<Failure>(['open-fails', 'open-throws'])('the chat page when IndexedDB %s', (failure) => {
  let warnings: unknown[][];

  beforeEach(() => {
    vi.resetModules();
    localStorage.clear();
    localStorage.setItem('token', 'session-token');
    vi.stubGlobal('indexedDB', failingIndexedDb(failure));
    // No live channel in the jsdom: the page reads and sends over HTTP alone.
    vi.stubGlobal('WebSocket', undefined);
    warnings = [];
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => { warnings.push(args); });
  });
  afterEach(async () => {
    cleanup();
    const { flushStorage } = await import('../../src/lib/storage.ts');
    await flushStorage();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('loads the conversation from the server, sends a message, and says once that the chat is kept in memory', async () => {
    const calls = serve({ up: true });
    await openChatPage();

    await waitFor(() => expect(messageTexts()).toEqual(['Is my deposit in?', 'Yes, it was credited this morning.']));
    expect(calls).toContain(`GET ${chatPaths.history}`);
    expect(screen.queryByText(/Could not reach support/)).toBeNull();
    expect(screen.queryByTestId('chat-empty')).toBeNull();
    // Support's message on screen is read.
    await waitFor(() => expect(calls).toContain(`POST ${chatPaths.read}`));

    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Thank you!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(messageTexts()).toEqual(['Is my deposit in?', 'Yes, it was credited this morning.', 'Thank you!']));
    expect(calls).toContain(`POST ${chatPaths.send}`);
    expect(screen.queryAllByTestId('chat-outbox')).toEqual([]);
    expect(screen.getAllByTestId('chat-message').at(-1)?.getAttribute('data-seq')).toBe('3');

    const chatWarnings = warnings.filter((args) => String(args[0]).includes('IndexedDB bourse-chat'));
    expect(chatWarnings).toHaveLength(1);
  });

  it('shows what it kept in memory when opened again with the server unreachable', async () => {
    serve({ up: true });
    const { view, page } = await openChatPage();
    await waitFor(() => expect(messageTexts()).toHaveLength(2));
    view.unmount();

    serve({ up: false });
    await act(async () => { render(page()); });
    await waitFor(() => expect(screen.getByText('Could not reach support. Showing the messages kept on this phone.')).toBeTruthy());
    expect(messageTexts()).toEqual(['Is my deposit in?', 'Yes, it was credited this morning.']);
  });
});
