import { join } from 'node:path';
import type { RenderedStatement } from '../../../common/sql/rendered-sql';
import { INTROSPECTION, INTROSPECTION_BATCH } from './introspection-sql';

// The introspection statements, rendered into sql/ (src/common/sql/rendered-sql.ts).

const SOURCE = join(__dirname, 'introspection-sql.ts');

export const INTROSPECTION_RENDERED_SQL: readonly RenderedStatement[] = [
  {
    file: join(__dirname, 'sql', 'introspection.sql'),
    builder: 'INTROSPECTION',
    source: SOURCE,
    purpose: `introspection (RFC 7662): the calling client and the presented token as an access and as a refresh token of its application (prepared as ${INTROSPECTION.name})`,
    text: INTROSPECTION.text,
  },
  {
    file: join(__dirname, 'sql', 'introspection.batch.sql'),
    builder: 'INTROSPECTION_BATCH',
    source: SOURCE,
    purpose: `introspection for a batch of requests, one array parameter per input whatever the batch size (prepared as ${INTROSPECTION_BATCH.name})`,
    text: INTROSPECTION_BATCH.text,
  },
];
