// oidc-provider 8 ships no types; the tests use a small part of it (test/support/oidcProvider.ts).
declare module 'oidc-provider' {
  const Provider: any;
  export default Provider;
}
