import { join } from 'node:path';
import type { RenderedStatement } from '../../../common/sql/rendered-sql';
import type { ClientKind } from './redeeming-client';
import { exchangeBatchStatement, exchangeStatement } from './grants/authorization-code-sql';
import { LOCK_STATEMENT, rotateBatchStatement, rotateStatement } from './grants/refresh-token-sql';

// The token endpoint's statements, rendered into grants/sql/ (src/common/sql/rendered-sql.ts).

const GRANTS = join(__dirname, 'grants');
const EXCHANGE_SOURCE = join(GRANTS, 'authorization-code-sql.ts');
const REFRESH_SOURCE = join(GRANTS, 'refresh-token-sql.ts');

/** How the client of each kind is checked, for the purpose lines. */
const CLIENT: Record<ClientKind, string> = {
  authenticated: 'a client already authenticated by its secret',
  public: 'a public client, checked by the statement (`none`, enabled)',
};

const KINDS: readonly ClientKind[] = ['authenticated', 'public'];

export const TOKEN_RENDERED_SQL: readonly RenderedStatement[] = [
  ...KINDS.flatMap((kind): RenderedStatement[] => [
    {
      file: join(GRANTS, 'sql', `authorization-code.${kind}.sql`),
      builder: `exchangeStatement('${kind}')`,
      source: EXCHANGE_SOURCE,
      purpose: `the code exchange of one code by ${CLIENT[kind]} (redeemCode)`,
      text: exchangeStatement(kind).text,
    },
    {
      file: join(GRANTS, 'sql', `authorization-code.batch.${kind}.sql`),
      builder: `exchangeBatchStatement('${kind}')`,
      source: EXCHANGE_SOURCE,
      purpose: `the code exchange of a batch of codes by ${CLIENT[kind]}, one array parameter per input whatever the batch size (redeemCodes)`,
      text: exchangeBatchStatement(kind).text,
    },
    {
      file: join(GRANTS, 'sql', `refresh-token.${kind}.sql`),
      builder: `rotateStatement('${kind}')`,
      source: REFRESH_SOURCE,
      purpose: `the rotation of one refresh token by ${CLIENT[kind]} (rotateRefreshToken)`,
      text: rotateStatement(kind).text,
    },
    {
      file: join(GRANTS, 'sql', `refresh-token.batch.${kind}.sql`),
      builder: `rotateBatchStatement('${kind}')`,
      source: REFRESH_SOURCE,
      purpose: `the rotation of a batch of refresh tokens by ${CLIENT[kind]}, one array parameter per input whatever the batch size (rotateRefreshTokens)`,
      text: rotateBatchStatement(kind).text,
    },
  ]),
  {
    file: join(GRANTS, 'sql', 'refresh-token.lock.sql'),
    builder: 'LOCK_STATEMENT',
    source: REFRESH_SOURCE,
    purpose:
      'the step-by-step refresh (after the one statement changed nothing): the presented token locked, with every step outcome (lockRefreshToken)',
    text: LOCK_STATEMENT.text,
  },
];
