import { join } from 'node:path';
import type { RenderedStatement } from '../../../database/rendered-sql';
import type { TokenKind } from '../../tokens/token-sql';
import { LOOKUP } from './introspection.service';

// The introspection statements, rendered into sql/ (src/database/rendered-sql.ts).

const KINDS: readonly TokenKind[] = ['access', 'refresh'];

export const INTROSPECTION_RENDERED_SQL: readonly RenderedStatement[] = KINDS.map((kind) => ({
  file: join(__dirname, 'sql', `introspection.${kind}.sql`),
  builder: `LOOKUP.${kind}`,
  source: join(__dirname, 'introspection.service.ts'),
  purpose: `introspection (RFC 7662) of a presented ${kind} token of the calling application (prepared as oauth_introspect_${kind})`,
  text: LOOKUP[kind].text,
}));
