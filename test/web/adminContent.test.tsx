// The back office's content screens in jsdom against a stubbed transport: the rich-text editor's
// toolbar makes the expected markup (bold, italic, underline, headings, lists, quote, link, image)
// through its own Range operations; a javascript: link is refused in place and nothing is linked;
// the allow-list drops scripts, handlers, foreign images and unsafe links; the editor form refuses
// a draft without English, a begun language left half done, bad user ids and an expiry before
// publishing, and sends the contract's body; the phone preview shows the draft cleaned, then the
// server's stored body after saving; maintenance mode needs a reason and shows the current state.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { App as AntApp } from 'antd';
import { i18n } from '@lingui/core';
import { useState, type ReactNode } from 'react';
import { createAdminStore } from '../../src/admin/store.ts';
import { writeToken } from '../../src/admin/transport.ts';
import {
  ensureBlocks, insertImage, insertLink, linkAllowed, RichTextEditor, setBlock, toggleInline, toggleList,
} from '../../src/admin/pages/RichTextEditor.tsx';
import { cleanTree, hasContent, sanitizeContentHtml } from '../../src/admin/pages/ContentHtml.tsx';
import { checkDraft, emptyDraft, fromLocalInput, toLocalInput } from '../../src/admin/pages/ContentDraft.ts';
import { ContentScreen } from '../../src/admin/pages/ContentScreen.tsx';
import { MaintenanceScreen } from '../../src/admin/pages/MaintenanceScreen.tsx';
import { contentState, toAdminItem } from '../../src/admin/contentApi.ts';

configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 60_000 });

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const imageId = '0123456789abcdef0123456789abcdef';
const imageUrl = `/api/public/content/image/${imageId}`;

// ─── Editor operations on a bare root ───

/** An editor root holding `html`, and a range over the text `from` to `to` of its text nodes. */
function rootWith(html: string) {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.appendChild(root);
  ensureBlocks(root);
  return root;
}

/** A range from the character `start` to `end` of the root's whole text. */
function textRange(root: HTMLElement, start: number, end: number): Range {
  const range = document.createRange();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let seen = 0;
  let startSet = false;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const length = node.textContent!.length;
    if (!startSet && start <= seen + length) {
      range.setStart(node, start - seen);
      startSet = true;
    }
    if (end <= seen + length) {
      range.setEnd(node, end - seen);
      return range;
    }
    seen += length;
  }
  throw new Error('range outside the text');
}

