// typescript-eslint does not follow the resolution-mode attribute; tsc does and checks this.
// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
export type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });

/**
 * jose is ESM-only; tsconfig's module node16 keeps this import() an import() in the CommonJS
 * build (as upstreams/protocols/oidc.ts does for openid-client). Loaded once, on first use.
 */
let library: Promise<Jose> | undefined;
export function loadJose(): Promise<Jose> {
  library ??= import('jose');
  return library;
}

/** jose's key type (the runtime's WebCrypto CryptoKey), and its JWK. */
export type JoseCryptoKey = Awaited<ReturnType<Jose['importPKCS8']>>;
export type JoseJwk = Awaited<ReturnType<Jose['exportJWK']>>;
