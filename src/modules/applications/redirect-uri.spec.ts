import { isRegistrableRedirectUri, redirectUriMatches } from './redirect-uri';

describe('redirect URIs (RFC 6749 section 3.1.2, RFC 8252, RFC 9700)', () => {
  describe(isRegistrableRedirectUri.name, () => {
    it.each([
      ['https://client.example/cb', 'https anywhere'],
      ['https://client.example:8443/cb?x=1', 'https with port and query'],
      ['http://127.0.0.1/cb', 'http on an IPv4 loopback'],
      ['http://127.0.0.1:8123/cb', 'http on an IPv4 loopback with a port'],
      ['http://[::1]:8123/cb', 'http on the IPv6 loopback'],
      ['http://localhost:8080/cb', 'http on localhost (kept; no port flexibility)'],
      ['splitdns://callback', 'a private-use scheme with an authority (RFC 8252 section 7.1)'],
      ['com.example.app:/cb', 'a reverse-domain private-use scheme'],
      ['com.example.app:/oauth2redirect?x=1', 'a private-use scheme with a query'],
      ['my-app+dev://cb', 'scheme characters + and -'],
    ])('accepts %s (%s)', (uri) => {
      expect(isRegistrableRedirectUri(uri)).toBe(true);
    });

    it.each([
      ['javascript:alert(1)', 'script'],
      ['JavaScript://x/%0aalert(1)', 'script, any case'],
      ['vbscript:msgbox(1)', 'script'],
      ['data:text/html,<script>alert(1)</script>', 'local content'],
      ['blob:https://client.example/0b7e', 'local content'],
      ['about:blank', 'local content'],
      ['file:///etc/passwd', 'local content'],
      ['ftp://client.example/cb', 'a web network scheme, no app claims it'],
      ['ws://127.0.0.1/cb', 'a web network scheme'],
      ['wss://client.example/cb', 'a web network scheme'],
      ['https://client.example/cb#top', 'a fragment (RFC 6749 section 3.1.2)'],
      ['https://client.example/cb#', 'an empty fragment'],
      ['splitdns://callback#x', 'a fragment on a private-use scheme'],
      ['http://client.example/cb', 'http off loopback'],
      ['http://127.0.0.2/cb', 'http on a non-canonical loopback'],
      ['https:///cb', 'https without host (the parser would read host cb)'],
      ['https:client.example/cb', 'https without //'],
      ['https://client.example\\@evil.example/cb', 'a backslash'],
      ['/cb', 'relative'],
      ['cb', 'not a URI'],
      ['myapp:', 'nothing after the scheme'],
      [' https://client.example/cb', 'surrounding space'],
      ['java\tscript:alert(1)', 'a tab the URL parser would drop'],
      ['https://client.example/c\nb', 'a newline'],
      ['', 'empty'],
    ])('refuses %j (%s)', (uri) => {
      expect(isRegistrableRedirectUri(uri)).toBe(false);
    });
  });

  describe(redirectUriMatches.name, () => {
    type Row = [registered: string, requested: string, none: boolean, secret: boolean];
    it.each<Row>([
      ['https://client.example/cb', 'https://client.example/cb', true, true],
      ['splitdns://callback', 'splitdns://callback', true, true],
      // RFC 8252 section 7.3: any port on a loopback IP literal, for public clients only.
      ['http://127.0.0.1/cb', 'http://127.0.0.1:51004/cb', true, false],
      ['http://127.0.0.1:8123/cb', 'http://127.0.0.1:51004/cb', true, false],
      ['http://127.0.0.1:8123/cb', 'http://127.0.0.1/cb', true, false],
      ['http://[::1]:8123/cb?a=1', 'http://[::1]:9/cb?a=1', true, false],
      ['http://127.0.0.1:8123', 'http://127.0.0.1:9', true, false],
      // Everything but the port stays exact.
      ['http://127.0.0.1:8123/cb', 'http://127.0.0.1:51004/cb/', false, false],
      ['http://127.0.0.1:8123/cb', 'http://127.0.0.1:51004/CB', false, false],
      ['http://127.0.0.1:8123/cb', 'http://127.0.0.1:51004/cb?x=1', false, false],
      ['http://127.0.0.1:8123/cb', 'http://127.0.0.1:51004/cb#x', false, false],
      ['http://127.0.0.1:8123/cb', 'http://[::1]:8123/cb', false, false],
      ['http://127.0.0.1:8123/cb', 'https://127.0.0.1:8123/cb', false, false],
      ['http://127.0.0.1:8123/cb', 'http://127.0.0.1:8123@evil.example/cb', false, false],
      ['http://127.0.0.1:8123/cb', 'http://127.0.0.1.evil.example/cb', false, false],
      ['http://127.0.0.1:8123/cb', 'http://127.0.0.1:65536/cb', false, false],
      ['http://127.0.0.1:8123/cb', 'http://127.0.0.1:0/cb', false, false],
      ['http://127.0.0.1:8123/cb', 'http://127.0.0.1:/cb', false, false],
      // RFC 8252 section 8.3: no port flexibility for localhost.
      ['http://localhost:8123/cb', 'http://localhost:51004/cb', false, false],
      ['https://client.example/cb', 'https://client.example:444/cb', false, false],
      ['https://client.example/cb', 'https://client.example/cb?x', false, false],
    ])('%s, requested %s: none %s, secret %s', (registered, requested, none, secret) => {
      expect(redirectUriMatches(registered, requested, 'none')).toBe(none);
      expect(redirectUriMatches(registered, requested, 'secret')).toBe(secret);
    });
  });
});