describe('rich-text editor operations', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('wraps the selected words in <strong>, and takes it off again with the same button', () => {
    const root = rootWith('<p>Hello big world</p>');
    toggleInline(root, textRange(root, 6, 9), 'strong');
    expect(root.innerHTML).toBe('<p>Hello <strong>big</strong> world</p>');
    toggleInline(root, textRange(root, 6, 9), 'strong');
    expect(root.innerHTML).toBe('<p>Hello big world</p>');
  });

  it('takes bold off the middle of a bold run only, and makes italic and underline as <em> and <u>', () => {
    const root = rootWith('<p><strong>one two three</strong></p>');
    toggleInline(root, textRange(root, 4, 7), 'strong');
    expect(root.innerHTML).toBe('<p><strong>one </strong>two<strong> three</strong></p>');
    toggleInline(root, textRange(root, 0, 3), 'em');
    toggleInline(root, textRange(root, 8, 13), 'u');
    expect(root.innerHTML).toBe('<p><strong><em>one</em> </strong>two<strong> <u>three</u></strong></p>');
  });

  it('formats a selection across two paragraphs paragraph by paragraph (no <strong> around blocks)', () => {
    const root = rootWith('<p>first line</p><p>second line</p>');
    toggleInline(root, textRange(root, 6, 16), 'strong');
    expect(root.innerHTML).toBe('<p>first <strong>line</strong></p><p><strong>second</strong> line</p>');
  });

  it('makes headings, a quote and back a paragraph', () => {
    const root = rootWith('<p>Title</p><p>Body</p>');
    setBlock(root, textRange(root, 0, 2), 'h2');
    setBlock(root, textRange(root, 6, 7), 'blockquote');
    expect(root.innerHTML).toBe('<h2>Title</h2><blockquote>Body</blockquote>');
    setBlock(root, textRange(root, 0, 2), 'h2');
    expect(root.innerHTML).toBe('<p>Title</p><blockquote>Body</blockquote>');
    setBlock(root, textRange(root, 0, 2), 'h3');
    expect(root.innerHTML).toBe('<h3>Title</h3><blockquote>Body</blockquote>');
  });

  it('makes the selected paragraphs a bulleted list, a numbered one, and paragraphs again', () => {
    const root = rootWith('<p>one</p><p>two</p><p>three</p>');
    toggleList(root, textRange(root, 0, 5), 'ul');
    expect(root.innerHTML).toBe('<ul><li>one</li><li>two</li></ul><p>three</p>');
    toggleList(root, textRange(root, 0, 5), 'ul');
    expect(root.innerHTML).toBe('<p>one</p><p>two</p><p>three</p>');
    toggleList(root, textRange(root, 0, 11), 'ol');
    expect(root.innerHTML).toBe('<ol><li>one</li><li>two</li><li>three</li></ol>');
  });

  it('links only http and https addresses, and links the selected text', () => {
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<script>alert(1)</script>', 'ftp://example.com/x', '/relative', 'example.com']) {
      expect(linkAllowed(bad), bad).toBeUndefined();
    }
    expect(linkAllowed(' https://example.com/a?b=1 ')).toBe('https://example.com/a?b=1');
    const root = rootWith('<p>Read the terms now</p>');
    insertLink(root, textRange(root, 9, 14), 'https://example.com/terms');
    expect(root.innerHTML).toBe('<p>Read the <a href="https://example.com/terms">terms</a> now</p>');
  });

  it('puts an image at the caret, or in a paragraph of its own at the end', () => {
    const root = rootWith('<p>ab</p>');
    const caret = textRange(root, 1, 1);
    insertImage(root, caret, imageUrl, 'chart');
    expect(root.innerHTML).toBe(`<p>a<img src="${imageUrl}" alt="chart">b</p>`);
    insertImage(root, undefined, imageUrl, '');
    expect(root.innerHTML).toBe(`<p>a<img src="${imageUrl}" alt="chart">b</p><p><img src="${imageUrl}" alt=""></p>`);
  });

  it('keeps loose text in paragraphs and turns a browser <div> line into a <p>', () => {
    const root = rootWith('loose <b>text</b><div>next</div>');
    expect(root.innerHTML).toBe('<p>loose <b>text</b></p><p>next</p>');
  });
});

describe('the allow-list (drafts and the preview)', () => {
  it('drops scripts, handlers, styles, unsafe links and images that are not ours', () => {
    const hostile = '<p onclick="steal()" style="color:red" class="x">Hi <script>alert(1)</script><a href="javascript:alert(1)">click</a>'
      + '<a href="https://example.com/" onmouseover="x()">ok</a><img src="https://evil.example/p.png" onerror="alert(1)">'
      + `<img src="${imageUrl}" onerror="alert(1)" alt="fine"><iframe src="https://evil.example"></iframe><style>p{}</style>`
      + '<svg><script>alert(2)</script></svg><custom-tag>kept text</custom-tag></p><h1>Big</h1>';
    expect(sanitizeContentHtml(hostile)).toBe(
      '<p>Hi <a>click</a><a href="https://example.com/" rel="noopener noreferrer" target="_blank">ok</a>'
      + `<img src="${imageUrl}" alt="fine">kept text</p><h2>Big</h2>`,
    );
  });

  it('tells an empty body from one with text or only an image', () => {
    expect(hasContent('<p><br></p>')).toBe(false);
    expect(hasContent('<p> </p><script>x</script>')).toBe(false);
    expect(hasContent(`<p><img src="${imageUrl}" alt=""></p>`)).toBe(true);
    expect(hasContent('<p>x</p>')).toBe(true);
    expect(cleanTree('<p>a</p>')).toEqual([{ tag: 'p', attributes: {}, children: ['a'] }]);
  });
});

