import { join } from 'node:path';
import type { RenderedStatement } from '../../../common/sql/rendered-sql';
import { SPEND_ASSERTION_JTI } from './assertion-jtis';
import { FIND_CLIENT } from './authenticate-client';

// Client authentication's statements, rendered into sql/ (src/common/sql/rendered-sql.ts).

export const CLIENT_AUTH_RENDERED_SQL: readonly RenderedStatement[] = [
  {
    file: join(__dirname, 'sql', 'find-client.sql'),
    builder: 'FIND_CLIENT',
    source: join(__dirname, 'authenticate-client.ts'),
    purpose: 'the client a confidential token or revocation request names (authenticateClient)',
    text: FIND_CLIENT.text,
  },
  {
    file: join(__dirname, 'sql', 'spend-assertion-jti.sql'),
    builder: 'SPEND_ASSERTION_JTI',
    source: join(__dirname, 'assertion-jtis.ts'),
    purpose: 'the single use of a client assertion id (private_key_jwt; spendAssertionJti)',
    text: SPEND_ASSERTION_JTI.text,
  },
];
