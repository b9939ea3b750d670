// The SSRF guard's address rules and its connect-time lookup, on their own.
import { describe, expect, it } from 'vitest';
import { checkEndpoint, guardedLookup, isForbiddenAddress, v6Groups } from '../../../server/domain/programs/push/endpointGuard.ts';

describe('push endpoint guard', () => {
  it('forbids loopback, private, link-local, unique-local, CGNAT, multicast, unspecified and mapped forms', () => {
    for (const address of [
      '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.10', '169.254.169.254', '100.64.0.1',
      '100.127.255.255', '0.0.0.0', '224.0.0.1', '239.1.1.1', '255.255.255.255', '::', '::1', 'fe80::1', 'fc00::1', 'fd12:3456::1',
      'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '::127.0.0.1',
    ]) expect(isForbiddenAddress(address), address).toBe(true);
    for (const address of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '142.250.74.46', '2606:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001::200e']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
    expect(isForbiddenAddress('not an address')).toBe(true);
    expect(v6Groups('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
  });

  it('judges a name by every address it resolves to', async () => {
    const resolve = async (host: string) => (host === 'mixed.example' ? ['8.8.8.8', '10.0.0.5'] : ['8.8.4.4']);
    await expect(checkEndpoint('https://mixed.example/p', { allowPrivate: false, resolve })).rejects.toMatchObject({ errorCode: 'push_endpoint_refused' });
    await expect(checkEndpoint('https://push.example/p', { allowPrivate: false, resolve })).resolves.toBe('https://push.example/p');
    await expect(checkEndpoint('https://10.0.0.1/p', { allowPrivate: true })).resolves.toBe('https://10.0.0.1/p');
    await expect(checkEndpoint('http://push.example/p', { allowPrivate: true })).rejects.toMatchObject({ errorCode: 'push_endpoint_refused' });
  });

  it('refuses at connect time a name that now resolves to a private address (rebinding)', async () => {
    let answer = [{ address: '93.184.216.34', family: 4 }];
    const lookup = guardedLookup(async () => answer);
    const call = (options: object) => new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) => {
      lookup('push.example', options, (error, address) => resolve({ error, address }));
    });
    expect(await call({})).toEqual({ error: null, address: '93.184.216.34' });
    expect((await call({ all: true })).address).toEqual(answer);
    answer = [{ address: '127.0.0.1', family: 4 }];
    expect((await call({})).error?.code).toBe('EPUSHFORBIDDEN');
    answer = [{ address: '93.184.216.34', family: 4 }, { address: 'fd00::2', family: 6 }];
    expect((await call({ family: 4 })).error?.code).toBe('EPUSHFORBIDDEN');
  });
});
