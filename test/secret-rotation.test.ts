import { Readable } from 'node:stream';
import jwt from 'jsonwebtoken';
import { loadConfig } from '../src/platform/config';
import { createLogger } from '../src/platform/logger';
import { createServices } from '../src/services';
import { DownloadService } from '../src/services/download.service';
import { keyId, type SigningSecrets } from '../src/services/signing-keys';
import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';

const OLD = 'the-secret-being-rotated-out-0123456789';
const NEW = 'the-secret-being-rotated-in-9876543210';

// The gateway mid-rotation: signs with NEW, still accepts what OLD made (docs/operations.md).
let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD });
});
afterAll(() => t.close());

/** The same database's services under another configuration (an instance before or after the rotation). */
const servicesWith = (env: Record<string, string>) =>
  createServices(t.db, loadConfig({ NODE_ENV: 'test', AUTH_RATE_LIMIT_PER_MINUTE: '0', ...env }), createLogger('silent'));
const me = (token: string) => t.http.get('/api/v1/auth/me').set('authorization', `Bearer ${token}`);

describe('access tokens across a JWT_SECRET rotation', () => {
  it('a token made under the old secret works during the rotation and is refused once JWT_SECRET_PREVIOUS is removed', async () => {
    const before = servicesWith({ JWT_SECRET: OLD });
    const { accessToken } = await before.auth.login(DEMO_EMAILS.investor, DEMO_PASSWORD, '127.0.0.1');
    expect(jwt.decode(accessToken, { complete: true })?.header.kid).toBe(keyId(OLD));

    expect((await me(accessToken)).status).toBe(200);

    const after = servicesWith({ JWT_SECRET: NEW });
    expect(await after.auth.identify(accessToken)).toEqual({ user: null, failure: 'TOKEN_INVALID' });
  });

  it('new tokens are signed with the current secret and name it', async () => {
    const token = await t.token(DEMO_EMAILS.investor);
    expect(jwt.decode(token, { complete: true })?.header.kid).toBe(keyId(NEW));
    expect(() => jwt.verify(token, NEW, { algorithms: ['HS256'] })).not.toThrow();
    // After the rotation the token keeps working.
    expect((await servicesWith({ JWT_SECRET: NEW }).auth.identify(token)).user).not.toBeNull();
  });

  it('a kid that names neither secret is 401 TOKEN_INVALID, even with a valid signature', async () => {
    const good = jwt.decode(await t.token(DEMO_EMAILS.investor)) as Record<string, unknown>;
    const token = jwt.sign({ sub: good.sub, sid: good.sid, role: good.role }, NEW, { algorithm: 'HS256', keyid: 'no-such-key' });
    const res = await me(token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
    expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
  });
});

describe('download links across a JWT_SECRET rotation', () => {
  const links = (secrets: SigningSecrets) => {
    const service = new DownloadService(secrets, (sid) => t.services.auth.sessionUser(sid));
    service.register('note', async () => ({ fileName: 'note.txt', contentType: 'text/plain', stream: Readable.from(['hello']) }));
    return service;
  };

  it('a link made under the old secret opens during the rotation, not after; one naming no secret never does', async () => {
    const user = await t.services.auth.authenticate(await t.token(DEMO_EMAILS.investor));
    const before = links({ current: OLD });
    const path = await before.url(before.link(user!, 'note', {}, 'note.txt', 'text/plain'));
    const token = path.split('/').at(-1)!;

    expect((await links({ current: NEW, previous: OLD }).openToken(token)).fileName).toBe('note.txt');
    await expect(links({ current: NEW }).openToken(token)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Made under a third secret: its kid names neither key.
    const foreign = links({ current: 'a-third-secret-of-at-least-32-characters' });
    const foreignToken = (await foreign.url(foreign.link(user!, 'note', {}, 'note.txt', 'text/plain'))).split('/').at(-1)!;
    await expect(links({ current: NEW, previous: OLD }).openToken(foreignToken)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('JWT_SECRET_PREVIOUS configuration', () => {
  it('must differ from JWT_SECRET and, in production, be as strong', () => {
    expect(() => loadConfig({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: NEW })).toThrow('JWT_SECRET_PREVIOUS must differ from JWT_SECRET');
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: 'short' })).toThrow(
      'JWT_SECRET_PREVIOUS must be at least 32 characters',
    );
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: 'short' })).not.toThrow(/short/);
    expect(loadConfig({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD })).toMatchObject({ jwtSecret: NEW, jwtSecretPrevious: OLD });
  });
});
