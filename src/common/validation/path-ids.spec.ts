import { decimalId, MAX_BIGINT_ID, MAX_INTEGER_ID, positiveIntId } from './path-ids';

describe(positiveIntId.name, () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', MAX_INTEGER_ID],
    [7, 7],
  ])('reads %p as %p', (value, id) => {
    expect(positiveIntId(value)).toBe(id);
  });

  it.each([
    '',
    '0',
    '007',
    '-1',
    '+1',
    ' 1',
    '1 ',
    '1.5',
    '1e3',
    '0x10',
    'abc',
    '١٢',
    '2147483648',
    '9999999999',
    '99999999999999999999999999',
    0,
    -1,
    1.5,
    undefined,
    null,
    ['1'],
  ])('refuses %p', (value) => {
    expect(positiveIntId(value)).toBeNull();
  });

  it('takes a lower maximum, and refuses one it cannot hold exactly', () => {
    expect(positiveIntId('10', 10)).toBe(10);
    expect(positiveIntId('11', 10)).toBeNull();
    expect(() => positiveIntId('1', 2 ** 60)).toThrow(RangeError);
  });
});

describe(decimalId.name, () => {
  it('reads the bigint range exactly', () => {
    expect(decimalId('9223372036854775807', MAX_BIGINT_ID)).toBe(MAX_BIGINT_ID);
    expect(decimalId('9223372036854775808', MAX_BIGINT_ID)).toBeNull();
    expect(decimalId('0', MAX_BIGINT_ID)).toBeNull();
  });

  it('with anyDigits: zero and leading zeros, within as many characters as the maximum', () => {
    const read = (value: string) => decimalId(value, MAX_BIGINT_ID, { anyDigits: true });
    expect(read('0')).toBe(0n);
    expect(read('007')).toBe(7n);
    expect(read('0000000000000000001')).toBe(1n);
    expect(read('00000000000000000001')).toBeNull();
    expect(read('-1')).toBeNull();
    expect(read('')).toBeNull();
  });
});
