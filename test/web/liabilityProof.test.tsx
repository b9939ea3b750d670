// The proof-of-liabilities card: it verifies the user's leaf and path in the browser and says the
// balances are included in the published total (with its time in the user's language), warns when
// the user is not in it or the proof does not verify (a changed balance, a proof for another
// account), says when nothing is published yet, and offers a retry when the proof cannot load.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { api } from '../../src/api/api.ts';
import { paths } from '../../src/api/contract/paths.ts';
import { formatAmount } from '../../src/api/contract/amounts.ts';
import { liabilityPaths, type LiabilityProof, type LiabilityProofResult, type LiabilityRoot } from '../../src/api/contract/liabilities.ts';
import {
  buildLevels, leafIdOf, paddedLeafCount, pathOf, rootHash, toHex, type TreeAsset, type TreeBottomInput,
} from '../../src/api/contract/liabilityTree.ts';
import { userSlice } from '../../src/entities/session/userSlice.ts';
import { formatEpochMs } from '../../src/lib/time.ts';
import LiabilityProofCard from '../../src/features/wallet/LiabilityProofCard.tsx';
import { proofStateOf } from '../../src/features/wallet/liabilityProof.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const assets: TreeAsset[] = [{ currency: 'BTC', scale: 8 }, { currency: 'USDT', scale: 6 }];
const publishedAt = Date.UTC(2026, 10, 20, 8, 30);

/**
 * A publication of five users built with the shared tree code, padded as the server pads it (zero
 * padding leaves up to a power of two, the users' leaves among them); the proof of user `who`.
 */
function publication(who: string): LiabilityProofResult {
  const users = ['41', '42', '43', '44', '45'].map((id, i) => ({
    id, salt: new Uint8Array(32).fill(i + 1), balances: [BigInt(i) * 1_000n, BigInt(i + 1) * 2_500_000n],
  }));
  const leaves = users.map((user) => ({ salt: user.salt, leafId: leafIdOf(user.salt, user.id), balances: user.balances }));
  const leafCount = paddedLeafCount(users.length);
  const bottom: TreeBottomInput[] = Array.from({ length: leafCount }, (_, i) => ({ padding: true as const, salt: new Uint8Array(32).fill(100 + i) }));
  // The users sit at every third position, so padding leaves are their siblings on the way up.
  const positions = leaves.map((_, i) => i * 3);
  leaves.forEach((leaf, i) => { bottom[positions[i]] = leaf; });
  const levels = buildLevels(assets.length, bottom);
  const top = levels[levels.length - 1][0];
  const root: LiabilityRoot = {
    id: '9', time: publishedAt, root: toHex(rootHash(assets, top)), leafCount, trigger: 'daily',
    totals: assets.map((asset, i) => ({ currency: asset.currency, scale: asset.scale, total: formatAmount(top.sums[i], asset.scale) })),
  };
  const userIndex = users.findIndex((user) => user.id === who);
  const index = positions[userIndex];
  const proof: LiabilityProof = {
    userId: who, index, salt: toHex(users[userIndex].salt), leafId: toHex(leaves[userIndex].leafId),
    balances: users[userIndex].balances.map((balance, i) => ({ currency: assets[i].currency, amount: formatAmount(balance, assets[i].scale) })),
    path: pathOf(levels, index).map((node) => ({ hash: toHex(node.hash), sums: node.sums.map((sum, i) => formatAmount(sum, assets[i].scale)) })),
  };
  return { root, proof };
}

describe('proofStateOf', () => {
  it('verifies the user\'s own proof and refuses a changed one or one of another account', () => {
    const answer = publication('42');
    expect(proofStateOf(answer, '42').status).toBe('verified');
    expect(proofStateOf(answer, '43')).toMatchObject({ status: 'mismatch', failure: 'leaf_id' });
    const changed = { ...answer, proof: { ...answer.proof!, balances: [answer.proof!.balances[0], { currency: 'USDT', amount: '5.000001' }] } };
    expect(proofStateOf(changed, '42')).toMatchObject({ status: 'mismatch', failure: 'totals' });
    const sibling = { ...answer, proof: { ...answer.proof!, path: answer.proof!.path.map((step, i) => (i === 1 ? { ...step, hash: 'f'.repeat(64) } : step)) } };
    expect(proofStateOf(sibling, '42')).toMatchObject({ status: 'mismatch', failure: 'root' });
    expect(proofStateOf({ root: null, proof: null }, '42')).toEqual({ status: 'none' });
    expect(proofStateOf({ root: answer.root, proof: null }, '42')).toMatchObject({ status: 'absent', absence: null });
    expect(proofStateOf({ root: answer.root, proof: null, absence: 'account_newer' }, '42')).toMatchObject({ status: 'absent', absence: 'account_newer' });
  });
});

