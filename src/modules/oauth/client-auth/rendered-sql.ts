import { join } from 'node:path';
import type { RenderedStatement } from '../../../common/sql/rendered-sql';
import { FIND_CLIENT } from './authenticate-client';

// Client authentication's statement, rendered into sql/ (src/common/sql/rendered-sql.ts).

export const CLIENT_AUTH_RENDERED_SQL: readonly RenderedStatement[] = [
  {
    file: join(__dirname, 'sql', 'find-client.sql'),
    builder: 'FIND_CLIENT',
    source: join(__dirname, 'authenticate-client.ts'),
    purpose: 'the client a confidential token or revocation request names (authenticateClient)',
    text: FIND_CLIENT.text,
  },
];