describe('the editor form rules', () => {
  const now = Date.UTC(2026, 10, 27, 10);

  it('needs English, and finishes a begun language or leaves it out', () => {
    const draft = emptyDraft('notice');
    expect(Object.keys(checkDraft(draft, now).errors).sort()).toEqual(['en-us.body', 'en-us.title']);
    draft.texts['en-us'] = { title: 'Maintenance tonight', summary: '', body: '<p>From 02:00</p>' };
    draft.texts.ko = { title: '점검', summary: '', body: '<p><br></p>' };
    expect(Object.keys(checkDraft(draft, now).errors)).toEqual(['ko.body']);
    draft.texts.ko = { title: '', summary: '', body: '' };
    const { body, errors } = checkDraft(draft, now);
    expect(errors).toEqual({});
    expect(body).toEqual({ kind: 'notice', translations: [{ lang: 'en-us', title: 'Maintenance tonight', body: '<p>From 02:00</p>' }], push: false });
  });

  it('reads an audience of user ids, refuses a bad id, and sends vip and kyc minimums', () => {
    const draft = { ...emptyDraft('announcement'), audienceKind: 'users' as const, userIds: '12, 15\n12 abc' };
    draft.texts['en-us'] = { title: 'For you', summary: 'A gift', body: '<p>Hello</p>' };
    expect(checkDraft(draft, now).errors.audience?.message).toBe('User ids are whole numbers, separated by commas or new lines.');
    draft.userIds = '12, 15\n12';
    expect(checkDraft(draft, now).body).toMatchObject({ audience: { kind: 'users', userIds: ['12', '15'] }, popup: false, push: false });
    expect(checkDraft({ ...draft, audienceKind: 'vip', vipMin: 3 }, now).body?.audience).toEqual({ kind: 'vip', min: 3 });
    expect(checkDraft({ ...draft, audienceKind: 'kyc', kycMin: 2 }, now).body?.audience).toEqual({ kind: 'kyc', min: 2 });
    expect(checkDraft({ ...draft, audienceKind: 'users', userIds: ' ' }, now).errors.audience?.message).toBe('Enter at least one user id.');
  });

  it('schedules in local time, refuses an expiry before publishing, and needs a help category', () => {
    const draft = { ...emptyDraft('help'), publishMode: 'at' as const, publishAt: '2026-12-01T09:30', expireAt: '2026-12-01T09:00' };
    draft.texts['en-us'] = { title: 'How to deposit', summary: '', body: '<p>Steps</p>' };
    const { errors } = checkDraft(draft, now);
    expect(errors.expireAt?.message).toBe('The expiry must be after publishing.');
    expect(errors.category?.message).toBe('Choose the help centre category.');
    const fixed = checkDraft({ ...draft, expireAt: '2026-12-31T23:00', category: 'deposits' }, now);
    expect(fixed.body).toMatchObject({ kind: 'help', category: 'deposits', publishAt: new Date(2026, 11, 1, 9, 30).getTime(), expireAt: new Date(2026, 11, 31, 23).getTime() });
    expect(checkDraft({ ...draft, expireAt: '', category: 'Deposits!' }, now).errors.category?.message).toBe('A category is 1 to 32 small letters, digits, - or _.');
    expect(fromLocalInput('yesterday')).toBeUndefined();
    expect(toLocalInput(new Date(2026, 0, 2, 3, 4).getTime())).toBe('2026-01-02T03:04');
  });

  it('places an item in its life: scheduled, live, expired, withdrawn', () => {
    expect(contentState({ publishAt: 2000 }, 1000)).toBe('scheduled');
    expect(contentState({ publishAt: 1000, expireAt: 3000 }, 2000)).toBe('live');
    expect(contentState({ publishAt: 1000, expireAt: 2000 }, 2000)).toBe('expired');
    expect(contentState({ publishAt: 1000, withdrawnAt: 1500 }, 1200)).toBe('withdrawn');
  });
});

// ─── The editor component and the screens, against a stubbed server ───

type Call = { method: string; path: string; query: Record<string, string>; body: any; form?: FormData };
let calls: Call[] = [];
let refuseNext: { error: string; message: string } | undefined;
let items: any[] = [];
let maintenance: any = { maintenance: false };

const envelope = (result: unknown, code = 200, message = 'OK') => new Response(JSON.stringify({ success: code === 200, code, message, result, timestamp: 0 }),
  { status: 200, headers: { 'content-type': 'application/json' } });

/** The server stores its own cleaning of a body: here it writes <b> for <strong>, so the preview's source shows. */
const serverClean = (html: string) => html.replace(/<(\/?)strong>/g, '<$1b>');