describe('LiabilityProofCard', () => {
  let answer: LiabilityProofResult | 'fail';
  let proofRequests = 0;

  beforeEach(() => {
    i18n.activate('en-us');
    proofRequests = 0;
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      const path = new URL(String(url), 'https://bourse.test').pathname.replace(/^\/api/, '');
      const reply = (result: unknown) => new Response(JSON.stringify({ success: true, code: 200, message: '', result, timestamp: 0 }));
      if (path === paths.myUserInfo) return reply({ id: '42', account: 'a@example.com', accountType: 'email' });
      if (path === liabilityPaths.proof) {
        proofRequests += 1;
        if (answer === 'fail') return new Response('bad gateway', { status: 502 });
        return reply(answer);
      }
      throw new Error(`no answer scripted for ${path}`);
    }));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    i18n.activate('en-us');
  });

  function renderCard() {
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
      middleware: (getDefault) => getDefault().concat(api.middleware),
    });
    render(<Provider store={store}><I18nProvider i18n={i18n}><LiabilityProofCard /></I18nProvider></Provider>);
  }

  // The date module's one form, in the interface language given.
  const expectedTime = (locale: string) => formatEpochMs(publishedAt, 'dateTime', { locale });

  it('says verified with the time of the published total, and shows the details', async () => {
    answer = publication('42');
    renderCard();
    expect(screen.getByTestId('liability-verifying')).toBeTruthy();
    const verified = await screen.findByTestId('liability-verified');
    expect(verified.textContent).toBe(`Your balances are included in the published total of ${expectedTime('en-us')}.`);
    const root = answer.root!;
    expect(screen.getByTestId('liability-root').textContent).toBe(root.root);
    // Five users padded to sixteen leaves: four levels of siblings.
    expect(screen.getByTestId('liability-path-length').textContent).toBe('4');
    const usdt = within(screen.getByTestId('liability-asset-USDT'));
    expect(usdt.getByText('5.000000')).toBeTruthy();
    expect(usdt.getByText(root.totals[1].total.replace(/^(\d+)(\d{3})\./, '$1,$2.'))).toBeTruthy();
    expect(within(screen.getByTestId('liability-asset-BTC')).getByText('0.00001000')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('warns when a balance in the proof was changed', async () => {
    const good = publication('42');
    answer = { ...good, proof: { ...good.proof!, balances: [good.proof!.balances[0], { currency: 'USDT', amount: '50.000000' }] } };
    renderCard();
    const warning = await screen.findByTestId('liability-mismatch');
    expect(warning.getAttribute('role')).toBe('alert');
    expect(warning.textContent).toContain(`Warning: the proof of your balances in the total published on ${expectedTime('en-us')} does not verify.`);
    expect(warning.textContent).toContain('The proof adds up to other totals than the published ones.');
    expect(screen.queryByTestId('liability-verified')).toBeNull();
  });

  it('warns when the proof is another account\'s', async () => {
    answer = publication('43');
    renderCard();
    expect((await screen.findByTestId('liability-mismatch')).textContent).toContain('The proof is not for your account.');
  });

  it('warns when the user is not in the latest total', async () => {
    answer = { root: publication('42').root, proof: null };
    renderCard();
    expect((await screen.findByTestId('liability-absent')).textContent)
      .toContain(`Your balances are not in the total published on ${expectedTime('en-us')}.`);
  });

  it('says calmly that an account newer than the total is in the next one', async () => {
    answer = { root: publication('42').root, proof: null, absence: 'account_newer' };
    renderCard();
    expect((await screen.findByTestId('liability-later')).textContent)
      .toBe(`Your account was opened after the latest published total (of ${expectedTime('en-us')}). It will be included in the next one.`);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when nothing is published yet, without details', async () => {
    answer = { root: null, proof: null };
    renderCard();
    expect((await screen.findByTestId('liability-none')).textContent).toBe('No total of user balances has been published yet.');
    expect(screen.queryByText('Details')).toBeNull();
  });

  it('offers a retry when the proof cannot load', async () => {
    answer = 'fail';
    renderCard();
    const retry = await screen.findByRole('button', { name: 'Try again' });
    answer = publication('42');
    fireEvent.click(retry);
    await screen.findByTestId('liability-verified');
    expect(proofRequests).toBeGreaterThanOrEqual(2);
  });

  it('writes the time in the user\'s language', async () => {
    answer = publication('42');
    i18n.activate('ko');
    renderCard();
    await waitFor(() => expect(screen.getByTestId('liability-verified').textContent).toContain(expectedTime('ko')));
  });
});
