import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { SoftwareAuthenticator } from '../../../support/software-authenticator';

const ORIGIN = 'http://localhost:3000';
const RP_ID = 'localhost';

/**
 * The test utility itself (no app involved): what the software authenticator produces is
 * accepted, or refused for the intended reason, by @simplewebauthn/server's own verification.
 */
describe(SoftwareAuthenticator.name, () => {
  async function registered(authenticator = new SoftwareAuthenticator({ origin: ORIGIN })) {
    const options = await generateRegistrationOptions({
      rpName: 'Test',
      rpID: RP_ID,
      userName: 'alice',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const response = authenticator.createCredential(options);
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      requireUserVerification: true,
    });
    if (!result.verified) throw new Error('registration not verified');
    return { authenticator, options, info: result.registrationInfo };
  }

  async function verifyAssertion(
    authenticator: SoftwareAuthenticator,
    credential: WebAuthnCredential,
    overrides: Parameters<SoftwareAuthenticator['getAssertion']>[1] = {},
    allow = true,
  ) {
    const options = await generateAuthenticationOptions({
      rpID: RP_ID,
      allowCredentials: allow ? [{ id: credential.id }] : [],
      userVerification: 'required',
    });
    const response = authenticator.getAssertion(options, overrides);
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential,
      requireUserVerification: true,
    });
    return { response, result };
  }

  describe('createCredential', () => {
    it('produces a "none" attestation that verifies, with UV and an ES256 COSE key', async () => {
      const { authenticator, info } = await registered();
      expect(info.fmt).toBe('none');
      expect(info.userVerified).toBe(true);
      expect(info.credential.counter).toBe(0);
      expect(info.credential.id).toBe(authenticator.credentials[0].id.toString('base64url'));
      expect(info.credential.transports).toEqual(['internal']);
    });

    it('refuses to create a second credential listed in excludeCredentials', async () => {
      const { authenticator, info } = await registered();
      const options = await generateRegistrationOptions({
        rpName: 'Test',
        rpID: RP_ID,
        userName: 'alice',
        excludeCredentials: [{ id: info.credential.id }],
      });
      expect(() => authenticator.createCredential(options)).toThrow(/InvalidStateError/);
    });

    it('can leave user verification out, which verification then refuses', async () => {
      const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
      const options = await generateRegistrationOptions({
        rpName: 'T',
        rpID: RP_ID,
        userName: 'a',
      });
      const response = authenticator.createCredential(options, { userVerified: false });
      await expect(
        verifyRegistrationResponse({
          response,
          expectedChallenge: options.challenge,
          expectedOrigin: ORIGIN,
          expectedRPID: RP_ID,
          requireUserVerification: true,
        }),
      ).rejects.toThrow(/verif/i);
    });
  });

  describe('getAssertion', () => {
    it('signs assertions that verify, the counter going up by one each time', async () => {
      const { authenticator, info } = await registered();
      const first = await verifyAssertion(authenticator, info.credential);
      expect(first.result).toMatchObject({ verified: true, authenticationInfo: { newCounter: 1 } });
      const second = await verifyAssertion(authenticator, {
        ...info.credential,
        counter: first.result.authenticationInfo.newCounter,
      });
      expect(second.result.authenticationInfo.newCounter).toBe(2);
    });

    it('answers a discoverable request (no allowCredentials) with the user handle', async () => {
      const { authenticator, options, info } = await registered();
      const { response, result } = await verifyAssertion(authenticator, info.credential, {}, false);
      expect(result.verified).toBe(true);
      expect(response.response.userHandle).toBe(options.user.id);
    });

    it('a non-resident credential is not offered to a discoverable request', async () => {
      const { authenticator } = await registered(
        new SoftwareAuthenticator({ origin: ORIGIN, resident: false }),
      );
      const options = await generateAuthenticationOptions({ rpID: RP_ID });
      expect(() => authenticator.getAssertion(options)).toThrow(/NotAllowedError/);
    });

    it.each([
      ['UV false', { userVerified: false }, /user could not be verified/],
      ['another origin', { origin: 'https://evil.example' }, /origin/],
      ['another RP id', { rpId: 'evil.example' }, /RP ID/],
      ['a stale counter', { signCount: 0 }, /counter/],
    ])('%s is refused by verification', async (_, overrides, reason) => {
      const { authenticator, info } = await registered();
      await expect(
        verifyAssertion(authenticator, { ...info.credential, counter: 5 }, overrides),
      ).rejects.toThrow(reason);
    });

    it('a forged signature does not verify', async () => {
      const { authenticator, info } = await registered();
      const { result } = await verifyAssertion(authenticator, info.credential, {
        forgeSignature: true,
      });
      expect(result.verified).toBe(false);
    });
  });
});
