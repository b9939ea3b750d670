// The deposit page (issue 9): the proof photo's sizing (aspect kept, longest side limited, small
// pictures left alone), the amount checked as the server checks it (scale, minimum, in bigint)
// with its message under the field, the upload's progress and refusals, and the page itself
// against a scripted server: the address shown, nothing sent while the form is refused.
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { configureApiClient } from '../../src/api/api.ts';
import { walletPaths, type CurrencyInfo } from '../../src/api/contract/wallet.ts';
import { paths } from '../../src/api/contract/paths.ts';
import DepositPage, {
  checkDepositAmount, chooseDeposit, decimalMarkOf, decimalsOf, depositableCurrencies, normalizeAmount, spellAmount,
} from '../../src/features/wallet/DepositPage.tsx';
import { fitWithin, jpegName, planProofImage, proofLongestSideMax, proofSmallBytes } from '../../src/lib/proofImage.ts';
import { uploadFailure, uploadFile } from '../../src/api/uploadFile.ts';
import { testStore } from './testStore.ts';

// The confirmation is antd-mobile's Dialog in a root of its own: here the user confirms at once.
const confirmDialog = vi.hoisted(() => vi.fn(async () => true));
vi.mock('../../src/components/feedback.tsx', () => ({ confirmDialog, showToast: vi.fn(), alertDialog: vi.fn() }));

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const currencies: CurrencyInfo[] = [
  {
    currency: 'USDT', name: 'Tether', scale: 6, networks: [
      { network: 'TRC20', depositEnabled: true, withdrawalEnabled: true, depositMin: '10.000000', withdrawalMin: '10.000000', withdrawalFee: '1.000000' },
      { network: 'ERC20', depositEnabled: true, withdrawalEnabled: true, depositMin: '10.000000', withdrawalMin: '20.000000', withdrawalFee: '5.000000' },
      { network: 'BEP20', depositEnabled: false, withdrawalEnabled: true, depositMin: '1.000000', withdrawalMin: '1.000000', withdrawalFee: '1.000000' },
    ],
  },
  {
    currency: 'BTC', name: 'Bitcoin', scale: 8, networks: [
      { network: 'BTC', depositEnabled: true, withdrawalEnabled: true, depositMin: '0.00050000', withdrawalMin: '0.00100000', withdrawalFee: '0.00020000' },
    ],
  },
  {
    currency: 'XYZ', name: 'Closed', scale: 2, networks: [
      { network: 'ERC20', depositEnabled: false, withdrawalEnabled: false, depositMin: '1.00', withdrawalMin: '1.00', withdrawalFee: '0.00' },
    ],
  },
];

const errorsUnder = (element: Element) =>
  [...element.closest('.adm-form-item')!.querySelectorAll('.adm-form-item-feedback-error')].map((line) => line.textContent);

