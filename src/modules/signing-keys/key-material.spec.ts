import { KeyMaterial, SigningKeyUnavailableError } from './key-material';

describe(KeyMaterial.name, () => {
  const material = new KeyMaterial('a-signing-keys-secret-of-sufficient-length');

  describe('generate', () => {
    it('names the key by its RFC 7638 thumbprint and publishes public members only', async () => {
      const key = await material.generate();
      expect(key.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Object.keys(key.publicJwk).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      expect(key.publicJwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: key.kid });
      // 2048-bit modulus: 256 bytes, 342 base64url characters.
      expect(key.publicJwk.n).toHaveLength(342);
    });

    it('seals the private key: no PEM, no PKCS#8 bytes in the column', async () => {
      const key = await material.generate();
      expect(key.privateKeySealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
      expect(key.privateKeySealed).not.toContain('PRIVATE KEY');
      // Every PKCS#8 RSA key starts with the same DER prefix, "MIIE" in base64.
      expect(key.privateKeySealed).not.toContain('MIIE');
      await expect(material.privateKey(key.kid, key.privateKeySealed)).resolves.toBeDefined();
    });
  });

  describe('privateKey', () => {
    it('fails clearly under another secret, for another kid, or tampered', async () => {
      const key = await material.generate();
      const other = new KeyMaterial('another-signing-keys-secret-value-here');
      await expect(other.privateKey(key.kid, key.privateKeySealed)).rejects.toThrow(
        SigningKeyUnavailableError,
      );
      await expect(other.privateKey(key.kid, key.privateKeySealed)).rejects.toThrow(
        /does not decrypt with SIGNING_KEYS_SECRET/,
      );
      expect(other.opens(key.kid, key.privateKeySealed)).toBe(false);
      await expect(material.privateKey('another-kid', key.privateKeySealed)).rejects.toThrow(
        SigningKeyUnavailableError,
      );
      const raw = Buffer.from(key.privateKeySealed.slice(3), 'base64url');
      raw[40] ^= 1;
      const tampered = `v1.${raw.toString('base64url')}`;
      await expect(material.privateKey(key.kid, tampered)).rejects.toThrow(
        SigningKeyUnavailableError,
      );
    });
  });
});