function serve(url: string, init?: RequestInit): Response {
  const parsed = new URL(url, 'http://localhost');
  const path = parsed.pathname;
  const method = init?.method ?? 'GET';
  const form = init?.body instanceof FormData ? init.body : undefined;
  const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
  calls.push({ method, path, query: Object.fromEntries(parsed.searchParams), body, form });
  if (path.endsWith('PublicKey')) return envelope('key');
  if (method === 'POST' && refuseNext) {
    const refusal = refuseNext;
    refuseNext = undefined;
    return envelope({ error: refusal.error }, 400, refusal.message);
  }
  if (path === '/api/admin/content/items' && method === 'GET') {
    // A list leaves the bodies out, as the server's does.
    const records = items.filter((item) => item.kind === parsed.searchParams.get('kind'))
      .map((item) => ({ ...item, translations: item.translations.map(({ bodyHtml: _body, ...rest }: any) => rest) }));
    return envelope({ records, total: records.length, size: 20, current: 1, pages: 1 });
  }
  const one = /^\/api\/admin\/content\/items\/([0-9]+)$/.exec(path);
  if (one && method === 'GET') return envelope(items.find((item) => item.id === one[1]) ?? null);
  if (one && method === 'POST') {
    const index = items.findIndex((item) => item.id === one[1]);
    items[index] = { ...items[index], ...body, translations: body.translations.map((translation: any) => ({ ...translation, bodyHtml: serverClean(translation.body) })) };
    return envelope(items[index]);
  }
  if (path === '/api/admin/content/items' && method === 'POST') {
    const item = {
      id: String(100 + items.length), kind: body.kind, audience: body.audience ?? { kind: 'all' }, popup: !!body.popup, push: !!body.push,
      publishAt: body.publishAt ?? Date.UTC(2026, 10, 27, 10), expireAt: body.expireAt ?? null, withdrawnAt: null, status: 'live', readers: 0,
      translations: body.translations.map((translation: any) => ({ lang: translation.lang, title: translation.title, summary: translation.summary ?? '', bodyHtml: serverClean(translation.body) })),
    };
    items.push(item);
    return envelope(item);
  }
  if (path === '/api/admin/content/images') return envelope({ id: imageId, url: imageUrl });
  if (path === '/api/admin/content/notices') {
    const item = {
      id: '300', kind: 'notice', audience: { kind: 'all' }, popup: false, publishAt: Date.UTC(2026, 10, 27, 10), status: 'live', readers: 0,
      translations: [{ lang: body.lang, title: body.title, summary: '', bodyHtml: serverClean(body.body) }],
    };
    items.push(item);
    return envelope(item);
  }
  if (path === '/api/admin/content/items/7/readers') {
    return envelope({ records: [{ userId: '31', account: 'reader@example.com', readAt: Date.UTC(2026, 10, 26, 8) }], total: 1, size: 20, current: 1, pages: 1 });
  }
  if (path === '/api/admin/content/items/7/withdraw') {
    items[0] = { ...items[0], withdrawnAt: Date.UTC(2026, 10, 27, 11), status: 'withdrawn' };
    return envelope(items[0]);
  }
  if (path === '/api/admin/status/maintenance' && method === 'GET') return envelope(maintenance);
  if (path === '/api/admin/status/maintenance' && method === 'POST') {
    const { reason: _reason, _ts: _time, ...rest } = body;
    maintenance = rest;
    return envelope(maintenance);
  }
  return envelope(null, 404, 'Not found.');
}

beforeEach(() => {
  calls = [];
  refuseNext = undefined;
  items = [];
  maintenance = { maintenance: false };
  writeToken('operator-token');
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => serve(url, init)));
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false, media: query, onchange: null, addListener: () => undefined, removeListener: () => undefined,
    addEventListener: () => undefined, removeEventListener: () => undefined, dispatchEvent: () => false,
  }));
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  writeToken('');
});

function renderWith(children: ReactNode) {
  render(
    <Provider store={createAdminStore()}>
      <I18nProvider i18n={i18n}><AntApp>{children}</AntApp></I18nProvider>
    </Provider>,
  );
}