describe('the proof photo sizing', () => {
  it('keeps the aspect and limits the longest side, landscape or portrait', () => {
    expect(fitWithin(2000, 1500)).toEqual({ width: 1600, height: 1200 });
    expect(fitWithin(1500, 2000)).toEqual({ width: 1200, height: 1600 });
    expect(fitWithin(4032, 3024)).toEqual({ width: 1600, height: 1200 });
    expect(fitWithin(3000, 3000)).toEqual({ width: 1600, height: 1600 });
    // A long receipt screenshot: the short side stays at least one pixel.
    expect(fitWithin(40_000, 10)).toEqual({ width: 1600, height: 1 });
    for (const [width, height] of [[4000, 3000], [1080, 2400], [3264, 2448], [1601, 900]]) {
      const fitted = fitWithin(width, height);
      expect(Math.max(fitted.width, fitted.height)).toBe(proofLongestSideMax);
      expect(Math.abs(fitted.width / fitted.height - width / height)).toBeLessThan(0.01 * (width / height) + 1 / fitted.height);
    }
  });

  it('never enlarges a picture that fits', () => {
    expect(fitWithin(800, 600)).toEqual({ width: 800, height: 600 });
    expect(fitWithin(1600, 1200)).toEqual({ width: 1600, height: 1200 });
  });

  it('refuses a size that is not a picture', () => {
    expect(() => fitWithin(0, 100)).toThrow();
    expect(() => fitWithin(Number.NaN, 100)).toThrow();
  });

  it('sends a small picture that fits as it is, and re-encodes a large, heavy or odd one', () => {
    expect(planProofImage({ width: 800, height: 600, bytes: 90_000, type: 'image/jpeg' })).toEqual({ action: 'keep' });
    expect(planProofImage({ width: 1600, height: 1200, bytes: proofSmallBytes, type: 'image/png' })).toEqual({ action: 'keep' });
    // Fits but heavy (a lossless screenshot): same size, as JPEG.
    expect(planProofImage({ width: 1200, height: 900, bytes: proofSmallBytes + 1, type: 'image/png' }))
      .toEqual({ action: 'reencode', width: 1200, height: 900 });
    // Too large, however light.
    expect(planProofImage({ width: 2000, height: 1500, bytes: 50_000, type: 'image/jpeg' }))
      .toEqual({ action: 'reencode', width: 1600, height: 1200 });
    // A type the server does not keep (HEIC, GIF, BMP) is re-encoded even when small.
    expect(planProofImage({ width: 640, height: 480, bytes: 20_000, type: 'image/heic' }))
      .toEqual({ action: 'reencode', width: 640, height: 480 });
  });

  it('names the re-encoded file as a JPEG', () => {
    expect(jpegName('IMG_2041.HEIC')).toBe('IMG_2041.jpg');
    expect(jpegName('receipt.final.png')).toBe('receipt.final.jpg');
    expect(jpegName('photo')).toBe('photo.jpg');
    expect(jpegName('.png')).toBe('proof.jpg');
  });
});

describe('the deposit amount', () => {
  it('is refused as the server refuses it, by code', () => {
    const check = (text: string) => {
      const result = checkDepositAmount(text, 6, '10.000000');
      return result.ok ? result.text : result.code;
    };
    expect(check('')).toBe('amount_empty');
    expect(check('  ')).toBe('amount_empty');
    expect(check('-12')).toBe('amount_negative');
    expect(check('1e3')).toBe('amount_exponent');
    expect(check('12abc')).toBe('amount_malformed');
    expect(check('1.2.3')).toBe('amount_malformed');
    expect(check('12.1234567')).toBe('amount_too_many_decimals');
    expect(check('1'.repeat(40))).toBe('amount_too_large');
    expect(check('0')).toBe('amount_not_positive');
    expect(check('0.000000')).toBe('amount_not_positive');
    expect(check('9.999999')).toBe('amount_below_minimum');
    expect(check('10')).toBe('10');
    expect(check(' 12.5 ')).toBe('12.5');
    // A significant digit beyond the scale is refused; trailing zeros are not significant.
    expect(check('12.5000000')).toBe('12.5000000');
  });

  it('compares with the minimum exactly, beyond what a float holds', () => {
    expect(checkDepositAmount('0.0005', 8, '0.00050000')).toMatchObject({ ok: true, atomic: 50_000n });
    expect(checkDepositAmount('0.00049999', 8, '0.00050000')).toEqual({ ok: false, code: 'amount_below_minimum' });
    const big = '123456789012345678901234567.123456';
    expect(checkDepositAmount(big, 6, '10')).toMatchObject({ ok: true, atomic: 123456789012345678901234567123456n });
  });

  it('reads a decimal comma as the point only in a language that writes one', () => {
    expect(normalizeAmount('10,5', ',')).toBe('10.5');
    expect(normalizeAmount(',5', ',')).toBe('.5');
    expect(normalizeAmount('1.000,5', ',')).toBe('1.000,5');
    expect(normalizeAmount('10,5')).toBe('10,5');
    expect(decimalMarkOf('es-ES')).toBe(',');
    expect(decimalMarkOf('vi-VN')).toBe(',');
    expect(decimalMarkOf('en-US')).toBe('.');
    expect(checkDepositAmount('12,25', 6, '10', ',')).toMatchObject({ ok: true, text: '12.25' });
    // In English "1,000" is a thousand written with a separator: refused, never read as 1.
    expect(checkDepositAmount('1,000', 6, '10', '.')).toEqual({ ok: false, code: 'amount_malformed' });
  });

  it('is spelled exactly, with the decimals it needs', () => {
    expect(decimalsOf('10.000000')).toBe(0);
    expect(decimalsOf('0.00050000')).toBe(4);
    expect(decimalsOf('12')).toBe(0);
    // At the currency's display precision, as the withdrawal and the records write it (issue 19 #7).
    expect(spellAmount('10.000000', 'USDT', 6, 'en-US')).toBe('10.00');
    expect(spellAmount('0.00050000', 'BTC', 8, 'en-US')).toBe('0.00050000');
    expect(spellAmount('12345.5', 'USDT', 6, 'en-US')).toBe('12,345.50');
    expect(spellAmount('12345.5', 'USDT', 6, 'es-ES')).toBe('12.345,50');
    expect(spellAmount('0.001', 'USDT', 6, 'en-US')).toBe('0.001');
    expect(spellAmount('0.123456789', 'USDT', 6, 'en-US')).toBe('0.123456');
  });
});

