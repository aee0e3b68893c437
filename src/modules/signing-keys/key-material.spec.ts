import { ID_TOKEN_SIGNING_ALGS } from '../../common/crypto/signing-algs';
import { loadJose } from './jose';
import { KeyMaterial, SigningKeyUnavailableError } from './key-material';

describe(KeyMaterial.name, () => {
  const material = new KeyMaterial('a-signing-keys-secret-of-sufficient-length');

  describe('generate', () => {
    it('names the key by its RFC 7638 thumbprint and publishes public members only', async () => {
      const key = await material.generate();
      expect(key.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(key.alg).toBe('RS256');
      expect(Object.keys(key.publicJwk).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      expect(key.publicJwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: key.kid });
      // 2048-bit modulus: 256 bytes, 342 base64url characters.
      expect(key.publicJwk.n).toHaveLength(342);
    });

    it.each([
      ['RS256', 'RSA', ['e', 'n']],
      ['PS256', 'RSA', ['e', 'n']],
      ['ES256', 'EC', ['crv', 'x', 'y']],
      ['EdDSA', 'OKP', ['crv', 'x']],
    ] as const)(
      'generates a %s key of type %s with its public members only',
      async (alg, kty, members) => {
        const key = await material.generate(alg);
        expect(key.alg).toBe(alg);
        expect(Object.keys(key.publicJwk).sort()).toEqual(
          ['alg', 'kid', 'kty', 'use', ...members].sort(),
        );
        expect(key.publicJwk).toMatchObject({ kty, alg, use: 'sig', kid: key.kid });
        if (alg === 'ES256') expect(key.publicJwk.crv).toBe('P-256');
        if (alg === 'EdDSA') expect(key.publicJwk.crv).toBe('Ed25519');
        const jose = await loadJose();
        expect(await jose.calculateJwkThumbprint(key.publicJwk)).toBe(key.kid);
        // The private key signs what the public JWK verifies.
        const privateKey = await material.privateKey(key.kid, alg, key.privateKeySealed);
        const jws = await new jose.CompactSign(new TextEncoder().encode('x'))
          .setProtectedHeader({ alg })
          .sign(privateKey);
        const publicKey = await jose.importJWK(key.publicJwk, alg);
        await expect(jose.compactVerify(jws, publicKey)).resolves.toBeDefined();
      },
    );

    it('seals the private key: no PEM, no PKCS#8 bytes in the column', async () => {
      for (const alg of ID_TOKEN_SIGNING_ALGS) {
        const key = await material.generate(alg);
        expect(key.privateKeySealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
        expect(key.privateKeySealed).not.toContain('PRIVATE KEY');
        // Every PKCS#8 RSA key starts with the same DER prefix, "MIIE" in base64.
        expect(key.privateKeySealed).not.toContain('MIIE');
        await expect(
          material.privateKey(key.kid, alg, key.privateKeySealed),
        ).resolves.toBeDefined();
      }
    });
  });

  describe('privateKey', () => {
    it('fails clearly under another secret, for another kid, or tampered', async () => {
      const key = await material.generate();
      const other = new KeyMaterial('another-signing-keys-secret-value-here');
      await expect(other.privateKey(key.kid, 'RS256', key.privateKeySealed)).rejects.toThrow(
        SigningKeyUnavailableError,
      );
      await expect(other.privateKey(key.kid, 'RS256', key.privateKeySealed)).rejects.toThrow(
        /does not decrypt with SIGNING_KEYS_SECRET/,
      );
      expect(other.opens(key.kid, 'RS256', key.privateKeySealed)).toBe(false);
      await expect(
        material.privateKey('another-kid', 'RS256', key.privateKeySealed),
      ).rejects.toThrow(SigningKeyUnavailableError);
      const raw = Buffer.from(key.privateKeySealed.slice(3), 'base64url');
      raw[40] ^= 1;
      const tampered = `v1.${raw.toString('base64url')}`;
      await expect(material.privateKey(key.kid, 'RS256', tampered)).rejects.toThrow(
        SigningKeyUnavailableError,
      );
    });

    it('does not open a key sealed for one alg as a key of another (PS256 as RS256)', async () => {
      const ps = await material.generate('PS256');
      expect(material.opens(ps.kid, 'PS256', ps.privateKeySealed)).toBe(true);
      expect(material.opens(ps.kid, 'RS256', ps.privateKeySealed)).toBe(false);
      await expect(material.privateKey(ps.kid, 'RS256', ps.privateKeySealed)).rejects.toThrow(
        SigningKeyUnavailableError,
      );
      const rs = await material.generate('RS256');
      expect(material.opens(rs.kid, 'PS256', rs.privateKeySealed)).toBe(false);
    });
  });
});
