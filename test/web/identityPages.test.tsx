// The identity verification pages (issue 11) against a scripted server: the basic form refuses
// what is missing under each field and sends nothing; a document photo that fails the browser's
// checks is shown with its reason and never uploaded; a complete form is summed up in a
// confirmation and sends applyKYC with the uploaded ids; the result page for each state (the
// operator's reason and a way to apply again when rejected); the advanced page waits for basic
// approval and checks the emergency contact's phone; an unverified user is prompted on /my.
//
// The photo checks (photoChecks.ts) run for real: jsdom decodes no picture, so the browser APIs
// photoPixels.ts reads pixels through (createImageBitmap and a 2d canvas's getImageData) are
// stubbed to hand over a synthetic document photo (documentPhoto.ts) chosen per file.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { i18n } from '../../src/lib/i18n.ts';
import { configureApiClient } from '../../src/api/api.ts';
import { kycPaths, type KycLevel, type KycState } from '../../src/api/contract/identity.ts';
import { paths, requestTimeField } from '../../src/api/contract/paths.ts';
import type { Pixels } from '../../src/features/identity/photoChecks.ts';
import BasicVerificationPage from '../../src/features/identity/BasicVerificationPage.tsx';
import AdvancedVerificationPage from '../../src/features/identity/AdvancedVerificationPage.tsx';
import VerificationResultPage from '../../src/features/identity/VerificationResultPage.tsx';
import MyPage from '../../src/features/profile/MyPage.tsx';
import { documentPhoto } from './documentPhoto.ts';
import { testStore } from './testStore.ts';

const feedback = vi.hoisted(() => ({ confirm: vi.fn(async (_options: { content?: unknown }) => true) }));
vi.mock('../../src/components/feedback.tsx', () => ({
  confirmDialog: feedback.confirm, showToast: vi.fn(async () => undefined), alertDialog: vi.fn(async () => undefined),
}));
vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

/** The error lines antd-mobile shows under the form item holding `element`. */
const errorsUnder = (element: Element) =>
  [...element.closest('.adm-form-item')!.querySelectorAll('.adm-form-item-feedback-error')].map((line) => line.textContent);

// ── The browser's picture decoding, as photoPixels.ts and proofImage.ts use it ──
/** The pixels each picked file decodes to. */
const decoded = new WeakMap<Blob, Pixels>();
function photoFile(name: string, pixels: Pixels): File {
  const file = new File([new Uint8Array(4096)], name, { type: 'image/png' });
  decoded.set(file, pixels);
  return file;
}
function stubPictureDecoding() {
  vi.stubGlobal('createImageBitmap', vi.fn(async (file: Blob) => {
    const pixels = decoded.get(file);
    if (!pixels) throw new DOMException('not a picture', 'InvalidStateError');
    return { width: pixels.width, height: pixels.height, pixels, close: () => undefined };
  }));
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => {
    let drawn: Pixels | undefined;
    return {
      drawImage: (bitmap: { pixels: Pixels }) => { drawn = bitmap.pixels; },
      getImageData: () => drawn,
      fillRect: () => undefined,
    } as unknown as CanvasRenderingContext2D;
  });
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview'), revokeObjectURL: vi.fn() }));
}