describe('the currencies and networks offered', () => {
  it('offers only the networks that take deposits, and no currency without one', () => {
    const offered = depositableCurrencies(currencies);
    expect(offered.map((entry) => entry.currency)).toEqual(['USDT', 'BTC']);
    expect(offered[0].networks.map((entry) => entry.network)).toEqual(['TRC20', 'ERC20']);
  });

  it('follows the address when it names an open choice, else takes the first', () => {
    const offered = depositableCurrencies(currencies);
    const pick = (currency: string | null, network: string | null) => {
      const chosen = chooseDeposit(offered, currency, network);
      return chosen && `${chosen.currency.currency}/${chosen.network.network}`;
    };
    expect(pick('USDT', 'ERC20')).toBe('USDT/ERC20');
    expect(pick('usdt', 'erc20')).toBe('USDT/ERC20');
    expect(pick('USDT', 'BEP20')).toBe('USDT/TRC20');
    expect(pick('BTC', 'TRC20')).toBe('BTC/BTC');
    expect(pick('XYZ', null)).toBe('USDT/TRC20');
    expect(pick(null, null)).toBe('USDT/TRC20');
    expect(chooseDeposit([], 'USDT', 'TRC20')).toBeUndefined();
  });
});

/** A scripted XMLHttpRequest: records what is sent and answers when told. */
class FakeRequest {
  static last: FakeRequest | undefined;
  headers: Record<string, string> = {};
  method = '';
  url = '';
  body: FormData | undefined;
  status = 0;
  responseText = '';
  timeout = 0;
  private listeners = new Map<string, (() => void)[]>();
  upload = {
    listeners: [] as ((event: { lengthComputable: boolean; loaded: number; total: number }) => void)[],
    addEventListener: (_type: string, listener: (event: { lengthComputable: boolean; loaded: number; total: number }) => void) => {
      this.upload.listeners.push(listener);
    },
  };
  constructor() {
    FakeRequest.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.emit('abort');
  }
  progress(loaded: number, total: number) {
    for (const listener of this.upload.listeners) listener({ lengthComputable: true, loaded, total });
  }
  answer(status: number, envelope: unknown) {
    this.status = status;
    this.responseText = typeof envelope === 'string' ? envelope : JSON.stringify(envelope);
    this.emit('load');
  }
  emit(type: string) {
    for (const listener of this.listeners.get(type) ?? []) listener();
  }
}

