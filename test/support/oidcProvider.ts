// A real OpenID Connect provider for the tests (oidc-provider 8) on a free loopback port: one
// confidential client whose redirect URI is the app's callback, PKCE (S256) required, e-mail
// claims in the ID token, no consent screen (the grant is made at login). Its own small login page
// (GET /interaction/:uid, a form posting an account id) replaces the library's development pages,
// so a browser logs in by filling the form and a test without a browser by `authorize` below.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface ProviderAccount { email?: string; emailVerified?: boolean }

export interface LocalOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The accounts it knows, by id (sub); tests add to it. */
  accounts: Map<string, ProviderAccount>;
  /**
   * Follows an authorization URL as a browser would, logs in as `accountId` on the login page and
   * answers the URL the provider sends the browser back to (the app's callback with code, state, iss).
   */
  authorize(authorizationUrl: string, accountId: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startOidcProvider(redirectUri: string, options: { clientId?: string } = {}): Promise<LocalOidcProvider> {
  const accounts = new Map<string, ProviderAccount>();
  const clientId = options.clientId ?? 'bourse-test';
  const clientSecret = 'bourse-test-secret-0123456789abcdef';
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri],
      grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post',
    }],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: false,
    cookies: { keys: ['bourse-test-cookie-key-0123456789'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    // No consent screen: the test client is granted openid and email at login.
    loadExistingGrant: async (ctx: any) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
    findAccount: async (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: account.email, email_verified: account.emailVerified ?? false }),
      };
    },
  });
  const callback = provider.callback();

  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const url = new URL(request.url ?? '/', issuer);
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(url.pathname);
    if (!match) { callback(request, response); return; }
    void (async () => {
      try {
        await provider.interactionDetails(request, response);
        if (request.method === 'GET' && !match[2]) {
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          response.end(`<!doctype html><meta name="viewport" content="width=device-width"><title>Local provider</title>
<h1>Local OpenID provider</h1><form method="post" action="/interaction/${match[1]}/login">
<label>Account <input name="login" autofocus></label> <button type="submit">Sign in</button></form>`);
          return;
        }
        let body = '';
        for await (const chunk of request) body += chunk;
        const accountId = new URLSearchParams(body).get('login') ?? '';
        if (!accounts.has(accountId)) {
          response.writeHead(400, { 'content-type': 'text/plain' });
          response.end('unknown account');
          return;
        }
        await provider.interactionFinished(request, response, { login: { accountId } }, { mergeWithLastSubmission: false });
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' });
        response.end(String(error));
      }
    })();
  });

  async function authorize(authorizationUrl: string, accountId: string): Promise<URL> {
    const jar = new Map<string, string>();
    const send = async (url: string, init: RequestInit = {}) => {
      const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers ?? {}), cookie } });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return response;
    };
    let response = await send(authorizationUrl);
    let location = response.headers.get('location');
    for (let hop = 0; hop < 10 && location; hop += 1) {
      const next = new URL(location, issuer);
      if (!next.href.startsWith(issuer)) return next;
      if (/^\/interaction\/[\w-]+$/.test(next.pathname)) {
        response = await send(`${next.href}/login`, {
          method: 'POST', body: new URLSearchParams({ login: accountId }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
      } else {
        response = await send(next.href);
      }
      location = response.headers.get('location');
    }
    throw new Error(`the provider did not send the browser back (status ${response.status}: ${await response.text()})`);
  }

  return {
    issuer, clientId, clientSecret, accounts, authorize,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
