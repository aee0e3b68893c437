import { join } from 'node:path';
import type { RenderedStatement } from '../../common/sql/rendered-sql';
import { LOOKUP, LOOKUP_MANY } from './key-lookup';

// The API-key lookup of every application API request, rendered into sql/ (src/common/sql/rendered-sql.ts).

const SOURCE = join(__dirname, 'key-lookup.ts');

export const KEYS_RENDERED_SQL: readonly RenderedStatement[] = [
  {
    file: join(__dirname, 'sql', 'key-lookup.sql'),
    builder: 'LOOKUP',
    source: SOURCE,
    purpose: 'the presented API key with its application (lookUpKey, prepared as api_key_lookup)',
    text: LOOKUP.text,
  },
  {
    file: join(__dirname, 'sql', 'key-lookup.batch.sql'),
    builder: 'LOOKUP_MANY',
    source: SOURCE,
    purpose:
      'the keys of a batch of requests, one array parameter whatever the batch size (lookUpKeys, prepared as api_key_lookup_many)',
    text: LOOKUP_MANY.text,
  },
];