describe('the upload', () => {
  beforeEach(() => {
    vi.stubGlobal('XMLHttpRequest', FakeRequest);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends the file and its purpose with the token, reports progress and answers the stored file', async () => {
    const progress: number[] = [];
    const file = new Blob(['x'.repeat(1000)], { type: 'image/jpeg' });
    const answer = uploadFile({ file, fileName: 'proof.jpg', purpose: 'deposit_proof', token: 'T0KEN', onProgress: (fraction) => progress.push(fraction) });
    const request = FakeRequest.last!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`/api${walletPaths.upload}`);
    expect(request.headers['X-Access-Token']).toBe('T0KEN');
    expect(request.body!.get('purpose')).toBe('deposit_proof');
    expect((request.body!.get('file') as File).name).toBe('proof.jpg');
    request.progress(250, 1000);
    request.progress(1000, 1000);
    const stored = { id: 'a'.repeat(32), url: `/api/sys/common/file/${'a'.repeat(32)}`, contentType: 'image/jpeg', size: 900 };
    request.answer(200, { success: true, code: 200, message: '', result: stored, timestamp: 0 });
    await expect(answer).resolves.toEqual(stored);
    expect(progress).toEqual([0.25, 1, 1]);
  });

  it('rejects with the refusal in the user language, shaped like every other call', async () => {
    const answer = uploadFile({ file: new Blob(['%PDF']), fileName: 'x.gif', purpose: 'deposit_proof', token: 'T' });
    FakeRequest.last!.answer(400, { success: false, code: 400, message: 'Only JPEG, PNG, WebP or PDF.', result: { error: 'file_type_unsupported' }, timestamp: 0 });
    await expect(answer).rejects.toEqual({
      kind: 'api', code: 400, error: 'file_type_unsupported', message: 'Please choose a JPEG, PNG or WebP image, or a PDF.', retryAfterSeconds: undefined,
    });
  });

  it('names a proxy refusal without an envelope and a lost connection', async () => {
    expect(uploadFailure(413, '<html>Request Entity Too Large</html>')).toMatchObject({ error: 'file_too_large', message: 'The file is too large.' });
    expect(uploadFailure(502, 'Bad gateway')).toMatchObject({ kind: 'network', status: 502 });
    const answer = uploadFile({ file: new Blob(['x']), fileName: 'p.jpg', purpose: 'deposit_proof', token: 'T' });
    FakeRequest.last!.emit('error');
    await expect(answer).rejects.toMatchObject({ kind: 'network', message: 'Network error. Please check your connection and try again.' });
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    const answer = uploadFile({ file: new Blob(['x']), fileName: 'p.jpg', purpose: 'deposit_proof', token: 'T', signal: controller.signal });
    controller.abort();
    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('DepositPage', () => {
  let applied: Record<string, unknown>[];
  let applyAnswer: (body: Record<string, unknown>) => unknown;
  let notify: Mock<(message: string) => void>;

  function renderPage(route: string) {
    vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
      const where = new URL(String(url), 'https://bourse.test');
      const path = where.pathname.replace(/^\/api/, '');
      const reply = (envelope: unknown) => new Response(JSON.stringify(envelope), { status: 200 });
      const ok = (result: unknown) => reply({ success: true, code: 200, message: '', result, timestamp: 0 });
      if (path === paths.publicKey) return ok('PEM');
      if (path === walletPaths.currencyList) return ok(currencies);
      if (path === walletPaths.depositAddress) {
        const currency = where.searchParams.get('currency');
        const network = where.searchParams.get('network');
        return ok({ currency, network, address: `ADDR-${currency}-${network}-T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb`, depositMin: '10.000000' });
      }
      if (path === walletPaths.rechargeApply) {
        const body = JSON.parse(String(init!.body)) as Record<string, unknown>;
        applied.push(body);
        return reply(applyAnswer(body));
      }
      throw new Error(`no answer scripted for ${path}`);
    }));
    const store = testStore('T0KEN');
    render(<Provider store={store}><I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path="/chongzhi" element={<DepositPage />} />
          <Route path="/chongzhitixianResult" element={<Landed />} />
        </Routes>
      </MemoryRouter>
    </I18nProvider></Provider>);
  }

  beforeEach(() => {
    applied = [];
    applyAnswer = () => ({ success: true, code: 200, message: '', result: { id: '41' }, timestamp: 0 });
    notify = vi.fn<(message: string) => void>();
    configureApiClient({ notify });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // jsdom draws nothing: the QR code's canvas has no context, and the page goes on without it.
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the chosen network address, its warning and minimum, and offers only open networks', async () => {
    renderPage('/chongzhi?currency=USDT&network=ERC20');
    expect(await screen.findByText('ADDR-USDT-ERC20-T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb')).toBeTruthy();
    expect(screen.getByText(/Send only USDT on the ERC20 network to this address/)).toBeTruthy();
    expect(screen.getByText('Minimum deposit: 10.00 USDT')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'QR code of the USDT ERC20 deposit address' })).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'ERC20' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('radio', { name: 'BEP20' })).toBeNull();
    expect(screen.queryByRole('radio', { name: /XYZ/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Deposit records' }).getAttribute('href')).toBe('/chongzhitixianRecord?tab=deposit');

    fireEvent.click(screen.getByRole('radio', { name: /BTC/ }));
    expect(await screen.findByText('ADDR-BTC-BTC-T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb')).toBeTruthy();
    expect(screen.getByText('Minimum deposit: 0.00050000 BTC')).toBeTruthy();
  });

  it('says under the amount what is wrong, shows the arrival, and sends nothing while refused', async () => {
    renderPage('/chongzhi?currency=USDT&network=TRC20');
    await screen.findByText('ADDR-USDT-TRC20-T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb');
    const amount = screen.getByPlaceholderText('At least 10.00');
    expect(amount.getAttribute('inputmode')).toBe('decimal');

    fireEvent.change(amount, { target: { value: '5' } });
    fireEvent.blur(amount);
    await waitFor(() => expect(errorsUnder(amount)).toEqual(['The minimum deposit is 10.00 USDT.']));
    expect(screen.getByTestId('deposit-arrival').textContent).toBe('—');

    fireEvent.change(amount, { target: { value: '12.1234567' } });
    fireEvent.blur(amount);
    await waitFor(() => expect(errorsUnder(amount)).toEqual(['The amount has too many decimal places for this currency.']));

    fireEvent.change(amount, { target: { value: '1e3' } });
    fireEvent.blur(amount);
    await waitFor(() => expect(errorsUnder(amount)).toEqual(['Please write the amount with digits only.']));

    fireEvent.change(amount, { target: { value: '1234.5' } });
    fireEvent.blur(amount);
    await waitFor(() => expect(errorsUnder(amount)).toEqual([]));
    expect(screen.getByTestId('deposit-arrival').textContent).toBe('1,234.50 USDT');
    expect(screen.getByText(/Deposits carry no fee/)).toBeTruthy();

    const hash = screen.getByPlaceholderText('Paste it from your wallet');
    fireEvent.change(hash, { target: { value: 'abc-123' } });
    fireEvent.blur(hash);
    await waitFor(() => expect(errorsUnder(hash)).toEqual(['A transaction hash is 8 to 128 letters and digits.']));

    // No proof yet: the form is refused in place and nothing is sent.
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    const gallery = screen.getByLabelText('Choose a photo from the gallery');
    await waitFor(() => expect(errorsUnder(gallery)).toEqual(['Please attach a photo of the payment proof.']));
    expect(gallery.getAttribute('accept')).toBe('image/*');
    expect(screen.getByLabelText('Take a photo with the camera').getAttribute('capture')).toBe('environment');
    expect(applied).toEqual([]);
  });
});

