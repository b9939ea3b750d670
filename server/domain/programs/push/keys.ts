// The server's VAPID key pair (RFC 8292): from the environment (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY,
// both base64url as `web-push generate-vapid-keys` prints them) or made on first start and kept in
// DATA_DIR/keys/vapid.json (mode 0600). Every instance of one deployment must share the pair: a
// browser's subscription is bound to the public key it was made with.
import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';

export interface VapidKeys {
  /** Uncompressed P-256 point, base64url (what the browser's applicationServerKey takes). */
  publicKey: string;
  /** The private scalar, base64url. */
  privateKey: string;
  /** mailto: or https: contact the push services may use (VAPID_SUBJECT). */
  subject: string;
}

const base64Url = /^[A-Za-z0-9_-]+$/;

function checkPair(publicKey: string, privateKey: string, where: string) {
  if (!base64Url.test(publicKey) || Buffer.from(publicKey, 'base64url').length !== 65 || Buffer.from(publicKey, 'base64url')[0] !== 4) {
    throw new Error(`${where}: the VAPID public key must be an uncompressed P-256 point in base64url (65 bytes)`);
  }
  if (!base64Url.test(privateKey) || Buffer.from(privateKey, 'base64url').length !== 32) {
    throw new Error(`${where}: the VAPID private key must be 32 bytes in base64url`);
  }
}

/** The subject: VAPID_SUBJECT, else the public origin when it is https, else a mailto: of the host. */
export function vapidSubject(env: NodeJS.ProcessEnv, publicOrigin: string): string {
  const subject = env.VAPID_SUBJECT?.trim();
  if (subject) {
    if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(subject)) throw new Error('VAPID_SUBJECT must be a mailto: address or an https: URL');
    return subject;
  }
  if (publicOrigin.startsWith('https://')) return publicOrigin;
  return 'mailto:operator@example.invalid';
}

export function loadVapidKeys(dataDir: string, env: NodeJS.ProcessEnv, publicOrigin: string): VapidKeys {
  const subject = vapidSubject(env, publicOrigin);
  const fromEnvPublic = env.VAPID_PUBLIC_KEY?.trim();
  const fromEnvPrivate = env.VAPID_PRIVATE_KEY?.trim();
  if (fromEnvPublic || fromEnvPrivate) {
    if (!fromEnvPublic || !fromEnvPrivate) throw new Error('set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither');
    checkPair(fromEnvPublic, fromEnvPrivate, 'VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY');
    return { publicKey: fromEnvPublic, privateKey: fromEnvPrivate, subject };
  }
  const file = path.join(dataDir, 'keys', 'vapid.json');
  const read = (): VapidKeys => {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    checkPair(stored.publicKey, stored.privateKey, file);
    return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject };
  };
  if (fs.existsSync(file)) return read();
  const made = webpush.generateVAPIDKeys();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // 'wx': two processes starting at once on one DATA_DIR keep the first one's pair.
    fs.writeFileSync(file, JSON.stringify({ publicKey: made.publicKey, privateKey: made.privateKey }), { mode: 0o600, flag: 'wx' });
  } catch {
    return read();
  }
  return { publicKey: made.publicKey, privateKey: made.privateKey, subject };
}
