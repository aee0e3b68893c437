import { signUpOffered } from './sign-up-offered';

const development = { signUpEnabled: true, smtpUrl: undefined, isProduction: false };
const on = { signUpEnabled: true };

describe('signUpOffered', () => {
  it('needs the deployment, the application and the password form to allow it', () => {
    expect(signUpOffered(development, on, true)).toBe(true);
    expect(signUpOffered({ ...development, signUpEnabled: false }, on, true)).toBe(false);
    expect(signUpOffered(development, { signUpEnabled: false }, true)).toBe(false);
    expect(signUpOffered(development, on, false)).toBe(false);
  });

  it('is not offered in production without SMTP_URL, where the code could not be sent', () => {
    const production = { ...development, isProduction: true };
    expect(signUpOffered(production, on, true)).toBe(false);
    expect(signUpOffered({ ...production, smtpUrl: 'smtp://mail.example.test' }, on, true)).toBe(
      true,
    );
  });
});
