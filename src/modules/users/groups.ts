/** Group codes and their inheritance (docs/contract/groups.md). */
export const GROUP_CODES = ['admin', 'viewer', 't0', 't1', 't2', 't3', 't4', 't5'] as const;
export type GroupCode = (typeof GROUP_CODES)[number];

export const DEFAULT_GROUP: GroupCode = 't0';

const DESCRIPTIONS: Record<GroupCode, string> = {
  admin: 'Administrator: independent of the levels, has every permission and includes every group',
  viewer: 'Viewer: independent of the levels, may only view',
  t0: 'Level 0: the default group of a newly authorized user',
  t1: 'Level 1: includes level 0',
  t2: 'Level 2: includes levels 0 to 1',
  t3: 'Level 3: includes levels 0 to 2',
  t4: 'Level 4: includes levels 0 to 3',
  t5: 'Level 5: includes levels 0 to 4',
};

export const GROUPS_NOTE =
  'Levels t0 to t5 are cumulative: a level includes every lower level (t3 implies t0, t1, t2 and t3). ' +
  'admin is independent and implies every group; viewer is independent and may only view. ' +
  'A user newly related to an application starts in t0.';

export function isGroupCode(value: unknown): value is GroupCode {
  return typeof value === 'string' && (GROUP_CODES as readonly string[]).includes(value);
}

/** The codes a group includes after inheritance expansion, the group itself included. */
export function impliedGroups(code: GroupCode): GroupCode[] {
  if (code === 'admin') return [...GROUP_CODES];
  if (code === 'viewer') return ['viewer'];
  const level = Number(code.slice(1));
  return GROUP_CODES.filter((c) => c.startsWith('t') && Number(c.slice(1)) <= level);
}

export function describeGroup(code: GroupCode): string {
  return DESCRIPTIONS[code];
}
