import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.publicBaseUrl).toBe('http://localhost:3000');
    expect(config.keyGracePeriodSeconds).toBe(86400);
    expect(config.rateLimitPerMinute).toBe(600);
    expect(config.embeddedDataDir).toBe('./data');
    expect(config.migrationsRun).toBe(true);
    expect(config.usesEmbeddedDatabase).toBe(true);
    expect(config.eventsRetentionDays).toBe(400);
  });

  it('keeps events at least 31 days, so the 30 days of the stats are never dropped', () => {
    expect(loadConfig({ EVENTS_RETENTION_DAYS: '31' }).eventsRetentionDays).toBe(31);
    for (const value of ['30', '0', '45.5', 'a year']) {
      expect(() => loadConfig({ EVENTS_RETENTION_DAYS: value })).toThrow(/EVENTS_RETENTION_DAYS/);
    }
  });

  it('keeps metrics off by default, and their listener on loopback unless told otherwise', () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    const on = loadConfig({ METRICS_PORT: '9464' });
    expect(on.metricsPort).toBe(9464);
    expect(on.metricsHost).toBe('127.0.0.1');
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metricsHost).toBe(
      '10.0.0.5',
    );
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(ConfigError);
  });

  it('parses typed values', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@db:5432/x',
      MIGRATIONS_RUN: 'false',
      PUBLIC_BASE_URL: 'https://id.example.com/',
    });
    expect(config.port).toBe(8080);
    expect(config.migrationsRun).toBe(false);
    expect(config.usesEmbeddedDatabase).toBe(false);
    expect(config.publicBaseUrl).toBe('https://id.example.com');
  });

  it('lists every invalid variable at once', () => {
    try {
      loadConfig({
        PORT: 'abc',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://x',
        KEY_GRACE_PERIOD_SECONDS: '-1',
      });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'LOG_LEVEL', 'DATABASE_URL', 'KEY_GRACE_PERIOD_SECONDS']) {
        expect(problems).toContain(name);
      }
    }
  });

  it('names the variable and the rule broken, never the value, secret or not', () => {
    const bad = {
      DATABASE_URL: 'postgres://idsvc:db-pw-7c1d@db_host:5432/idsvc',
      REDIS_URL: 'redis://:redis-pw-93ab@cache_host:6379/0',
      SMTP_URL: 'smtp://mailer:smtp-pw-2e4f@mail_host:587',
      SESSION_SECRET: 'short-session-pw-5a',
      SIGNING_KEYS_SECRET: 'short-signing-pw-6b',
      PORT: 'port-value-8d',
      LOG_LEVEL: 'level-value-0e',
    };
    let problems: string[] = [];
    try {
      loadConfig(bad);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      problems = (error as ConfigError).problems;
      for (const value of Object.values(bad)) expect((error as Error).message).not.toContain(value);
    }
    for (const value of ['db-pw-7c1d', 'redis-pw-93ab', 'smtp-pw-2e4f', '-pw-', 'value-']) {
      expect(problems.join('\n')).not.toContain(value);
    }
    expect(problems).toEqual(
      expect.arrayContaining([
        'DATABASE_URL: must be a URL address',
        'REDIS_URL: must be a URL address',
        'SMTP_URL: must be a URL address',
        'SESSION_SECRET: must be longer than or equal to 32 characters',
        'SIGNING_KEYS_SECRET: must be longer than or equal to 32 characters',
      ]),
    );
    for (const problem of problems) expect(Object.keys(bad)).toContain(problem.split(':')[0]);
  });

  it('requires STARTTLS for smtp:// unless SMTP_ALLOW_PLAINTEXT, on loopback alone in production', () => {
    const smtp = loadConfig({ SMTP_URL: 'smtp://u:p%40ss@mail.example.test:587' });
    expect(smtp.smtpAllowPlaintext).toBe(false);
    expect(smtp.smtpMayBePlaintext).toBe(false);
    expect(smtp.smtpServer).toEqual({
      implicitTls: false,
      host: 'mail.example.test',
      port: 587,
      auth: { user: 'u', pass: 'p@ss' },
    });
    const optedOut = loadConfig({
      SMTP_URL: 'smtp://127.0.0.1:2525',
      SMTP_ALLOW_PLAINTEXT: 'true',
    });
    expect(optedOut.smtpMayBePlaintext).toBe(true);
    expect(
      loadConfig({ SMTP_URL: 'smtps://mail.example.test', SMTP_ALLOW_PLAINTEXT: 'true' })
        .smtpMayBePlaintext,
    ).toBe(false);
    expect(() => loadConfig({ SMTP_ALLOW_PLAINTEXT: 'yes' })).toThrow(/SMTP_ALLOW_PLAINTEXT/);
    expect(() => loadConfig({ SMTP_URL: 'smtp://u:p%zz@mail.example.test' })).toThrow(
      /SMTP_URL: has a user name or password that is not valid percent-encoding/,
    );

    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      SIGNING_KEYS_SECRET: 'y'.repeat(40),
      PUBLIC_BASE_URL: 'https://id.example.com',
      SMTP_ALLOW_PLAINTEXT: 'true',
    };
    for (const host of ['mail.example.test', 'localhost.example.test', '10.0.0.5']) {
      expect(() => loadConfig({ ...production, SMTP_URL: `smtp://${host}:25` })).toThrow(
        /SMTP_ALLOW_PLAINTEXT: in production only for a loopback SMTP_URL host/,
      );
    }
    for (const host of ['127.0.0.1', '[::1]', 'localhost']) {
      expect(loadConfig({ ...production, SMTP_URL: `smtp://${host}:25` }).smtpMayBePlaintext).toBe(
        true,
      );
    }
    expect(
      loadConfig({ ...production, SMTP_URL: 'smtps://mail.example.test' }).smtpMayBePlaintext,
    ).toBe(false);
  });

  it('refuses insecure defaults in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SIGNING_KEYS_SECRET/);
    const secrets = { SESSION_SECRET: 'x'.repeat(40), SIGNING_KEYS_SECRET: 'y'.repeat(40) };
    expect(() =>
      loadConfig({ NODE_ENV: 'production', ...secrets, PUBLIC_BASE_URL: 'http://id.example.com' }),
    ).toThrow(/https/);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        SESSION_SECRET: 'x'.repeat(40),
        PUBLIC_BASE_URL: 'https://id.example.com',
      }),
    ).toThrow(/SIGNING_KEYS_SECRET/);
    expect(() => loadConfig({ SIGNING_KEYS_SECRET: 'too-short' })).toThrow(/SIGNING_KEYS_SECRET/);
    const config = loadConfig({
      NODE_ENV: 'production',
      ...secrets,
      PUBLIC_BASE_URL: 'https://id.example.com',
    });
    expect(config.isProduction).toBe(true);
    expect(config.passwordHashCost).toBe(15);
    const production = {
      NODE_ENV: 'production',
      ...secrets,
      PUBLIC_BASE_URL: 'https://id.example.com',
    };
    expect(() => loadConfig({ ...production, PASSWORD_HASH_COST: '14' })).toThrow(
      /PASSWORD_HASH_COST/,
    );
    expect(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: '10' }).passwordHashCost).toBe(10);
  });

  it('drains 5 s after SIGTERM in production and not at all elsewhere, unless set', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      SIGNING_KEYS_SECRET: 'y'.repeat(40),
      PUBLIC_BASE_URL: 'https://id.example.com',
    };
    expect(loadConfig(production).shutdownDrainDelayMs).toBe(5000);
    expect(loadConfig({}).shutdownDrainDelayMs).toBe(0);
    expect(loadConfig({ NODE_ENV: 'test' }).shutdownDrainDelayMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_DELAY_MS: '1500' }).shutdownDrainDelayMs).toBe(1500);
    expect(loadConfig({ ...production, SHUTDOWN_DRAIN_DELAY_MS: '0' }).shutdownDrainDelayMs).toBe(
      0,
    );
    expect(() => loadConfig({ SHUTDOWN_DRAIN_DELAY_MS: '-1' })).toThrow(/SHUTDOWN_DRAIN_DELAY_MS/);
  });
});
