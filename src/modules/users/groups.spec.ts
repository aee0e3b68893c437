import { GROUP_CODES, impliedGroups, isGroupCode } from './groups';

describe('groups', () => {
  describe('impliedGroups', () => {
    it('expands t0..t5 to every lower level (docs/contract/groups.md)', () => {
      expect(impliedGroups('t0')).toEqual(['t0']);
      expect(impliedGroups('t3')).toEqual(['t0', 't1', 't2', 't3']);
      expect(impliedGroups('t5')).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);
    });

    it('gives admin every code and viewer only itself', () => {
      expect(impliedGroups('admin')).toEqual([
        'admin',
        'viewer',
        't0',
        't1',
        't2',
        't3',
        't4',
        't5',
      ]);
      expect(impliedGroups('viewer')).toEqual(['viewer']);
    });
  });

  describe('isGroupCode', () => {
    it('accepts the eight codes only', () => {
      expect(GROUP_CODES).toHaveLength(8);
      for (const code of GROUP_CODES) expect(isGroupCode(code)).toBe(true);
      for (const value of ['T0', 't6', 'admins', '', null, 3])
        expect(isGroupCode(value)).toBe(false);
    });
  });
});
