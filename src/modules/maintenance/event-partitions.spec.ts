import {
  isExpired,
  monthPartition,
  parsePartitionName,
  partitionOf,
  partitionsAhead,
  retentionCutoff,
} from './event-partitions';

describe('event partitions', () => {
  it('bounds a month at 00:00 UTC on its first day and the next month’s', () => {
    expect(partitionOf(new Date('2030-12-31T23:59:59.999Z'))).toEqual({
      name: 'events_p2030_12',
      from: new Date('2030-12-01T00:00:00Z'),
      to: new Date('2031-01-01T00:00:00Z'),
    });
    expect(partitionOf(new Date('2031-01-01T00:00:00Z')).name).toBe('events_p2031_01');
  });

  it('reads back only the names it makes', () => {
    expect(parsePartitionName('events_p2031_02')).toEqual(monthPartition(2031, 2));
    for (const name of ['events_default', 'events_p2031_13', 'events_p2031_2', 'events']) {
      expect(parsePartitionName(name)).toBeUndefined();
    }
  });

  it('wants the current month and the two after it, across a year end', () => {
    expect(partitionsAhead(new Date('2030-11-30T23:00:00Z')).map((p) => p.name)).toEqual([
      'events_p2030_11',
      'events_p2030_12',
      'events_p2031_01',
    ]);
  });

  it('expires a month only when all of it is older than the retention', () => {
    const cutoff = retentionCutoff(new Date('2031-06-15T12:00:00Z'), 400);
    expect(cutoff).toEqual(new Date('2030-05-11T12:00:00Z'));
    expect(isExpired(monthPartition(2030, 4), cutoff)).toBe(true);
    expect(isExpired(monthPartition(2030, 5), cutoff)).toBe(false);
    expect(isExpired(partitionOf(cutoff), new Date('2030-06-01T00:00:00Z'))).toBe(true);
  });
});