function Landed() {
  const location = useLocation();
  return <p data-testid="landed">{`${location.pathname}${location.search}`}</p>;
}

describe('DepositPage submitting', () => {
  let applied: Record<string, unknown>[];
  let answers: unknown[];
  const notify = vi.fn<(message: string) => void>();

  beforeEach(() => {
    applied = [];
    answers = [];
    notify.mockReset();
    confirmDialog.mockClear();
    configureApiClient({ notify });
    vi.stubGlobal('XMLHttpRequest', FakeRequest);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:proof'), revokeObjectURL: vi.fn() }));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
      const where = new URL(String(url), 'https://bourse.test');
      const path = where.pathname.replace(/^\/api/, '');
      const reply = (envelope: unknown) => new Response(JSON.stringify(envelope), { status: 200 });
      const ok = (result: unknown) => reply({ success: true, code: 200, message: '', result, timestamp: 0 });
      if (path === paths.publicKey) return ok('PEM');
      if (path === walletPaths.currencyList) return ok(currencies);
      if (path === walletPaths.depositAddress) return ok({ currency: 'USDT', network: 'TRC20', address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', depositMin: '10.000000' });
      if (path === walletPaths.rechargeApply) {
        applied.push(JSON.parse(String(init!.body)) as Record<string, unknown>);
        return reply(answers.shift());
      }
      throw new Error(`no answer scripted for ${path}`);
    }));
    const store = testStore('T0KEN');
    render(<Provider store={store}><I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={['/chongzhi?currency=USDT&network=TRC20']}>
        <Routes>
          <Route path="/chongzhi" element={<DepositPage />} />
          <Route path="/chongzhitixianResult" element={<Landed />} />
        </Routes>
      </MemoryRouter>
    </I18nProvider></Provider>);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const refusal = (code: number, error: string, message: string) => ({ success: false, code, message, result: { error }, timestamp: 0 });

  it('uploads the proof, confirms, places each refusal in place without a toast, and opens the result', async () => {
    await screen.findByText('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb');
    fireEvent.change(screen.getByPlaceholderText('At least 10.00'), { target: { value: '20' } });
    const gallery = screen.getByLabelText('Choose a photo from the gallery');
    const photo = new File([new Uint8Array(2048)], 'receipt.png', { type: 'image/png' });
    fireEvent.change(gallery, { target: { files: [photo] } });
    await waitFor(() => expect(FakeRequest.last?.body?.get('file')).toBeTruthy());
    expect(FakeRequest.last!.headers['X-Access-Token']).toBe('T0KEN');
    FakeRequest.last!.progress(1024, 2048);
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    const proofId = 'b'.repeat(32);
    FakeRequest.last!.answer(200, { success: true, code: 200, message: '', result: { id: proofId, url: '', contentType: 'image/png', size: 2048 }, timestamp: 0 });
    await screen.findByText('Photo uploaded.');
    expect(screen.getByRole('img', { name: 'Preview of the payment proof' })).toBeTruthy();

    // Refused as a duplicate: under the form.
    answers.push(refusal(409, 'deposit_duplicate', 'duplicate'));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('This proof or transaction already backs another deposit request.'));
    expect(confirmDialog).toHaveBeenCalledTimes(1);
    expect(applied[0]).toMatchObject({ currency: 'USDT', network: 'TRC20', amount: '20', proofFileId: proofId });
    expect(applied[0]).not.toHaveProperty('txHash');

    // Refused for the minimum (an operator raised it meanwhile): under the amount.
    answers.push(refusal(400, 'amount_below_minimum', 'The minimum deposit is 50.000000 USDT.'));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    const amount = screen.getByPlaceholderText('At least 10.00');
    await waitFor(() => expect(errorsUnder(amount)).toEqual(['The amount is below the minimum.']));
    expect(notify).not.toHaveBeenCalled();

    // Accepted: the result page of this request opens.
    answers.push({ success: true, code: 200, message: '', result: { id: '41' }, timestamp: 0 });
    fireEvent.change(screen.getByPlaceholderText('Paste it from your wallet'), { target: { value: 'ab12cd34ef56' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect((await screen.findByTestId('landed')).textContent).toBe('/chongzhitixianResult?kind=deposit&id=41');
    expect(applied[2]).toMatchObject({ amount: '20', txHash: 'ab12cd34ef56', proofFileId: proofId });
  });

  it('sends nothing when the confirmation is cancelled, and removes a photo', async () => {
    await screen.findByText('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb');
    fireEvent.change(screen.getByPlaceholderText('At least 10.00'), { target: { value: '10' } });
    fireEvent.change(screen.getByLabelText('Choose a photo from the gallery'), { target: { files: [new File(['x'], 'a.jpg', { type: 'image/jpeg' })] } });
    await waitFor(() => expect(FakeRequest.last?.body).toBeTruthy());
    FakeRequest.last!.answer(400, refusal(400, 'file_type_unsupported', 'no'));
    expect((await screen.findByRole('alert')).textContent).toBe('Please choose a JPEG, PNG or WebP image, or a PDF.');

    fireEvent.change(screen.getByLabelText('Choose a photo from the gallery'), { target: { files: [new File(['y'], 'b.jpg', { type: 'image/jpeg' })] } });
    await waitFor(() => expect((FakeRequest.last?.body?.get('file') as File | undefined)?.name).toBe('b.jpg'));
    FakeRequest.last!.answer(200, { success: true, code: 200, message: '', result: { id: 'c'.repeat(32), url: '', contentType: 'image/jpeg', size: 1 }, timestamp: 0 });
    await screen.findByText('Photo uploaded.');
    confirmDialog.mockResolvedValueOnce(false);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(confirmDialog).toHaveBeenCalledTimes(1));
    expect(applied).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Remove the photo' }));
    expect(screen.queryByRole('img', { name: 'Preview of the payment proof' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    const gallery = screen.getByLabelText('Choose a photo from the gallery');
    await waitFor(() => expect(errorsUnder(gallery)).toEqual(['Please attach a photo of the payment proof.']));
    expect(confirmDialog).toHaveBeenCalledTimes(1);
    expect(applied).toEqual([]);
  });
});