// ── The upload (XMLHttpRequest): every upload is stored and answered with a fresh id ──
interface Upload { purpose: string; fileName: string; token: string; id: string }
let uploads: Upload[] = [];
class StoringUpload {
  private listeners = new Map<string, (() => void)[]>();
  private token = '';
  status = 0;
  responseText = '';
  timeout = 0;
  upload = { addEventListener: () => undefined };
  open() {}
  setRequestHeader(name: string, value: string) {
    if (name === 'X-Access-Token') this.token = value;
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  abort() {}
  send(body: FormData) {
    const id = String(uploads.length + 1).repeat(32).slice(0, 32);
    uploads.push({ purpose: String(body.get('purpose')), fileName: (body.get('file') as File).name, token: this.token, id });
    setTimeout(() => {
      this.status = 200;
      this.responseText = JSON.stringify({ success: true, code: 200, message: '', result: { id, url: '', contentType: 'image/png', size: 4096 }, timestamp: 0 });
      for (const listener of this.listeners.get('load') ?? []) listener();
    }, 0);
  }
}

// ── The server ──
const levels: KycLevel[] = [
  { level: 0, withdrawDailyLimit: '1000.000000', loanLimit: '0', productsOpen: false },
  { level: 1, withdrawDailyLimit: '50000.000000', loanLimit: '5000', productsOpen: true },
  { level: 2, loanLimit: '100000', productsOpen: true },
];
interface Sent { path: string; body: Record<string, unknown> }
let sent: Sent[] = [];
let kyc: KycState;

function serve() {
  sent = [];
  uploads = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(String(url), 'https://bourse.test').pathname.replace(/^\/api/, '');
    const body = typeof init?.body === 'string' && init.body.startsWith('{') ? JSON.parse(init.body) as Record<string, unknown> : {};
    sent.push({ path, body });
    const ok = (result: unknown) => new Response(JSON.stringify({ success: true, code: 200, message: '', result, timestamp: 0 }), { status: 200 });
    if (path === paths.publicKey) return ok('PEM');
    if (path === kycPaths.isHaveAuth) return ok(kyc);
    if (path === kycPaths.levels) return ok(levels);
    if (path === kycPaths.applyBasic) {
      kyc = { ...kyc, basic: 'pending' };
      return ok({ id: '7', level: 1, status: 'pending', createdAt: 0 });
    }
    if (path === kycPaths.applyAdvanced) {
      kyc = { ...kyc, advanced: 'pending' };
      return ok({ id: '8', level: 2, status: 'pending', createdAt: 0 });
    }
    if (path === '/sys/user/getMyUserInfo' || path.endsWith('/getMyUserInfo')) {
      return ok({ id: '1001', account: 'someone@example.com', accountType: 'email', inviteCode: 'ABC123' });
    }
    throw new Error(`no answer scripted for ${path}`);
  }));
}
/** The bodies sent to `path`, without the request time every POST carries. */
const applied = (path: string) => sent.filter((call) => call.path === path)
  .map(({ body: { [requestTimeField]: _time, ...fields } }) => fields);

function Landed() {
  const location = useLocation();
  return <p data-testid="landed">{location.pathname}</p>;
}

function renderAt(route: string, page: ReactNode) {
  configureApiClient({ notify: vi.fn() });
  const store = testStore('T0KEN');
  render(<Provider store={store}><I18nProvider i18n={i18n}>
    <MemoryRouter initialEntries={[route]}>
      <Routes>
        <Route path={route} element={page} />
        <Route path="*" element={<Landed />} />
      </Routes>
    </MemoryRouter>
  </I18nProvider></Provider>);
}

