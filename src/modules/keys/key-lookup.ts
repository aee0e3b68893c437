import type { DataSource } from 'typeorm';
import { preparedQuery } from '../../database/prepared-query';
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
}

const LOOKUP = `SELECT k.id, k.name, k.key_prefix, k.scopes, k.status, k.expires_at, k.last_used_at,
    k.created_at, ${apiApplicationColumnsSql('a')}
  FROM api_keys k JOIN applications a ON a.id = k.application_id
  WHERE k.key_hash = $1`;

/**
 * The key stored under `keyHash` with its application, whatever their state (the caller decides
 * usability with the injectable clock), or undefined. Every API request runs it, so it is one
 * named prepared statement read straight into plain objects: no query building or entity
 * hydration per request (docs/performance-app-api.md). Always read from the database, never a
 * cache: revocation, rotation and deletion hold from the next request on every instance.
 */
export async function lookUpKey(
  dataSource: DataSource,
  keyHash: string,
): Promise<{ apiKey: PresentedKey; application: ApiApplication } | undefined> {
  const [row] = await preparedQuery<KeyRow>(dataSource, 'api_key_lookup', LOOKUP, [keyHash]);
  if (!row) return undefined;
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
