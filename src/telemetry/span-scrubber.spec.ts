import { SpanKind } from '@opentelemetry/api';
import { scrubAttributes } from './span-scrubber';

describe(scrubAttributes.name, () => {
  it('cuts query strings from URL attributes and drops url.query on every span', () => {
    const attributes = {
      'url.full': 'https://api.provider.example/userinfo?access_token=secret',
      'http.target': '/api/auth/upstream/corp/callback?code=c0de&state=st',
      'url.query': 'code=c0de&state=st',
      'url.path': '/api/auth/upstream/corp/callback',
      'http.response.status_code': 302,
    };
    expect(scrubAttributes(attributes, SpanKind.CLIENT)).toEqual({
      'url.full': 'https://api.provider.example/userinfo',
      'http.target': '/api/auth/upstream/corp/callback',
      'url.path': '/api/auth/upstream/corp/callback',
      'http.response.status_code': 302,
    });
  });

  it("drops the caller's address and user agent from server spans only", () => {
    const attributes = {
      'client.address': '203.0.113.7',
      'user_agent.original': 'Mozilla/5.0',
      'http.route': '/oauth2/authorize',
    };
    expect(scrubAttributes(attributes, SpanKind.SERVER)).toEqual({
      'http.route': '/oauth2/authorize',
    });
    expect(scrubAttributes(attributes, SpanKind.CLIENT)).toEqual(attributes);
  });
});
