import { valueAt } from './oauth2';

describe('valueAt (generic oauth2 profile field paths)', () => {
  const doc = { id: 7, data: { user: { login: 'x' }, emails: [{ address: 'a@b.example' }] } };

  it('follows dotted paths and array indexes', () => {
    expect(valueAt(doc, 'id')).toBe(7);
    expect(valueAt(doc, 'data.user.login')).toBe('x');
    expect(valueAt(doc, 'data.emails.0.address')).toBe('a@b.example');
  });

  it('gives undefined for missing paths, no path, and inherited properties', () => {
    expect(valueAt(doc, 'data.nope.login')).toBeUndefined();
    expect(valueAt(doc, undefined)).toBeUndefined();
    expect(valueAt(doc, 'constructor')).toBeUndefined();
    expect(valueAt(doc, 'data.__proto__')).toBeUndefined();
    expect(valueAt(null, 'id')).toBeUndefined();
  });
});
