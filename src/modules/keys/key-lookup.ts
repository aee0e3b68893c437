import type { DataSource } from 'typeorm';
import { preparedQuery } from '../../common/sql/prepared-query';
import { statement } from '../../common/sql/statement';
import {
  apiApplicationColumnsSql,
  toApiApplication,
  type ApiApplication,
  type ApiApplicationRow,
} from '../applications/api-application-sql';
import type { ApiKey } from './api-key.entity';

/** What a request needs of the presented key: GET /me's fields, its scopes and what decides its status. */
export type PresentedKey = Pick<
  ApiKey,
  'id' | 'name' | 'keyPrefix' | 'scopes' | 'status' | 'expiresAt' | 'lastUsedAt' | 'createdAt'
>;

interface KeyRow extends ApiApplicationRow {
  id: number;
  name: string;
  key_prefix: string;
  scopes: string[];
  status: ApiKey['status'];
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  key_hash: string;
}

export type FoundKey = { apiKey: PresentedKey; application: ApiApplication };

const lookupSql = (keys: string): string =>
  `SELECT k.id, k.name, k.key_prefix, k.scopes, k.status, k.expires_at, k.last_used_at,
    k.created_at, k.key_hash, ${apiApplicationColumnsSql('a')}
  FROM api_keys k JOIN applications a ON a.id = k.application_id
  WHERE ${keys}`;
/** Bound by name (src/common/sql/statement.ts). */
export const LOOKUP = statement(lookupSql('k.key_hash = :keyHash'), ['keyHash']);
export const LOOKUP_MANY = statement(lookupSql('k.key_hash = ANY(:keyHashes::varchar[])'), [
  'keyHashes',
]);

/**
 * The key stored under `keyHash` with its application, whatever their state (the caller decides
 * usability with the injectable clock), or undefined. Every API request runs it, so it is one
 * named prepared statement read straight into plain objects: no query building or entity
 * hydration per request (docs/performance/app-api.md). Always read from the database, never a
 * cache: revocation, rotation and deletion hold from the next request on every instance.
 */
export async function lookUpKey(
  dataSource: DataSource,
  keyHash: string,
): Promise<FoundKey | undefined> {
  const [row] = await preparedQuery<KeyRow>(
    dataSource,
    'api_key_lookup',
    LOOKUP.text,
    LOOKUP.values({ keyHash }),
  );
  return row && found(row);
}

/**
 * lookUpKey for several keys in one statement (requests that arrive together,
 * api-keys.service.ts), answered in the order of `keyHashes`; a key presented twice is read once
 * and answered twice, each time with objects of its own.
 */
export async function lookUpKeys(
  dataSource: DataSource,
  keyHashes: readonly string[],
): Promise<(FoundKey | undefined)[]> {
  const rows = await preparedQuery<KeyRow>(
    dataSource,
    'api_key_lookup_many',
    LOOKUP_MANY.text,
    LOOKUP_MANY.values({ keyHashes: [...new Set(keyHashes)] }),
  );
  const byHash = new Map(rows.map((row) => [row.key_hash, row]));
  return keyHashes.map((hash) => {
    const row = byHash.get(hash);
    return row && found(row);
  });
}

function found(row: KeyRow): FoundKey {
  const apiKey: PresentedKey = {
    id: row.id,
    name: row.name,
    keyPrefix: row.key_prefix,
    scopes: row.scopes,
    status: row.status,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    createdAt: row.created_at,
  };
  return { apiKey, application: toApiApplication(row) };
}
