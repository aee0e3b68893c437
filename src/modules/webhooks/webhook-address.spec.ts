import { AddressNotAllowedError, classifyAddress, resolveDeliveryAddress } from './webhook-address';

describe('classifyAddress (docs/security.md, "Webhook delivery addresses")', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '::1',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
  ])('%s is loopback', (address) => {
    expect(classifyAddress(address)).toBe('loopback');
  });

  it.each([
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '192.168.255.255',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '::',
    'fc00::1',
    'fdff:ffff::1',
    'fe80::1',
    'febf::1',
    'FE80::ABCD',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '0:0:0:0:0:ffff:192.168.1.1',
    '224.0.0.1',
    '239.255.255.255',
    '240.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '192.0.0.1',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    'ff02::1',
    '100::1',
    'not an address',
    '',
  ])('%s is private', (address) => {
    expect(classifyAddress(address)).toBe('private');
  });

  it.each([
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '223.255.255.255',
    '198.20.0.0',
    '2001:4860:4860::8888',
    'fbff::1',
    'fec0::1',
    '::2',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBe('public');
  });
});

describe('resolveDeliveryAddress', () => {
  const closed = { allowedPrivateHosts: [], allowLoopback: false };

  it('refuses an IP literal in a private range, naming the address', async () => {
    await expect(resolveDeliveryAddress('169.254.169.254', closed)).rejects.toThrow(
      new AddressNotAllowedError(
        'address not allowed: 169.254.169.254 resolves to 169.254.169.254',
      ),
    );
    await expect(resolveDeliveryAddress('[::ffff:10.0.0.1]', closed)).rejects.toThrow(
      'address not allowed',
    );
  });

  it('refuses a host name whose addresses include a private one', async () => {
    await expect(resolveDeliveryAddress('localhost', closed)).rejects.toThrow(
      /^address not allowed: localhost resolves to /,
    );
  });

  it('lets a public address through and returns it to connect to', async () => {
    await expect(resolveDeliveryAddress('8.8.8.8', closed)).resolves.toEqual({
      address: '8.8.8.8',
      family: 4,
    });
  });

  it('allows loopback only with allowLoopback, and never other private ranges that way', async () => {
    const loopback = { allowedPrivateHosts: [], allowLoopback: true };
    await expect(resolveDeliveryAddress('127.0.0.1', loopback)).resolves.toEqual({
      address: '127.0.0.1',
      family: 4,
    });
    await expect(resolveDeliveryAddress('[::1]', loopback)).resolves.toEqual({
      address: '::1',
      family: 6,
    });
    await expect(resolveDeliveryAddress('10.0.0.1', loopback)).rejects.toThrow(
      'address not allowed',
    );
  });

  it('allows what the allow-list names, by host name or by address, case-insensitively', async () => {
    await expect(
      resolveDeliveryAddress('10.0.0.1', {
        allowedPrivateHosts: ['10.0.0.1'],
        allowLoopback: false,
      }),
    ).resolves.toEqual({ address: '10.0.0.1', family: 4 });
    await expect(
      resolveDeliveryAddress('LOCALHOST', {
        allowedPrivateHosts: ['localhost'],
        allowLoopback: false,
      }),
    ).resolves.toEqual(expect.objectContaining({ address: expect.any(String) }));
    await expect(
      resolveDeliveryAddress('10.0.0.2', {
        allowedPrivateHosts: ['10.0.0.1'],
        allowLoopback: false,
      }),
    ).rejects.toThrow('address not allowed');
  });
});
