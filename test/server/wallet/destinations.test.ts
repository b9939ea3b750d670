// /api/user/appUserWithdrawalInfoSet/*: binding bank cards and chain addresses. Addresses are
// checked per network with the networks' own encodings; each user sees and edits only their own.
import { describe, expect, it } from 'vitest';
import { withdrawalPaths } from '../../../src/api/contract/withdrawals.ts';
import { checkAddress, eip55 } from '../../../server/domain/core/wallet/addresses.ts';
import { destinationsPerUserMax } from '../../../server/domain/core/wallet/destinations.ts';
import { expectOk, expectRefused, forEachDatabase } from '../helpers.ts';
import { addresses } from './withdrawHelpers.ts';

describe('checkAddress', () => {
  it('accepts each network\'s valid forms and answers them canonically', () => {
    expect(checkAddress('TRC20', addresses.trc20)).toEqual({ ok: true, address: addresses.trc20 });
    expect(checkAddress('ERC20', addresses.erc20)).toEqual({ ok: true, address: addresses.erc20 });
    // All one case carries no checksum: accepted, and answered in its EIP-55 spelling.
    expect(checkAddress('ERC20', addresses.erc20.toLowerCase())).toEqual({ ok: true, address: addresses.erc20 });
    expect(checkAddress('ERC20', `0x${addresses.erc20.slice(2).toUpperCase()}`)).toEqual({ ok: true, address: addresses.erc20 });
    for (const btc of [addresses.btcBech32, addresses.btcTaproot, addresses.btcP2pkh, addresses.btcP2sh]) {
      expect(checkAddress('BTC', btc)).toEqual({ ok: true, address: btc });
    }
    expect(checkAddress('BTC', addresses.btcBech32.toUpperCase())).toEqual({ ok: true, address: addresses.btcBech32 });
  });

  it('computes EIP-55 as the standard\'s own examples spell them', () => {
    for (const example of ['0x52908400098527886E0F7030069857D2E4169EE7', '0xde709f2102306220921060314715629080e2fb77',
      '0x27b1fdb04752bbc536007a920d24acb045561c26', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB']) {
      const digits = example.slice(2);
      const oneCase = digits === digits.toLowerCase() || digits === digits.toUpperCase();
      if (!oneCase) expect(eip55(digits.toLowerCase())).toBe(example);
    }
  });

  it('refuses typos, a broken checksum, another format and testnet', () => {
    const flipLast = (text: string) => text.slice(0, -1) + (text.endsWith('t') ? 'u' : 't');
    expect(checkAddress('TRC20', flipLast(addresses.trc20))).toEqual({ ok: false, refusal: 'address_invalid' });
    // One letter's case changed: the EIP-55 checksum no longer matches.
    const badCase = `${addresses.erc20.slice(0, -1)}D`;
    expect(checkAddress('ERC20', badCase)).toEqual({ ok: false, refusal: 'address_invalid' });
    expect(checkAddress('ERC20', `${addresses.erc20}00`)).toEqual({ ok: false, refusal: 'address_invalid' });
    expect(checkAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5')).toEqual({ ok: false, refusal: 'address_invalid' });
    expect(checkAddress('BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3')).toEqual({ ok: false, refusal: 'address_invalid' });
    expect(checkAddress('BTC', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).toEqual({ ok: false, refusal: 'address_invalid' });
    // Mixed case is never bech32.
    expect(checkAddress('BTC', 'bc1Qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toEqual({ ok: false, refusal: 'address_invalid' });
    expect(checkAddress('ERC20', addresses.trc20)).toEqual({ ok: false, refusal: 'address_wrong_network' });
    expect(checkAddress('TRC20', addresses.erc20)).toEqual({ ok: false, refusal: 'address_wrong_network' });
    expect(checkAddress('BTC', addresses.erc20)).toEqual({ ok: false, refusal: 'address_wrong_network' });
    expect(checkAddress('TRC20', addresses.btcP2pkh)).toEqual({ ok: false, refusal: 'address_wrong_network' });
    expect(checkAddress('TRC20', '')).toEqual({ ok: false, refusal: 'address_invalid' });
    expect(checkAddress('DOGE', addresses.trc20)).toEqual({ ok: false, refusal: 'network_unknown' });
  });
});

forEachDatabase((server) => {
  const add = (token: string, body: Record<string, unknown>) => server.post(withdrawalPaths.addDestination, body, { token });
  const list = async (token: string) => expectOk(await server.get(withdrawalPaths.listDestinations, {}, { token })).body.result as any[];

  it('binds a chain address and a bank card; the list shows them, the card masked', async () => {
    const user = await server.registerByEmail();
    const chain = expectOk(await add(user.token, { type: 'chain', currency: 'USDT', network: 'ERC20', address: addresses.erc20.toLowerCase() }));
    expect(chain.body.result).toMatchObject({ type: 'chain', currency: 'USDT', network: 'ERC20', address: addresses.erc20, cardNumber: null });
    const bank = expectOk(await add(user.token, { type: 'bank', bankName: ' Bank of Test ', realName: 'Ana Lee', cardNumber: '6222 0212-3456 7890' }));
    expect(bank.body.result).toMatchObject({ type: 'bank', bankName: 'Bank of Test', realName: 'Ana Lee', cardNumber: '•••• 7890', address: null });
    const rows = await list(user.token);
    expect(rows.map((row) => row.id)).toEqual([bank.body.result.id, chain.body.result.id]);
    expect(JSON.stringify(rows)).not.toContain('6222021234567890');
  });

  it('refuses a malformed, wrong-network or unsupported address, an unknown currency and a bad card, binding nothing', async () => {
    const user = await server.registerByEmail();
    const chain = (fields: Record<string, string>) => add(user.token, { type: 'chain', currency: 'USDT', network: 'TRC20', address: addresses.trc20, ...fields });
    expectRefused(await chain({ address: `${addresses.trc20.slice(0, -1)}u` }), 400, 'address_invalid');
    expectRefused(await chain({ address: addresses.erc20 }), 400, 'address_wrong_network');
    expectRefused(await chain({ network: 'ERC20', address: `${addresses.erc20.slice(0, -1)}D` }), 400, 'address_invalid');
    expectRefused(await chain({ network: 'BTC', address: addresses.btcBech32 }), 404, 'network_unknown');
    expectRefused(await chain({ currency: 'DOGE' }), 404, 'currency_unknown');
    expectRefused(await chain({ currency: 'usdt' }), 400, 'invalid_request');
    expectRefused(await add(user.token, { type: 'bank', bankName: 'B', realName: 'R', cardNumber: '12-34-56-7' }), 400, 'card_number_invalid');
    expectRefused(await add(user.token, { type: 'bank', bankName: '  ', realName: 'R', cardNumber: '6222021234567890' }), 400, 'invalid_request');
    expectRefused(await add(user.token, { type: 'bank', bankName: 'B', realName: 'R', cardNumber: '6222021234567890', address: 'x' }), 400, 'invalid_request');
    expect(await list(user.token)).toEqual([]);
  });

  it('edits only the owner\'s destination: another user\'s id is not found and stays as it was', async () => {
    const owner = await server.registerByEmail();
    const other = await server.registerByEmail();
    const id = expectOk(await add(owner.token, { type: 'chain', currency: 'USDT', network: 'TRC20', address: addresses.trc20 })).body.result.id;
    const edit = { id, type: 'chain', currency: 'BTC', network: 'BTC', address: addresses.btcTaproot };
    expectRefused(await server.post(withdrawalPaths.editDestination, edit, { token: other.token }), 404, 'destination_not_found');
    expect(await list(other.token)).toEqual([]);
    expect((await list(owner.token))[0]).toMatchObject({ id, network: 'TRC20', address: addresses.trc20 });
    expectRefused(await server.post(withdrawalPaths.editDestination, { ...edit, address: addresses.trc20 }, { token: owner.token }), 400, 'address_wrong_network');
    const edited = expectOk(await server.post(withdrawalPaths.editDestination, edit, { token: owner.token }));
    expect(edited.body.result).toMatchObject({ id, currency: 'BTC', network: 'BTC', address: addresses.btcTaproot });
    expectRefused(await server.post(withdrawalPaths.editDestination, { ...edit, id: '999999999' }, { token: owner.token }), 404, 'destination_not_found');
  });

  it('needs a session', async () => {
    expectRefused(await server.get(withdrawalPaths.listDestinations), 401, 'unauthorized');
    expectRefused(await add('', { type: 'bank', bankName: 'B', realName: 'R', cardNumber: '6222021234567890' }), 401, 'unauthorized');
  });

  it(`keeps at most ${destinationsPerUserMax} destinations per user`, async () => {
    const user = await server.registerByEmail();
    for (let index = 0; index < destinationsPerUserMax; index += 1) {
      expectOk(await add(user.token, { type: 'bank', bankName: `Bank ${index}`, realName: 'R', cardNumber: `62220212345678${String(index).padStart(2, '0')}` }));
    }
    expectRefused(await add(user.token, { type: 'chain', currency: 'USDT', network: 'TRC20', address: addresses.trc20 }), 400, 'destinations_too_many');
    expect(await list(user.token)).toHaveLength(destinationsPerUserMax);
  });
}, { limits: {} });
