import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminCommands } from '../../../../src/cli/admin-commands';
import { inlineJwksFile, runCommand } from '../../../../src/cli/run-command';
import { consoleWorld, type ConsoleWorld } from '../../../support/console';
import { basic, ISSUER } from '../../../support/oauth';
import {
  CONFIRMATION_HEADER,
  confirmationToken,
  newAuthenticator,
  registerPasskey,
} from '../../../support/passkeys';
import {
  assertionFields,
  clientKey,
  jwksOf,
  loadJose,
  probeTokenEndpoint,
  signAssertion,
  type ClientKey,
} from '../../../support/private-key-jwt';
import type { SoftwareAuthenticator } from '../../../support/software-authenticator';
import { createTestApp, type TestApp } from '../../../support/test-app';

// Registering a private_key_jwt client's keys: the rules (public keys only, https jwks_uri), the
// console's passkey confirmation bound to the keys, and the CLI.
describe('private_key_jwt registration', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  let authenticator: SoftwareAuthenticator;
  let key: ClientKey;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    w = await consoleWorld(t);
    authenticator = newAuthenticator();
    await registerPasskey(w.owner, authenticator);
    key = await clientKey('ES256');
  });

  const appPath = () => `/api/console/applications/${w.applicationId}`;
  const create = (body: object) =>
    w.owner.request('post', '/api/console/applications').send({ name: 'Keyed', ...body });
  const settingsToken = (settings: object) =>
    confirmationToken(w.owner, authenticator, {
      action: 'client_settings.update',
      applicationId: w.applicationId,
      settings,
    });
  const authenticates = async (clientId: string, signer = key): Promise<boolean> => {
    const assertion = await signAssertion(signer, clientId, { now: t.clock.now(), aud: ISSUER });
    const res = await probeTokenEndpoint(t.app, assertionFields(assertion));
    return res.status === 400;
  };
  const clientIdOf = async (id: number): Promise<string> =>
    (
      await t.dataSource.query<{ client_id: string }[]>(
        'SELECT client_id FROM applications WHERE id = $1',
        [id],
      )
    )[0].client_id;

  it('refuses a JWKS holding private members or a symmetric key', async () => {
    const jose = await loadJose();
    const privateJwk = await jose.exportJWK(key.privateKey);
    const rsa = await jose.generateKeyPair('RS256', { extractable: true });
    const rsaPrivate = await jose.exportJWK(rsa.privateKey);
    for (const [jwk, member] of [
      [privateJwk, 'd'],
      [{ ...key.publicJwk, d: privateJwk.d }, 'd'],
      [{ ...(await jose.exportJWK(rsa.publicKey)), p: rsaPrivate.p, q: rsaPrivate.q }, 'p, q'],
      [rsaPrivate, 'd, p, q, dp, dq, qi'],
      [{ kty: 'oct', k: 'c2VjcmV0LWtleS1ieXRlcw' }, 'kty oct'],
    ] as const) {
      const res = await create({ clientAuthMethod: 'private_key_jwt', jwks: { keys: [jwk] } });
      expect([res.status, res.body.error]).toEqual([400, 'invalid_request']);
      expect(res.body.message).toContain(`private or symmetric key material (${member})`);
    }
    for (const jwks of [
      { keys: [] },
      [key.publicJwk],
      { keys: [{ ...key.publicJwk, alg: 'HS256' }] },
      { keys: [{ ...key.publicJwk, alg: 'none' }] },
      { keys: [{ ...key.publicJwk, use: 'enc' }] },
      { keys: [{ ...key.publicJwk, x: 'AAAA' }] },
    ]) {
      const res = await create({ clientAuthMethod: 'private_key_jwt', jwks });
      expect(res.status).toBe(400);
    }
    expect(
      await t.dataSource.query<unknown[]>("SELECT 1 FROM applications WHERE name = 'Keyed'"),
    ).toEqual([]);
  });

  it('refuses a jwks_uri that is not https, and keys on a client of another method', async () => {
    for (const jwksUri of [
      'http://keys.example/jwks.json',
      'http://127.0.0.1/jwks.json',
      'https://user:pw@keys.example/jwks.json',
      'https://keys.example/jwks.json#frag',
      'file:///etc/passwd',
      'keys.example/jwks.json',
    ]) {
      const res = await create({ clientAuthMethod: 'private_key_jwt', jwksUri });
      expect([jwksUri, res.status]).toEqual([jwksUri, 400]);
    }
    for (const body of [
      { clientAuthMethod: 'private_key_jwt' },
      { clientAuthMethod: 'secret', jwks: jwksOf(key) },
      { clientAuthMethod: 'none', jwksUri: 'https://keys.example/jwks.json' },
      {
        clientAuthMethod: 'private_key_jwt',
        jwks: jwksOf(key),
        jwksUri: 'https://keys.example/jwks.json',
      },
    ]) {
      expect((await create(body)).status).toBe(400);
    }
    const ok = await create({
      clientAuthMethod: 'private_key_jwt',
      jwksUri: 'https://keys.example/jwks.json',
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      clientAuthMethod: 'private_key_jwt',
      jwks: null,
      jwksUri: 'https://keys.example/jwks.json',
      clientSecret: null,
    });
  });

  it('binds the client_settings.update confirmation to the keys: a token for one JWKS sets no other', async () => {
    const first = { clientAuthMethod: 'private_key_jwt', jwks: jwksOf(key) };
    const token = await settingsToken(first);
    const stranger = await clientKey('ES256');
    const swapped = await w.owner
      .request('patch', appPath())
      .set(CONFIRMATION_HEADER, token)
      .send({ ...first, jwks: jwksOf(stranger) });
    expect(swapped.status).toBe(403);
    const unconfirmed = await w.owner.request('patch', appPath()).send(first);
    expect(unconfirmed.status).toBe(403);
    const done = await w.owner
      .request('patch', appPath())
      .set(CONFIRMATION_HEADER, token)
      .send(first);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      clientAuthMethod: 'private_key_jwt',
      jwks: jwksOf(key),
      jwksUri: null,
      clientSecret: null,
    });
    const clientId = await clientIdOf(w.applicationId);
    expect(await authenticates(clientId)).toBe(true);
    // The secret it had stops working at once.
    const secret = await probeTokenEndpoint(t.app, {}, basic(clientId, w.clientSecret));
    expect([secret.status, secret.body.error]).toEqual([401, 'invalid_client']);

    // Rotating the keys is a client setting too: confirmed, and bound to the new value.
    const rotated = await clientKey('EdDSA');
    const rotation = { jwks: jwksOf(rotated) };
    expect((await w.owner.request('patch', appPath()).send(rotation)).status).toBe(403);
    const uriToken = await settingsToken({ jwksUri: 'https://keys.example/jwks.json' });
    expect(
      (await w.owner.request('patch', appPath()).set(CONFIRMATION_HEADER, uriToken).send(rotation))
        .status,
    ).toBe(403);
    const rotatedOk = await w.owner
      .request('patch', appPath())
      .set(CONFIRMATION_HEADER, await settingsToken(rotation))
      .send(rotation);
    expect(rotatedOk.status).toBe(200);
    expect(await authenticates(clientId, rotated)).toBe(true);
    expect(await authenticates(clientId)).toBe(false);
    // The same keys sent again change nothing and need no confirmation.
    expect((await w.owner.request('patch', appPath()).send(rotation)).status).toBe(200);
    const audit = await w.owner.request('get', `${appPath()}/audit-log`).expect(200);
    const actions = (audit.body as { entries: { action: string; details: object }[] }).entries;
    expect(actions.filter((entry) => entry.action === 'application.client_keys.update')).toEqual([
      expect.objectContaining({ details: { jwksKeys: [rotated.kid] } }),
      expect.objectContaining({ details: { jwksKeys: [key.kid] } }),
    ]);
  });

  it('sets the method and the keys from the CLI: a JWKS file or a jwks_uri', async () => {
    const commands = t.app.get(AdminCommands);
    const run = (argv: string[]) =>
      runCommand([...argv, '--json'], () => Promise.resolve(commands));
    const dir = mkdtempSync(join(tmpdir(), 'jwks-'));
    try {
      const file = join(dir, 'jwks.json');
      writeFileSync(file, JSON.stringify(jwksOf(key)));
      const created = await run([
        'app',
        'create',
        '--name',
        'Cli keyed',
        '--redirect-uri',
        'https://cli.example/cb',
        '--auth-method',
        'private_key_jwt',
        '--jwks',
        file,
      ]);
      expect(created.exitCode).toBe(0);
      const app = JSON.parse(created.stdout) as { id: number; clientId: string };
      expect(app).toMatchObject({
        clientSecret: null,
        clientAuthMethod: 'private_key_jwt',
        jwksUri: null,
        keys: [key.kid],
      });
      expect(await authenticates(app.clientId)).toBe(true);

      const rotated = await clientKey('PS256');
      writeFileSync(file, JSON.stringify(jwksOf(rotated)));
      // Handed to a running service, the file travels as its content.
      const argv = inlineJwksFile(['app', 'keys', String(app.id), '--jwks', file]);
      expect(argv[4]).toBe(JSON.stringify(jwksOf(rotated)));
      expect((await run(argv)).exitCode).toBe(0);
      expect(await authenticates(app.clientId, rotated)).toBe(true);

      const uri = await run([
        'app',
        'keys',
        String(app.id),
        '--jwks-uri',
        'https://keys.example/jwks.json',
      ]);
      expect(JSON.parse(uri.stdout)).toMatchObject({
        jwksUri: 'https://keys.example/jwks.json',
        keys: null,
      });

      const refused = await run([
        'app',
        'keys',
        String(app.id),
        '--jwks-uri',
        'http://keys.example/jwks.json',
      ]);
      expect([refused.exitCode, JSON.parse(refused.stdout).error]).toEqual([1, 'invalid_request']);
      writeFileSync(
        file,
        JSON.stringify({ keys: [await (await loadJose()).exportJWK(key.privateKey)] }),
      );
      const secret = await run(['app', 'keys', String(app.id), '--jwks', file]);
      expect(JSON.parse(secret.stdout).message).toContain('private or symmetric key material');
      const usage = await run(['app', 'keys', String(app.id)]);
      expect(usage.exitCode).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
