import { randomUUID } from 'node:crypto';
import { loadJose } from '../../signing-keys/jose';
import { DpopNonces, DPOP_NONCE_WINDOW_SECONDS } from './dpop-nonces';
import { DpopProofRefused, sameTarget, verifyDpopProof } from './dpop-proof';

const URL_ = 'https://id.example.com/api/oauth2/token';
const NOW = new Date('2026-12-01T12:00:00Z');
const MARKER = 'marker-7f3c';

async function proof(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const jose = await loadJose();
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const jwk = await jose.exportJWK(publicKey);
  const payload = {
    jti: randomUUID(),
    htm: 'POST',
    htu: URL_,
    iat: Math.floor(NOW.getTime() / 1000),
    ...claims,
  };
  return new jose.SignJWT(payload)
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk, ...header })
    .sign(privateKey);
}

async function refusal(jws: string, accessToken?: string): Promise<string> {
  const jose = await loadJose();
  try {
    await verifyDpopProof(jose, jws, { method: 'POST', url: URL_, now: NOW, accessToken });
  } catch (error) {
    if (error instanceof DpopProofRefused) return error.message;
    throw error;
  }
  throw new Error('the proof was accepted');
}

describe('verifyDpopProof', () => {
  it('describes each failure with a fixed text, never a value of the proof', async () => {
    const cases = [
      await proof({ htm: `GET-${MARKER}` }),
      await proof({ htu: `https://${MARKER}.example/api/oauth2/token` }),
      await proof({ iat: 1, jti: MARKER }),
      await proof({ jti: MARKER.repeat(40) }),
      await proof({ nonce: { value: MARKER } }),
      await proof({}, { typ: `JWT-${MARKER}` }),
      await proof({}, { jwk: { kty: 'EC', crv: 'P-256', x: MARKER, y: MARKER } }),
    ];
    const messages = [
      ...(await Promise.all(cases.map((jws) => refusal(jws)))),
      await refusal(await proof({ ath: MARKER }), `token-${MARKER}`),
    ];
    expect(new Set(messages).size).toBe(messages.length);
    for (const message of messages) {
      expect(message).not.toContain(MARKER);
      expect(message).toMatch(/^The DPoP proof /);
    }
  });

  it('returns the key thumbprint, the jti and until when the jti must not come back', async () => {
    const jose = await loadJose();
    const jws = await proof({ jti: 'j-1', nonce: 'n-1' });
    const verified = await verifyDpopProof(jose, jws, { method: 'POST', url: URL_, now: NOW });
    const jwk = jose.decodeProtectedHeader(jws).jwk!;
    expect(verified).toEqual({
      jkt: await jose.calculateJwkThumbprint(jwk, 'sha256'),
      alg: 'ES256',
      jti: 'j-1',
      nonce: 'n-1',
      replayableUntil: new Date(NOW.getTime() + (300 + 60 + 1) * 1000),
    });
  });
});

describe('sameTarget (RFC 9449 section 4.3, item 9)', () => {
  it.each([
    [URL_, true],
    [`${URL_}?x=1`, true],
    [`${URL_}#frag`, true],
    ['HTTPS://ID.EXAMPLE.COM/api/oauth2/token', true],
    ['https://id.example.com:443/api/oauth2/token', true],
    ['https://id.example.com/api/oauth2/x/../token', true],
    ['https://id.example.com/api/oauth2/TOKEN', false],
    ['https://id.example.com/api/oauth2/token/', false],
    ['http://id.example.com/api/oauth2/token', false],
    ['https://id.example.com:8443/api/oauth2/token', false],
    ['/api/oauth2/token', false],
    ['ftp://id.example.com/api/oauth2/token', false],
    ['https://x@id.example.com/api/oauth2/token', false],
    [` ${URL_}`, false],
    [`${URL_}\t`, false],
    ['https://id.example.com/api/oauth2\\token', false],
  ])('%s names the token endpoint: %s', (htu, same) => {
    expect(sameTarget(htu, URL_)).toBe(same);
  });
});

describe('DpopNonces', () => {
  it('gives one nonce per window, the same for every instance with the secret, and accepts the previous one only', () => {
    const secret = 'x'.repeat(32);
    const one = new DpopNonces(secret);
    const other = new DpopNonces(secret);
    const nonce = one.current(NOW);
    expect(other.accepts(nonce, NOW)).toBe(true);
    expect(new DpopNonces('y'.repeat(32)).accepts(nonce, NOW)).toBe(false);
    const window = DPOP_NONCE_WINDOW_SECONDS * 1000;
    const next = new Date(NOW.getTime() + window);
    expect(one.current(next)).not.toBe(nonce);
    expect(other.accepts(nonce, next)).toBe(true);
    expect(other.accepts(nonce, new Date(NOW.getTime() + 2 * window))).toBe(false);
  });
});