const posts = () => calls.filter((call) => call.method === 'POST' && !call.form).map(({ path, body }) => {
  const { _ts: _ignored, ...fields } = body ?? {};
  return { path, body: fields };
});

/** Selects the text `start`..`end` of an editable area, as the operator's mouse would. */
function selectText(area: HTMLElement, start: number, end: number) {
  const range = textRange(area, start, end);
  const selection = document.getSelection()!;
  selection.removeAllRanges();
  selection.addRange(range);
}

/** Types into an editable area: its content is replaced and an input event fired. */
function typeInto(area: HTMLElement, html: string) {
  area.innerHTML = html;
  fireEvent.input(area);
}

function EditorHarness({ initial = '', upload }: { initial?: string; upload?: (file: File) => Promise<string> }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <RichTextEditor value={value} onChange={setValue} label="Body" onUploadImage={upload ?? (async () => imageUrl)} />
      <output data-testid="html">{value}</output>
    </>
  );
}

describe('RichTextEditor', () => {
  it('makes the selected text bold and a heading through its toolbar buttons', async () => {
    renderWith(<EditorHarness initial="<p>Deposits are back</p><p>Details follow</p>" />);
    const area = screen.getByRole('textbox', { name: 'Body' });
    expect(area.innerHTML).toBe('<p>Deposits are back</p><p>Details follow</p>');
    selectText(area, 13, 17);
    fireEvent.click(screen.getByRole('button', { name: 'Bold' }));
    expect(screen.getByTestId('html').textContent).toBe('<p>Deposits are <strong>back</strong></p><p>Details follow</p>');
    selectText(area, 0, 3);
    fireEvent.click(screen.getByRole('button', { name: 'Heading' }));
    expect(screen.getByTestId('html').textContent).toBe('<h2>Deposits are <strong>back</strong></h2><p>Details follow</p>');
    selectText(area, 18, 22);
    fireEvent.click(screen.getByRole('button', { name: 'Bulleted list' }));
    expect(screen.getByTestId('html').textContent).toBe('<h2>Deposits are <strong>back</strong></h2><ul><li>Details follow</li></ul>');
  });

  it('refuses a javascript: link in place and links nothing; an https link goes on the selected words', async () => {
    renderWith(<EditorHarness initial="<p>Read the terms</p>" />);
    const area = screen.getByRole('textbox', { name: 'Body' });
    selectText(area, 9, 14);
    fireEvent.click(screen.getByRole('button', { name: 'Link' }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText('Link address');
    fireEvent.change(input, { target: { value: 'javascript:alert(document.cookie)' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText('Only http and https links are allowed (https://…).')).toBeTruthy();
    expect(area.querySelector('a')).toBeNull();
    expect(screen.getByTestId('html').textContent).toBe('<p>Read the terms</p>');
    fireEvent.change(input, { target: { value: 'https://example.com/terms' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.getByTestId('html').textContent).toBe('<p>Read the <a href="https://example.com/terms">terms</a></p>'));
  });

  it('uploads a chosen image and puts it in the text; refuses a file that is no image', async () => {
    const uploaded: File[] = [];
    renderWith(<EditorHarness initial="<p>Chart below</p>" upload={async (file) => {
      uploaded.push(file);
      return imageUrl;
    }} />);
    const area = screen.getByRole('textbox', { name: 'Body' });
    selectText(area, 11, 11);
    const fileInput = screen.getByLabelText('Image file');
    fireEvent.change(fileInput, { target: { files: [new File(['%PDF'], 'terms.pdf', { type: 'application/pdf' })] } });
    expect(await screen.findByText('Choose a JPEG, PNG or WebP image.')).toBeTruthy();
    expect(uploaded).toEqual([]);
    fireEvent.change(fileInput, { target: { files: [new File([new Uint8Array([137, 80, 78, 71])], 'btc-chart.png', { type: 'image/png' })] } });
    await waitFor(() => expect(screen.getByTestId('html').textContent).toBe(`<p>Chart below<img src="${imageUrl}" alt="btc-chart"></p>`));
    expect(uploaded.map((file) => file.name)).toEqual(['btc-chart.png']);
  });

  it('keeps typed loose text in a paragraph with the caret where it was', () => {
    renderWith(<EditorHarness />);
    const area = screen.getByRole('textbox', { name: 'Body' });
    area.replaceChildren(document.createTextNode('abc'));
    const text = area.firstChild!;
    document.getSelection()!.collapse(text, 3);
    fireEvent.input(area);
    expect(screen.getByTestId('html').textContent).toBe('<p>abc</p>');
    expect(document.getSelection()!.anchorNode).toBe(text);
    expect(document.getSelection()!.anchorOffset).toBe(3);
  });

  it('builds a value it is given through the allow-list: a handler or script never reaches the editable area', () => {
    renderWith(<EditorHarness initial={`<p>Hi<img src="x" onerror="alert(1)"><script>alert(2)</script><a href="javascript:x()">y</a></p>`} />);
    const area = screen.getByRole('textbox', { name: 'Body' });
    expect(area.innerHTML).toBe('<p>Hi<a>y</a></p>');
  });
});

describe('content screen', () => {
  it('lists items with their languages and state, and refuses a new notice without English in place', async () => {
    items = [{
      id: '7', kind: 'notice', audience: { kind: 'all' }, popup: false, publishAt: Date.UTC(2026, 0, 1), expireAt: null, withdrawnAt: null, status: 'live', readers: 0,
      translations: [{ lang: 'zh-cn', title: '存款恢复', summary: '', bodyHtml: '<p>好</p>' }, { lang: 'en-us', title: 'Deposits are back', summary: '', bodyHtml: '<p>Good</p>' }],
    }];
    renderWith(<ContentScreen />);
    const table = await screen.findByTestId('content-table-notice');
    const row = await within(table).findByText('Deposits are back');
    const cells = row.closest('tr')!;
    expect(within(cells).getByText('en-us')).toBeTruthy();
    expect(within(cells).getByText('zh-cn')).toBeTruthy();
    expect(within(cells).getByText('Live')).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/admin/content/items')?.query).toMatchObject({ kind: 'notice', pageNo: '1' });

    fireEvent.click(screen.getByRole('button', { name: 'New notice' }));
    const drawer = await screen.findByRole('dialog');
    fireEvent.click(within(drawer).getByTestId('content-save'));
    expect(await within(drawer).findByText('English needs a title: other languages fall back to it.')).toBeTruthy();
    expect(within(drawer).getByText('English needs a body: other languages fall back to it.')).toBeTruthy();
    expect(posts()).toEqual([]);
  });

  it('edits an item read whole from the server (a list has no bodies) and sends the reason for the change', async () => {
    items = [{
      id: '7', kind: 'notice', audience: { kind: 'all' }, popup: false, publishAt: Date.UTC(2026, 0, 1), expireAt: null, withdrawnAt: null, status: 'live', readers: 0,
      translations: [{ lang: 'en-us', title: 'Deposits are back', summary: 'Good news', bodyHtml: '<p>Good <b>news</b></p>' }, { lang: 'zh-cn', title: '存款恢复', summary: '', bodyHtml: '<p>好</p>' }],
    }];
    renderWith(<ContentScreen />);
    const table = await screen.findByTestId('content-table-notice');
    await within(table).findByText('Deposits are back');
    fireEvent.click(within(table).getByRole('button', { name: 'Edit' }));
    const drawer = await screen.findByRole('dialog');
    const area = await within(drawer).findByRole('textbox', { name: 'Body' });
    await waitFor(() => expect(area.innerHTML).toBe('<p>Good <b>news</b></p>'));
    expect(calls.some((call) => call.method === 'GET' && call.path === '/api/admin/content/items/7')).toBe(true);
    expect(within(drawer).getByTestId('content-preview').textContent).toContain('Saved version, as the server stored it.');
    fireEvent.change(within(drawer).getByLabelText('Title'), { target: { value: 'Deposits are back on every network' } });
    fireEvent.change(within(drawer).getByLabelText('Reason for the change (kept in the audit trail)'), { target: { value: 'Wording' } });
    fireEvent.click(within(drawer).getByTestId('content-save'));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toEqual({
      path: '/api/admin/content/items/7',
      body: {
        kind: 'notice', push: false, publishAt: new Date(toLocalInput(Date.UTC(2026, 0, 1))).getTime(), reason: 'Wording',
        translations: [
          { lang: 'en-us', title: 'Deposits are back on every network', summary: 'Good news', body: '<p>Good <b>news</b></p>' },
          { lang: 'zh-cn', title: '存款恢复', body: '<p>好</p>' },
        ],
      },
    });
  });

  it('publishes a notice with bold text and an image; the preview shows the draft cleaned, then the stored body', async () => {
    renderWith(<ContentScreen />);
    fireEvent.click(await screen.findByRole('button', { name: 'New notice' }));
    const drawer = await screen.findByRole('dialog');
    fireEvent.change(within(drawer).getByLabelText('Title'), { target: { value: 'Trading hours change' } });
    const area = within(drawer).getByRole('textbox', { name: 'Body' });
    typeInto(area, '<p>Markets open at nine</p>');
    selectText(area, 16, 20);
    fireEvent.click(within(drawer).getByRole('button', { name: 'Bold' }));
    selectText(area, 0, 0);
    fireEvent.change(within(drawer).getByLabelText('Image file'), { target: { files: [new File([new Uint8Array([1])], 'hours.png', { type: 'image/png' })] } });
    const preview = within(drawer).getByTestId('content-preview');
    await waitFor(() => expect(preview.querySelector('img')?.getAttribute('src')).toBe(imageUrl));
    expect(within(preview).getByTestId('preview-title').textContent).toBe('Trading hours change');
    expect(within(preview).getByText('nine').tagName).toBe('STRONG');
    expect(preview.textContent).toContain('Draft, cleaned as the server will clean it.');
    expect(calls.find((call) => call.form)?.form?.get('file')).toBeInstanceOf(File);

    fireEvent.click(within(drawer).getByTestId('content-save'));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toEqual({
      path: '/api/admin/content/items',
      body: {
        kind: 'notice', push: false,
        translations: [{ lang: 'en-us', title: 'Trading hours change', body: `<p><img src="${imageUrl}" alt="hours">Markets open at <strong>nine</strong></p>` }],
      },
    });
    await waitFor(() => expect(preview.textContent).toContain('Saved version, as the server stored it.'));
    expect(within(preview).getByText('nine').tagName).toBe('B');
    expect(within(drawer).getByRole('textbox', { name: 'Body' }).innerHTML).toBe(`<p><img src="${imageUrl}" alt="hours">Markets open at <b>nine</b></p>`);
    expect(within(drawer).getByText('Live')).toBeTruthy();
    expect(within(drawer).getByTestId('content-save').textContent).toBe('Save');
  });

  it('shows a refusal from the server in the drawer and keeps the draft', async () => {
    renderWith(<ContentScreen />);
    fireEvent.click(await screen.findByRole('button', { name: 'New notice' }));
    const drawer = await screen.findByRole('dialog');
    fireEvent.change(within(drawer).getByLabelText('Title'), { target: { value: 'Hello' } });
    typeInto(within(drawer).getByRole('textbox', { name: 'Body' }), '<p>World</p>');
    refuseNext = { error: 'invalid_request', message: 'Unknown language.' };
    fireEvent.click(within(drawer).getByTestId('content-save'));
    expect((await within(drawer).findByTestId('content-error')).textContent).toContain('Some of the information entered is not valid.');
    expect((within(drawer).getByLabelText('Title') as HTMLInputElement).value).toBe('Hello');
    expect(items).toEqual([]);
  });

  it('shows who read an announcement and withdraws it with a reason', async () => {
    items = [{
      id: '7', kind: 'announcement', audience: { kind: 'vip', min: 2 }, popup: true, publishAt: Date.UTC(2026, 0, 1), status: 'live', readers: 1,
      translations: [{ lang: 'en-us', title: 'VIP rates', summary: 'Lower fees', bodyHtml: '<p>From today</p>' }],
    }];
    renderWith(<ContentScreen />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Announcements' }));
    const table = await screen.findByTestId('content-table-announcement');
    await within(table).findByText('VIP rates');
    fireEvent.click(within(table).getByRole('button', { name: 'Readers' }));
    const readers = await screen.findByTestId('content-readers-table');
    expect(await within(readers).findByTitle('reader@example.com')).toBeTruthy();
    expect(screen.getByTestId('content-readers-total').textContent).toBe('Readers: 1');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));

    fireEvent.click(within(table).getByRole('button', { name: 'Withdraw' }));
    const modal = (await screen.findAllByRole('dialog')).find((dialog) => dialog.textContent?.includes('Withdraw this item'))!;
    fireEvent.click(within(modal).getByRole('button', { name: 'Withdraw' }));
    expect(await within(modal).findByText('This field is required.')).toBeTruthy();
    fireEvent.change(within(modal).getByLabelText('Reason (kept in the audit trail)'), { target: { value: 'Sent to the wrong group' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(posts()).toEqual([{ path: '/api/admin/content/items/7/withdraw', body: { reason: 'Sent to the wrong group' } }]));
    expect(await within(table).findByText('Withdrawn')).toBeTruthy();
  });

  it('publishes a quick notice in English at once, and refuses an empty one in place', async () => {
    renderWith(<ContentScreen />);
    fireEvent.click(await screen.findByRole('button', { name: 'Quick notice' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish now' }));
    expect(await within(dialog).findByText('Write a title.')).toBeTruthy();
    expect(within(dialog).getByText('Write the notice.')).toBeTruthy();
    expect(posts()).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Withdrawals delayed' } });
    typeInto(within(dialog).getByRole('textbox', { name: 'Body' }), '<p>Bank transfers take longer today.</p>');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish now' }));
    await waitFor(() => expect(posts()).toEqual([{
      path: '/api/admin/content/notices', body: { title: 'Withdrawals delayed', body: '<p>Bank transfers take longer today.</p>', lang: 'en-us' },
    }]));
    expect(await within(await screen.findByTestId('content-table-notice')).findByText('Withdrawals delayed')).toBeTruthy();
  });

  it('reads the server item leniently: nulls as absent, languages in order', () => {
    const item = toAdminItem({
      id: 5, kind: 'article', audience: null, popup: null, publishAt: 10, expireAt: null, withdrawnAt: null, coverImageId: imageId,
      translations: [{ lang: 'ko', title: 'K', bodyHtml: '<p>k</p>' }, { lang: 'en-us', title: 'E', summary: 's', bodyHtml: '<p>e</p>' }, { lang: 'xx', title: 'no' }],
    });
    expect(item).toMatchObject({ id: '5', audience: { kind: 'all' }, popup: false, expireAt: undefined, withdrawnAt: undefined, coverImageId: imageId });
    expect(item.translations.map((translation) => translation.lang)).toEqual(['en-us', 'ko']);
  });
});

describe('maintenance screen', () => {
  it('shows the current state and needs a reason before turning maintenance on with a message, an end and a version', async () => {
    maintenance = { maintenance: false };
    renderWith(<MaintenanceScreen />);
    const status = await screen.findByTestId('maintenance-status');
    expect(within(status).getByText('Off')).toBeTruthy();
    fireEvent.click(screen.getByTestId('maintenance-switch'));
    fireEvent.change(screen.getByLabelText('Message users see'), { target: { value: 'Upgrading the matching engine.' } });
    fireEvent.change(screen.getByLabelText('Lowest app version'), { target: { value: 'v2' } });
    fireEvent.click(screen.getByTestId('maintenance-save'));
    expect(await screen.findByText('Say why (it goes into the audit trail).')).toBeTruthy();
    expect(screen.getByText('A version such as 2.4 or 2.4.1.')).toBeTruthy();
    expect(posts()).toEqual([]);

    const until = toLocalInput(Date.now() + 3_600_000);
    fireEvent.change(screen.getByLabelText('Lowest app version'), { target: { value: '2.4.1' } });
    fireEvent.change(screen.getByLabelText('Expected end'), { target: { value: until } });
    fireEvent.change(screen.getByLabelText('Reason (kept in the audit trail)'), { target: { value: 'Planned upgrade' } });
    fireEvent.click(screen.getByTestId('maintenance-save'));
    const confirm = await screen.findByRole('dialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toEqual({
      path: '/api/admin/status/maintenance',
      body: { maintenance: true, message: 'Upgrading the matching engine.', until: fromLocalInput(until), minAppVersion: '2.4.1', reason: 'Planned upgrade' },
    });
    await waitFor(() => expect(within(screen.getByTestId('maintenance-status')).getByText('On')).toBeTruthy());
    expect(within(screen.getByTestId('maintenance-status')).getByText('Upgrading the matching engine.')).toBeTruthy();
  });
});
