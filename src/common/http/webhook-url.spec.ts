import { AppError } from '../errors/app-error';
import { checkWebhookUrl } from './webhook-url';

function codeOf(url: string, allowInsecure: boolean): string {
  try {
    checkWebhookUrl(url, allowInsecure);
    return 'accepted';
  } catch (error) {
    return (error as AppError).code;
  }
}

describe('webhook URL rule', () => {
  it('accepts https anywhere', () => {
    expect(checkWebhookUrl('https://hooks.example/in?x=1', false)).toBe(
      'https://hooks.example/in?x=1',
    );
  });

  it('accepts http only on loopback spellings, and only when allowed', () => {
    for (const url of ['http://localhost/in', 'http://127.1:8080/in', 'http://[::1]/in']) {
      expect(codeOf(url, true)).toBe('accepted');
      expect(codeOf(url, false)).toBe('insecure_endpoint');
    }
    for (const url of [
      'http://10.0.0.1/in',
      'http://[::ffff:7f00:1]/in',
      'http://127.0.0.1.nip.io/',
    ]) {
      expect(codeOf(url, true)).toBe('insecure_endpoint');
    }
  });

  it('refuses other schemes, credentials, fragments and overlong URLs as invalid_request', () => {
    for (const url of [
      'ftp://hooks.example/',
      'javascript:alert(1)',
      'https://u:p@hooks.example/',
      'https://hooks.example/#x',
      `https://hooks.example/${'a'.repeat(2048)}`,
      '/relative',
    ]) {
      expect(codeOf(url, true)).toBe('invalid_request');
    }
  });
});
