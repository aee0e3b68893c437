import { join } from 'node:path';
import type { RenderedStatement } from '../../../common/sql/rendered-sql';
import { OWNER, USERINFO, USERINFO_BATCH } from './userinfo.service';

// The userinfo statements, rendered into sql/ (src/common/sql/rendered-sql.ts).

const SOURCE = join(__dirname, 'userinfo.service.ts');

export const USERINFO_RENDERED_SQL: readonly RenderedStatement[] = [
  {
    file: join(__dirname, 'sql', 'userinfo.sql'),
    builder: 'USERINFO',
    source: SOURCE,
    purpose: `userinfo: the owner of one access token with its upstream identities (prepared as ${USERINFO.name})`,
    text: USERINFO.text,
  },
  {
    file: join(__dirname, 'sql', 'userinfo.batch.sql'),
    builder: 'USERINFO_BATCH',
    source: SOURCE,
    purpose: `userinfo for a batch of access tokens, one array parameter whatever the batch size (userinfoOwners, prepared as ${USERINFO_BATCH.name})`,
    text: USERINFO_BATCH.text,
  },
  {
    file: join(__dirname, 'sql', 'emails-owner.sql'),
    builder: 'OWNER',
    source: SOURCE,
    purpose: `/user/emails: the owner of one access token (prepared as ${OWNER.name})`,
    text: OWNER.text,
  },
];
