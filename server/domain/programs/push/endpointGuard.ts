// A push subscription's endpoint is a URL the user gave the server, which the server then
// requests: an SSRF vector. Only https, and never an address inside the deployment's networks:
// loopback, private, link-local, unique-local, CGNAT, multicast, unspecified, reserved, v4 and v6
// (IPv4-mapped and NAT64 forms judged by the address they carry). Checked when a subscription is
// made and again on every connection (the agent's DNS lookup refuses such addresses, so a name
// that resolved to a public address at subscribe time and to 127.0.0.1 later is refused: DNS
// rebinding). PUSH_ALLOW_PRIVATE_ENDPOINTS=1 lifts the address rule (tests only); https stays.
import dns from 'node:dns';
import net from 'node:net';
import { AppError } from '../../../lib/errors.ts';

const v4Blocked: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];

function v4Number(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function v4IsBlocked(address: string): boolean {
  const n = v4Number(address);
  return v4Blocked.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = v4Number(base);
    return n >= start && n < start + size;
  });
}

/** An IPv6 address as eight 16-bit groups (with an embedded dotted IPv4 tail expanded). */
export function v6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4Number(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...(tail === undefined ? [] : Array(missing).fill('0')), ...tailGroups];
  return groups.map((group) => Number.parseInt(group, 16));
}

function v6IsBlocked(address: string): boolean {
  const g = v6Groups(address);
  const embeddedV4 = () => `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
  if (g.slice(0, 7).every((x) => x === 0)) return g[7] <= 1; // :: and ::1
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4IsBlocked(embeddedV4()); // ::ffff:a.b.c.d
  if (g.slice(0, 6).every((x) => x === 0)) return true; // deprecated IPv4-compatible ::a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4IsBlocked(embeddedV4()); // NAT64
  if ((g[0] & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0) return true; // link-local, old site-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (g[0] === 0x2002) return v4IsBlocked(`${g[1] >> 8}.${g[1] & 255}.${g[2] >> 8}.${g[2] & 255}`); // 6to4
  if (g[0] === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return true; // discard-only 100::/64
  return false;
}

/** Whether an IP address (v4 or v6 text) is one a push endpoint may not reach. */
export function isForbiddenAddress(address: string): boolean {
  const kind = net.isIP(address.replace(/^\[|\]$/g, ''));
  if (kind === 4) return v4IsBlocked(address);
  if (kind === 6) return v6IsBlocked(address.replace(/^\[|\]$/g, ''));
  return true;
}

export interface EndpointPolicy {
  /** PUSH_ALLOW_PRIVATE_ENDPOINTS=1: any address (tests' local push service). */
  allowPrivate: boolean;
  /** Resolves a host name to all its addresses (dns.lookup by default; tests stand in). */
  resolve?: (hostname: string) => Promise<string[]>;
}

const refused = (message: string) => new AppError(400, 'push_endpoint_refused', message);

const systemResolve = async (hostname: string) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Checks an endpoint when it is subscribed: a valid https URL without credentials whose host is
 * not, and does not resolve to, a forbidden address. Answers the URL as the WHATWG parser spells
 * it. Throws push_endpoint_refused.
 */
export async function checkEndpoint(endpoint: string, policy: EndpointPolicy): Promise<string> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw refused('The push endpoint is not a valid URL.');
  }
  if (url.protocol !== 'https:') throw refused('The push endpoint must be an https URL.');
  if (url.username || url.password) throw refused('The push endpoint may not carry a user name or password.');
  if (url.hash) throw refused('The push endpoint may not carry a fragment.');
  if (!policy.allowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (net.isIP(host)) addresses = [host];
    else {
      try {
        addresses = await (policy.resolve ?? systemResolve)(host);
      } catch {
        throw refused('The push endpoint\'s host name does not resolve.');
      }
    }
    if (addresses.length === 0 || addresses.some(isForbiddenAddress)) {
      throw refused('The push endpoint points into a private, loopback or link-local network.');
    }
  }
  return url.href;
}

/** Whether an endpoint may be requested now (send time, before any connection): https and, unless allowed, no forbidden IP literal. */
export function endpointSendable(endpoint: string, allowPrivate: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  if (allowPrivate) return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return net.isIP(host) ? !isForbiddenAddress(host) : true;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the push agent's connections: resolves as dns.lookup does and fails when any
 * address is forbidden, so the connection is never made to it (the name is judged by what it
 * resolves to at the moment of connecting, not by what it resolved to when it was subscribed).
 */
export function guardedLookup(resolveAll: (hostname: string) => Promise<dns.LookupAddress[]> =
  (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true })) {
  return (hostname: string, options: dns.LookupOptions | number | undefined, callback: LookupCallback) => {
    const wantsAll = typeof options === 'object' && options?.all === true;
    const family = typeof options === 'number' ? options : options?.family;
    resolveAll(hostname).then((found) => {
      const addresses = family === 4 || family === 6 || family === 'IPv4' || family === 'IPv6'
        ? found.filter((entry) => entry.family === (family === 'IPv4' ? 4 : family === 'IPv6' ? 6 : family))
        : found;
      if (addresses.length === 0) {
        callback(Object.assign(new Error(`push endpoint host ${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        return;
      }
      const bad = found.find((entry) => isForbiddenAddress(entry.address));
      if (bad) {
        callback(Object.assign(new Error(`push endpoint host ${hostname} resolves to a forbidden address (${bad.address})`),
          { code: 'EPUSHFORBIDDEN' }), '', 0);
        return;
      }
      if (wantsAll) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    }, (error: NodeJS.ErrnoException) => callback(error, '', 0));
  };
}
