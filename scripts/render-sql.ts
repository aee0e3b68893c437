/**
 * Rewrites the committed rendered SQL of the hot paths' statements (src/common/sql/rendered-sql.ts):
 *
 *   npm run sql:render
 *
 * Each feature's `rendered-sql.ts` lists its statements; its `rendered-sql.spec.ts` fails when a
 * committed file differs. A new list must be added here.
 */
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  orphanedSqlFiles,
  REPOSITORY_ROOT,
  writeRenderedSql,
  type RenderedStatement,
} from '../src/common/sql/rendered-sql';
import { KEYS_RENDERED_SQL } from '../src/modules/keys/rendered-sql';
import { CLIENT_AUTH_RENDERED_SQL } from '../src/modules/oauth/client-auth/rendered-sql';
import { TOKEN_RENDERED_SQL } from '../src/modules/oauth/token/rendered-sql';
import { INTROSPECTION_RENDERED_SQL } from '../src/modules/oauth/token-management/rendered-sql';
import { USERINFO_RENDERED_SQL } from '../src/modules/oauth/userinfo/rendered-sql';

const LISTS: readonly (readonly RenderedStatement[])[] = [
  TOKEN_RENDERED_SQL,
  CLIENT_AUTH_RENDERED_SQL,
  USERINFO_RENDERED_SQL,
  KEYS_RENDERED_SQL,
  INTROSPECTION_RENDERED_SQL,
];

let changes = 0;
for (const list of LISTS) {
  for (const path of writeRenderedSql(list)) {
    console.log(`wrote ${path}`);
    changes++;
  }
  for (const path of orphanedSqlFiles(list)) {
    unlinkSync(join(REPOSITORY_ROOT, path));
    console.log(`removed ${path} (no statement renders it)`);
    changes++;
  }
}
console.log(changes === 0 ? 'rendered SQL up to date' : `${changes} file(s) changed`);
