import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { rfc3339 } from '../../common/http/timestamps';
import { serviceVersion } from '../../config/service-version';
import { AppConfig } from '../../config/app-config';
import { SigningKeysService } from '../../modules/signing-keys/signing-keys.service';
import { probeRedis } from './redis-probe';
import type { StatusReport } from './status-report';

const DAY_MS = 24 * 60 * 60 * 1000;

interface EndpointLagRow {
  id: number;
  enabled: boolean;
  failing: boolean;
  events: number;
  oldest: Date | null;
}

/** The facts behind `identity-cli status`, each section read on its own (status-report.ts). */
@Injectable()
export class StatusService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly signingKeys: SigningKeysService,
    private readonly clock: Clock,
  ) {}

  async report(): Promise<StatusReport> {
    const problems: string[] = [];
    const section = async <T>(name: string, read: () => Promise<T>): Promise<T | null> => {
      try {
        return await read();
      } catch (error) {
        problems.push(`${name}: ${(error as Error).message}`);
        return null;
      }
    };
    const serverVersion = await section('database', () => this.serverVersion());
    const report = {
      service: serviceFacts(),
      database: {
        kind: databaseKind(this.config),
        reachable: serverVersion !== null,
        serverVersion,
      },
      migrations: await section('migrations', () => this.migrations()),
      redis: await probeRedis(this.config),
      signingKeys: await section('signing keys', () => this.signingKeyFacts()),
      webhooks: await section('webhooks', () => this.webhookFacts()),
    };
    return withVerdict(report, problems);
  }

  private async serverVersion(): Promise<string> {
    const [row] = await this.dataSource.query<{ server_version: string }[]>('SHOW server_version');
    return row.server_version;
  }

  private async migrations(): Promise<NonNullable<StatusReport['migrations']>> {
    const [{ present }] = await this.dataSource.query<{ present: boolean }[]>(
      "SELECT to_regclass('migrations') IS NOT NULL AS present",
    );
    const applied = present
      ? (
          await this.dataSource.query<{ name: string }[]>('SELECT name FROM migrations ORDER BY id')
        ).map((row) => row.name)
      : [];
    const known = this.dataSource.migrations.map((m) => m.name ?? m.constructor.name);
    return {
      applied: applied.length,
      lastApplied: applied.at(-1) ?? null,
      pending: known.filter((name) => !applied.includes(name)),
    };
  }

  private async signingKeyFacts(): Promise<NonNullable<StatusReport['signingKeys']>> {
    // The keys of RS256, every client's default; the other algs' are in `signing-key list`.
    const keys = (await this.signingKeys.list()).filter((key) => key.alg === 'RS256');
    const active = keys.find((key) => key.state === 'active');
    const since = active?.activatedAt ?? active?.createdAt;
    return {
      active: active
        ? {
            kid: active.kid,
            alg: active.alg,
            activatedAt: rfc3339(active.activatedAt),
            ageDays: Math.floor((this.clock.now().getTime() - since!.getTime()) / DAY_MS),
          }
        : null,
      nextKid: keys.find((key) => key.state === 'next')?.kid ?? null,
      retired: keys.filter((key) => key.state === 'retired').length,
    };
  }

  /** Lag: the committed events of the endpoint's application after its cursor. */
  private async webhookFacts(): Promise<NonNullable<StatusReport['webhooks']>> {
    const rows = await this.dataSource.query<EndpointLagRow[]>(
      `SELECT w.id, w.enabled, w.failing_since IS NOT NULL AS failing,
              count(e.id)::int AS events, min(e.created_at) AS oldest
         FROM webhook_endpoints w
         LEFT JOIN events e ON e.application_id = w.application_id AND e.id > w.cursor
        GROUP BY w.id
        ORDER BY w.id`,
    );
    const worst = rows
      .filter((row) => row.events > 0)
      .sort((a, b) => b.events - a.events || a.id - b.id)[0];
    return {
      enabled: rows.filter((row) => row.enabled).length,
      disabled: rows.filter((row) => !row.enabled).length,
      failing: rows.filter((row) => row.enabled && row.failing).length,
      worstLag: worst
        ? {
            endpointId: worst.id,
            events: worst.events,
            seconds: Math.max(
              0,
              Math.floor((this.clock.now().getTime() - new Date(worst.oldest!).getTime()) / 1000),
            ),
          }
        : null,
    };
  }
}

/** The report when the database could not even be opened: Redis and the service still probed. */
export async function statusWithoutDatabase(
  config: AppConfig,
  error: unknown,
): Promise<StatusReport> {
  return withVerdict(
    {
      service: serviceFacts(),
      database: { kind: databaseKind(config), reachable: false, serverVersion: null },
      migrations: null,
      redis: await probeRedis(config),
      signingKeys: null,
      webhooks: null,
    },
    [`database: ${error instanceof Error ? error.message : String(error)}`],
  );
}

function serviceFacts(): StatusReport['service'] {
  return { version: serviceVersion(), node: process.versions.node };
}

function databaseKind(config: AppConfig): StatusReport['database']['kind'] {
  return config.usesEmbeddedDatabase ? 'embedded' : 'external';
}

/** Something is wrong when a section failed, a migration is pending or Redis is unreachable. */
function withVerdict(
  facts: Omit<StatusReport, 'ok' | 'problems'>,
  failures: string[],
): StatusReport {
  const problems = [...failures];
  const pending = facts.migrations?.pending ?? [];
  if (pending.length > 0) problems.push(`migrations pending: ${pending.join(', ')}`);
  if (facts.redis.reachable === false) problems.push('redis: unreachable');
  return { ok: problems.length === 0, problems, ...facts };
}
