import type { ApiKey } from '../../keys/api-key.entity';
import { toKeyView } from './key-views';

const created = new Date('2030-01-01T12:00:00.000Z');
const key = (fields: Partial<ApiKey>): ApiKey => ({
  id: 7,
  applicationId: 1,
  name: 'backend',
  keyPrefix: 'svc_live_abc',
  keyHash: 'f'.repeat(64),
  scopes: ['user:read'],
  status: 'active',
  expiresAt: null,
  replacedById: null,
  lastUsedAt: null,
  revokedAt: null,
  createdAt: created,
  ...fields,
});

describe(toKeyView.name, () => {
  it('shows an active key without a grace period, and never the hash', () => {
    const view = toKeyView(key({}), 'active');
    expect(view).toEqual({
      id: 7,
      name: 'backend',
      prefix: 'svc_live_abc',
      scopes: ['user:read'],
      status: 'active',
      graceUntil: null,
      replacedById: null,
      lastUsedAt: null,
      createdAt: '2030-01-01T12:00:00.000Z',
      revokedAt: null,
    });
    expect(JSON.stringify(view)).not.toContain('f'.repeat(64));
  });

  it('shows a rotated key that still works as grace_period until its expiry', () => {
    const until = new Date('2030-01-02T12:00:00.000Z');
    expect(toKeyView(key({ replacedById: 8, expiresAt: until }), 'active')).toMatchObject({
      status: 'grace_period',
      graceUntil: '2030-01-02T12:00:00.000Z',
      replacedById: 8,
    });
  });

  it('keeps expired and revoked as they are, without a grace end', () => {
    const until = new Date('2030-01-02T12:00:00.000Z');
    expect(toKeyView(key({ replacedById: 8, expiresAt: until }), 'expired')).toMatchObject({
      status: 'expired',
      graceUntil: null,
    });
    const revokedAt = new Date('2030-01-01T13:00:00.000Z');
    expect(
      toKeyView(
        key({ replacedById: 8, expiresAt: until, status: 'revoked', revokedAt }),
        'revoked',
      ),
    ).toMatchObject({ status: 'revoked', graceUntil: null, revokedAt: '2030-01-01T13:00:00.000Z' });
  });
});