beforeEach(() => {
  feedback.confirm.mockReset().mockResolvedValue(true);
  kyc = { basic: 'none', advanced: 'none', level: 0 };
  serve();
  stubPictureDecoding();
  vi.stubGlobal('XMLHttpRequest', StoringUpload);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const picker = (side: 'Front' | 'Back') => screen.getByLabelText(`Choose a photo: ${side} of the document`);
const group = (side: 'Front' | 'Back') => screen.getByRole('group', { name: `${side} of the document` });

describe('basic verification', () => {
  it('refuses a form without name, number or photos under each field, and sends nothing', async () => {
    renderAt('/shenfenRenzheng', <BasicVerificationPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }, { timeout: 5_000 }));
    const surname = document.querySelector('input[autocomplete="family-name"]')!;
    await waitFor(() => expect(errorsUnder(surname)).toEqual(['Please enter your surname.']));
    expect(errorsUnder(document.querySelector('input[autocomplete="given-name"]')!)).toEqual(['Please enter your first name.']);
    const number = screen.getByLabelText('ID number');
    expect(errorsUnder(number)).toEqual(['Please enter the number of your document.']);
    expect(errorsUnder(group('Front'))).toEqual(['Please add a photo of the front of your document.']);
    expect(errorsUnder(group('Back'))).toEqual(['Please add a photo of the back of your document.']);

    // A number with characters a document number never has.
    fireEvent.change(number, { target: { value: 'AB#12/34' } });
    fireEvent.blur(number);
    await waitFor(() => expect(errorsUnder(number)).toEqual(['A document number is 4 to 32 letters, digits, spaces or hyphens.']));

    expect(feedback.confirm).not.toHaveBeenCalled();
    expect(applied(kycPaths.applyBasic)).toEqual([]);
    expect(uploads).toEqual([]);
  });

  it('refuses a blurred, a dark and a cut-off photo with their reasons and uploads none of them', async () => {
    renderAt('/shenfenRenzheng', <BasicVerificationPage />);
    await screen.findByRole('button', { name: 'Submit' }, { timeout: 5_000 });

    fireEvent.change(picker('Front'), { target: { files: [photoFile('blurred.png', documentPhoto({ width: 640, height: 480, blur: 4 }))] } });
    const refusal = await within(group('Front')).findByRole('alert', {}, { timeout: 5_000 });
    expect(within(refusal).getByText('This photo cannot be used:')).toBeTruthy();
    expect([...refusal.querySelectorAll('li')].map((line) => line.textContent))
      .toEqual(['The photo is blurry — hold the phone still and let the camera focus.']);
    expect(within(group('Front')).getByRole('img', { name: 'Preview: Front of the document' })).toBeTruthy();

    // Another pick replaces the refused one: a document cut off by the frame's right side.
    fireEvent.change(picker('Front'), { target: { files: [photoFile('cut.png', documentPhoto({ width: 640, height: 480, shiftX: 160 }))] } });
    await waitFor(() => expect([...group('Front').querySelectorAll('[data-reason]')].map((line) => line.getAttribute('data-reason'))).toEqual(['cut_off']));
    expect(within(group('Front')).getByRole('alert').textContent)
      .toContain('The document\'s border is not complete — fit all four edges inside the frame.');

    fireEvent.change(picker('Back'), { target: { files: [photoFile('dark.png', documentPhoto({ width: 640, height: 480, gain: 0.28 }))] } });
    const dark = await within(group('Back')).findByRole('alert', {}, { timeout: 5_000 });
    expect(dark.textContent).toContain('The photo is too dark — take it in more light.');

    // A refused photo is not a value: the form still asks for both sides.
    fireEvent.change(document.querySelector('input[autocomplete="family-name"]')!, { target: { value: 'Doe' } });
    fireEvent.change(document.querySelector('input[autocomplete="given-name"]')!, { target: { value: 'Jane' } });
    fireEvent.change(screen.getByLabelText('ID number'), { target: { value: 'X1234567' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(errorsUnder(group('Front'))).toEqual(['Please add a photo of the front of your document.']));
    expect(errorsUnder(group('Back'))).toEqual(['Please add a photo of the back of your document.']);
    expect(uploads).toEqual([]);
    expect(applied(kycPaths.applyBasic)).toEqual([]);
  });

  it('uploads photos that pass, confirms a summary, sends applyKYC with the uploaded ids and opens the result', async () => {
    renderAt('/shenfenRenzheng', <BasicVerificationPage />);
    await screen.findByRole('button', { name: 'Submit' }, { timeout: 5_000 });
    fireEvent.change(document.querySelector('input[autocomplete="family-name"]')!, { target: { value: '  Doe ' } });
    fireEvent.change(document.querySelector('input[autocomplete="given-name"]')!, { target: { value: 'Jane' } });
    fireEvent.click(screen.getByText('Passport'));
    fireEvent.change(screen.getByLabelText('ID number'), { target: { value: 'X1234567' } });
    fireEvent.change(picker('Front'), { target: { files: [photoFile('front.png', documentPhoto({ width: 640, height: 480 }))] } });
    expect(await within(group('Front')).findByText('Photo checked and uploaded.', {}, { timeout: 5_000 })).toBeTruthy();
    fireEvent.change(picker('Back'), { target: { files: [photoFile('back.png', documentPhoto({ width: 640, height: 480, shiftX: 40 }))] } });
    expect(await within(group('Back')).findByText('Photo checked and uploaded.', {}, { timeout: 5_000 })).toBeTruthy();
    expect(uploads.map(({ purpose, fileName, token }) => ({ purpose, fileName, token }))).toEqual([
      { purpose: 'identity', fileName: 'front.png', token: 'T0KEN' },
      { purpose: 'identity', fileName: 'back.png', token: 'T0KEN' },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect((await screen.findByTestId('landed', {}, { timeout: 5_000 })).textContent).toBe('/renzhengResult');
    expect(feedback.confirm).toHaveBeenCalledTimes(1);
    // The confirmation sums up what is sent.
    render(<I18nProvider i18n={i18n}><div data-testid="summary">{feedback.confirm.mock.calls[0][0].content as ReactNode}</div></I18nProvider>);
    const summary = screen.getByTestId('summary');
    expect([...summary.querySelectorAll('dt')].map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`))
      .toEqual(['Surname: Doe', 'First name: Jane', 'ID type: Passport', 'ID number: X1234567']);
    expect(applied(kycPaths.applyBasic)).toEqual([{
      surname: 'Doe', firstName: 'Jane', idType: 'passport', idNumber: 'X1234567', frontFileId: uploads[0].id, backFileId: uploads[1].id,
    }]);
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    feedback.confirm.mockResolvedValue(false);
    renderAt('/shenfenRenzheng', <BasicVerificationPage />);
    await screen.findByRole('button', { name: 'Submit' }, { timeout: 5_000 });
    fireEvent.change(document.querySelector('input[autocomplete="family-name"]')!, { target: { value: 'Doe' } });
    fireEvent.change(document.querySelector('input[autocomplete="given-name"]')!, { target: { value: 'Jane' } });
    fireEvent.change(screen.getByLabelText('ID number'), { target: { value: 'X1234567' } });
    fireEvent.change(picker('Front'), { target: { files: [photoFile('front.png', documentPhoto({ width: 640, height: 480 }))] } });
    fireEvent.change(picker('Back'), { target: { files: [photoFile('back.png', documentPhoto({ width: 640, height: 480 }))] } });
    await within(group('Back')).findByText('Photo checked and uploaded.', {}, { timeout: 5_000 });
    await within(group('Front')).findByText('Photo checked and uploaded.', {}, { timeout: 5_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(feedback.confirm).toHaveBeenCalledTimes(1));
    expect(applied(kycPaths.applyBasic)).toEqual([]);
    expect(screen.queryByTestId('landed')).toBeNull();
  });

  it('shows a pending application as under review, an approved one with the way on, a rejected one with its reason', async () => {
    kyc = { basic: 'pending', advanced: 'none', level: 0 };
    renderAt('/shenfenRenzheng', <BasicVerificationPage />);
    expect(await screen.findByRole('heading', { name: 'Under review' }, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See the review status' }).getAttribute('href')).toBe('/renzhengResult');
    expect(screen.getByTestId('kyc-review-time').textContent).toBe('Usually reviewed within 24 hours.');
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    cleanup();

    kyc = { basic: 'approved', advanced: 'none', level: 1 };
    renderAt('/shenfenRenzheng', <BasicVerificationPage />);
    expect(await screen.findByRole('heading', { name: 'Basic verification approved' }, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByText('Your verification level: 1')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continue with advanced verification' }).getAttribute('href')).toBe('/shenfenRenzhengAd');
    cleanup();

    kyc = { basic: 'rejected', advanced: 'none', level: 0, basicReason: 'The photo of the back is missing a corner.' };
    renderAt('/shenfenRenzheng', <BasicVerificationPage />);
    expect(await screen.findByRole('heading', { name: 'Verification rejected' }, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByText('Reason: The photo of the back is missing a corner.')).toBeTruthy();
    expect(screen.queryByLabelText('ID number')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Apply again' }));
    expect(screen.getByLabelText('ID number')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeTruthy();
  });
});

describe('the verification result', () => {
  const card = (name: string) => screen.getByRole('listitem', { name });

  it('shows an unverified account at level 0 with basic verification to apply for', async () => {
    renderAt('/renzhengResult', <VerificationResultPage />);
    expect((await screen.findByTestId('kyc-level', {}, { timeout: 5_000 })).textContent).toBe('Your verification level: 0');
    expect(card('Unverified').getAttribute('aria-current')).toBe('true');
    expect(within(card('Unverified')).getByText('Withdrawals: up to 1,000 USDT a day')).toBeTruthy();
    expect(within(card('Basic verification')).getByText('Not applied')).toBeTruthy();
    expect(within(card('Basic verification')).getByRole('link', { name: 'Apply now' }).getAttribute('href')).toBe('/shenfenRenzheng');
    // Advanced is offered only after basic approval.
    expect(within(card('Advanced verification')).queryByRole('link')).toBeNull();
    expect(within(card('Advanced verification')).getByText('Withdrawals: no daily limit')).toBeTruthy();
  });

  it('shows a basic application under review', async () => {
    kyc = { basic: 'pending', advanced: 'none', level: 0 };
    renderAt('/renzhengResult', <VerificationResultPage />);
    await screen.findByTestId('kyc-level', {}, { timeout: 5_000 });
    expect(within(card('Basic verification')).getByText('Under review')).toBeTruthy();
    expect(within(card('Basic verification')).getByTestId('kyc-review-time').textContent).toBe('Usually reviewed within 24 hours.');
    expect(within(card('Advanced verification')).queryByTestId('kyc-review-time')).toBeNull();
    expect(within(card('Basic verification')).queryByRole('link')).toBeNull();
  });

  it('shows basic approved as the current level and advanced to apply for', async () => {
    kyc = { basic: 'approved', advanced: 'none', level: 1 };
    renderAt('/renzhengResult', <VerificationResultPage />);
    expect((await screen.findByTestId('kyc-level', {}, { timeout: 5_000 })).textContent).toBe('Your verification level: 1');
    const basic = card('Basic verification');
    expect(basic.getAttribute('aria-current')).toBe('true');
    expect(within(basic).getByText('Your level')).toBeTruthy();
    expect(within(basic).getByText('Approved')).toBeTruthy();
    // Loans and investment products have no pages yet (issue 19): no card promises them.
    expect(within(basic).queryByText(/Loan|Investment/)).toBeNull();
    expect(screen.queryByText(/Loan limit|Investment products/)).toBeNull();
    expect(within(card('Advanced verification')).getByRole('link', { name: 'Apply now' }).getAttribute('href')).toBe('/shenfenRenzhengAd');
  });

  it('shows a rejection with the operator reason and a way to apply again', async () => {
    kyc = { basic: 'rejected', advanced: 'none', level: 0, basicReason: 'The name does not match the document.' };
    renderAt('/renzhengResult', <VerificationResultPage />);
    await screen.findByTestId('kyc-level', {}, { timeout: 5_000 });
    const basic = card('Basic verification');
    expect(within(basic).getByText('Rejected')).toBeTruthy();
    const note = within(basic).getByRole('note');
    expect(within(note).getByText('Reason: The name does not match the document.')).toBeTruthy();
    expect(within(note).getByRole('link', { name: 'Apply again' }).getAttribute('href')).toBe('/shenfenRenzheng');
  });
});

describe('advanced verification', () => {
  it('asks for basic verification first, and links to it', async () => {
    renderAt('/shenfenRenzhengAd', <AdvancedVerificationPage />);
    expect(await screen.findByRole('heading', { name: 'Basic verification first' }, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Start basic verification' }).getAttribute('href')).toBe('/shenfenRenzheng');
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    cleanup();

    kyc = { basic: 'pending', advanced: 'none', level: 0 };
    renderAt('/shenfenRenzhengAd', <AdvancedVerificationPage />);
    expect(await screen.findByText(/It is under review now\./, {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See the review status' }).getAttribute('href')).toBe('/renzhengResult');
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
  });

  it('checks the emergency contact phone, then confirms and sends applyAdvanced', async () => {
    kyc = { basic: 'approved', advanced: 'none', level: 1 };
    renderAt('/shenfenRenzhengAd', <AdvancedVerificationPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }, { timeout: 5_000 }));
    const phone = screen.getByLabelText("Contact's phone");
    await waitFor(() => expect(errorsUnder(phone)).toEqual(["Please enter the contact's phone number."]));
    expect(errorsUnder(screen.getByLabelText('Current address'))).toEqual(['Please enter your current address.']);
    expect(errorsUnder(screen.getByLabelText('Relationship'))).toEqual(['Please say how you know the contact.']);

    fireEvent.change(phone, { target: { value: 'call me maybe' } });
    fireEvent.blur(phone);
    await waitFor(() => expect(errorsUnder(phone)).toEqual(['Please enter a valid phone number, for example +44 20 7946 0958.']));
    fireEvent.change(screen.getByLabelText('Current address'), { target: { value: '1 Main Street, Springfield' } });
    fireEvent.change(screen.getByLabelText("Contact's surname"), { target: { value: 'Doe' } });
    fireEvent.change(screen.getByLabelText("Contact's first name"), { target: { value: 'John' } });
    fireEvent.change(screen.getByLabelText('Relationship'), { target: { value: 'brother' } });
    fireEvent.change(screen.getByLabelText("Contact's address"), { target: { value: '2 Main Street, Springfield' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(errorsUnder(phone)).toEqual(['Please enter a valid phone number, for example +44 20 7946 0958.']));
    expect(feedback.confirm).not.toHaveBeenCalled();
    expect(applied(kycPaths.applyAdvanced)).toEqual([]);

    fireEvent.change(phone, { target: { value: '+44 20 7946 0958' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect((await screen.findByTestId('landed', {}, { timeout: 5_000 })).textContent).toBe('/renzhengResult');
    expect(feedback.confirm).toHaveBeenCalledTimes(1);
    expect(applied(kycPaths.applyAdvanced)).toEqual([{
      currentAddress: '1 Main Street, Springfield', emergencySurname: 'Doe', emergencyName: 'John', emergencyRelationship: 'brother',
      emergencyPhone: '+44 20 7946 0958', emergencyAddress: '2 Main Street, Springfield',
    }]);
  });

  it('shows a rejected advanced application with its reason, and the form again on Apply again', async () => {
    kyc = { basic: 'approved', advanced: 'rejected', level: 1, advancedReason: 'The contact could not be reached.' };
    renderAt('/shenfenRenzhengAd', <AdvancedVerificationPage />);
    expect(await screen.findByText('Reason: The contact could not be reached.', {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByLabelText("Contact's phone")).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Apply again' }));
    expect(screen.getByLabelText("Contact's phone")).toBeTruthy();
  });
});

describe('the prompt on /my', () => {
  it('asks an unverified user to verify and leads to basic verification', async () => {
    renderAt('/my', <MyPage />);
    const prompt = await screen.findByTestId('my-kyc', {}, { timeout: 5_000 });
    expect(within(prompt).getByText('Verify your identity')).toBeTruthy();
    expect(within(prompt).getByText('Verification level 0 of 2. Verify to raise your withdrawal and loan limits.')).toBeTruthy();
    fireEvent.click(within(prompt).getByText('Verify your identity'));
    expect((await screen.findByTestId('landed')).textContent).toBe('/shenfenRenzheng');
  });

  it('does not prompt a user at the top level', async () => {
    kyc = { basic: 'approved', advanced: 'approved', level: 2 };
    renderAt('/my', <MyPage />);
    await screen.findByText('Level 2', {}, { timeout: 5_000 });
    expect(screen.queryByTestId('my-kyc')).toBeNull();
  });
});
