import {
  batchInputSql,
  batchStatement,
  bindParams,
  inOrderOf,
  namedParameters,
  statement,
} from './statement';

describe('statement', () => {
  describe('bindParams', () => {
    it('binds named parameters and leaves casts alone', () => {
      expect(bindParams('a = :now AND b = :scope::text', { now: '$2', scope: '$4' })).toBe(
        'a = $2 AND b = $4::text',
      );
      expect(() => bindParams('a = :nope', {})).toThrow('unknown statement parameter :nope');
    });
  });

  describe('namedParameters', () => {
    it('lists each name once, in order of first use, casts excluded', () => {
      expect(
        namedParameters("x = :b::int AND y = :a AND z = :b AND w = 'a:b' AND v::text"),
      ).toEqual(['b', 'a']);
    });
  });

  describe('statement', () => {
    const sql =
      'SELECT 1 FROM t WHERE t.hash = :tokenHash AND t.at > :now AND t.other <> :tokenHash';

    it('numbers the parameters in the declared order and binds values by name', () => {
      const s = statement(sql, ['now', 'tokenHash']);
      expect(s.text).toBe('SELECT 1 FROM t WHERE t.hash = $2 AND t.at > $1 AND t.other <> $2');
      expect(s.names).toEqual(['now', 'tokenHash']);
      const at = new Date(0);
      expect(s.values({ tokenHash: 'h', now: at })).toEqual([at, 'h']);
      // null is a value (SQL NULL); only a missing name is refused.
      expect(s.values({ tokenHash: null, now: at })).toEqual([at, null]);
    });

    it('fails when built with a name the text uses but the statement does not declare', () => {
      expect(() => statement(sql, ['tokenHash'])).toThrow(
        'statement parameters used but not declared: :now',
      );
    });

    it('fails when built with a declared name the text does not use', () => {
      expect(() => statement(sql, ['tokenHash', 'now', 'clientId'])).toThrow(
        'statement parameters declared but not used: :clientId',
      );
      expect(() => statement(sql, ['tokenHash', 'now', 'now'])).toThrow('declared twice');
    });

    it('fails on a call that lacks a value or has one the statement does not take', () => {
      const s = statement(sql, ['tokenHash', 'now']);
      expect(() => s.values({ tokenHash: 'h' } as never)).toThrow(
        'no value for statement parameter :now',
      );
      expect(() => s.values({ tokenHash: 'h', now: undefined })).toThrow(
        'no value for statement parameter :now',
      );
      expect(() => s.values({ tokenHash: 'h', now: 1, nowe: 2 } as never)).toThrow(
        'values for parameters the statement does not take: :nowe',
      );
    });
  });

  describe('batchStatement', () => {
    const inputs = { codeHash: 'text', now: 'timestamptz' } as const;
    const sql = `SELECT i.ord FROM ${batchInputSql(inputs)} WHERE :codeHash <> '' AND :now IS NOT NULL`;

    it('reads a batch item from one typed array per input, numbered by ord', () => {
      expect(batchInputSql(inputs)).toBe(
        'unnest((SELECT $1::text[]), (SELECT $2::timestamptz[])) WITH ORDINALITY AS i(in_code_hash, in_now, ord)',
      );
      const batch = batchStatement(sql, inputs, 'codeHash');
      expect(batch.text).toContain("WHERE i.in_code_hash <> '' AND i.in_now IS NOT NULL");
      expect(
        batch.values([
          { codeHash: 'a', now: 1 },
          { now: 2, codeHash: 'b' },
        ]),
      ).toEqual([
        ['a', 'b'],
        [1, 2],
      ]);
    });

    it('fails as a single statement does, per item', () => {
      const batch = batchStatement(sql, inputs, 'codeHash');
      expect(() => batch.values([{ codeHash: 'a', now: 1 }, { codeHash: 'b' } as never])).toThrow(
        'no value for statement parameter :now',
      );
      expect(() => batchStatement(sql, { ...inputs, scope: 'text' }, 'codeHash')).toThrow(
        'declared but not used: :scope',
      );
    });

    it('fails when the text does not read its items from batchInputSql(inputs)', () => {
      expect(() => batchStatement('SELECT :codeHash, :now', inputs, 'codeHash')).toThrow(
        'batchInputSql',
      );
    });
  });

  describe('inOrderOf', () => {
    it('orders batch items by one input (one lock order) and remembers their places', () => {
      const items = [{ hash: 'c' }, { hash: 'a' }, { hash: 'b' }];
      expect(inOrderOf(items, 'hash')).toEqual([
        { item: { hash: 'a' }, index: 1 },
        { item: { hash: 'b' }, index: 2 },
        { item: { hash: 'c' }, index: 0 },
      ]);
    });
  });
});
