import jwt from 'jsonwebtoken';
import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t.close());

const login = (email: string, password = DEMO_PASSWORD) => t.http.post('/api/v1/auth/login').send({ email, password, device_name: 'jest' });
const me = (token: string) => t.http.get('/api/v1/auth/me').set('authorization', `Bearer ${token}`);

describe('login', () => {
  it('answers the auth envelope', async () => {
    const res = await login(DEMO_EMAILS.investor);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['user', 'access_token', 'refresh_token', 'token_type', 'expires_in']);
    expect(res.body.data.token_type).toBe('Bearer');
    expect(res.body.data.expires_in).toBe(t.config.accessTokenTtlSeconds);
    expect(res.body.data.user).toMatchObject({ email: DEMO_EMAILS.investor, role: 'investor' });
    expect(Object.keys(res.body.data.user)).toEqual(['id', 'name', 'email', 'phone', 'role', 'investor_id', 'created_at', 'updated_at']);
  });

  it('answers 422 for a wrong password or an unknown email, alike', async () => {
    const wrong = await login(DEMO_EMAILS.investor, 'nope');
    const unknown = await login('nobody@demo.test', 'nope');
    expect(wrong.status).toBe(422);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.errors).toHaveProperty('email');
  });

  it('validates the body', async () => {
    const missing = await t.http.post('/api/v1/auth/login').send({});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ email: ['The email field is required.'], password: ['The password field is required.'] });
    const malformed = await t.http.post('/api/v1/auth/login').send({ email: 'not-an-email', password: 'x' });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors).toEqual({ email: ['The email field must be a valid email address.'] });
  });

  it('rate limits repeated attempts with 429 and the contract headers', async () => {
    const limited = await startTestGateway({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 4; i++) {
        last = await limited.http.post('/api/v1/auth/login').send({ email: DEMO_EMAILS.investor, password: 'wrong' });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([422, 422, 422, 429]);
      expect(last!.body).toEqual({ success: false, message: 'Too Many Attempts.' });
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
      expect(last!.headers['x-ratelimit-limit']).toBe('3');
      expect(last!.headers['x-ratelimit-remaining']).toBe('0');
      const gql = await limited.gql(`mutation { login(email: "${DEMO_EMAILS.investor}", password: "wrong") { accessToken } }`);
      expect(gql.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});

describe('register', () => {
  it('creates an investor (201) who can use the token at once', async () => {
    const res = await t.http
      .post('/api/v1/auth/register')
      .send({ name: 'New Person', email: 'New.Person@Example.com', password: 'Secret123', password_confirmation: 'Secret123', phone: '+441234567' });
    expect(res.status).toBe(201);
    expect(res.body.data.user).toMatchObject({ email: 'new.person@example.com', role: 'investor', phone: '+441234567' });
    expect(res.body.data.user.investor_id).toEqual(expect.any(Number));
    const who = await me(res.body.data.access_token);
    expect(who.body.data.email).toBe('new.person@example.com');
    const stored = await t.db.prisma.user.findUniqueOrThrow({ where: { email: 'new.person@example.com' } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('rejects a taken email, a weak password and a confirmation mismatch, writing nothing', async () => {
    const before = await t.db.prisma.user.count();
    const taken = await t.http
      .post('/api/v1/auth/register')
      .send({ name: 'X', email: DEMO_EMAILS.investor, password: 'Secret123', password_confirmation: 'Different1' });
    expect(taken.status).toBe(422);
    expect(Object.keys(taken.body.errors).sort()).toEqual(['email', 'password']);
    const weak = await t.http.post('/api/v1/auth/register').send({ name: 'X', email: 'weak@example.com', password: 'short', password_confirmation: 'short' });
    expect(weak.status).toBe(422);
    expect(weak.body.errors).toHaveProperty('password');
    expect(await t.db.prisma.user.count()).toBe(before);
  });
});

describe('access tokens', () => {
  it('rejects tampered, expired, alg:none and foreign-secret tokens with 401', async () => {
    const good = (await login(DEMO_EMAILS.investor)).body.data.access_token as string;
    const claims = jwt.decode(good) as Record<string, unknown>;
    const [h, p, s] = good.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url')}.${s}`;
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, t.config.jwtSecret, { algorithm: 'HS256' });
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
    const foreign = jwt.sign({ sub: claims.sub, sid: claims.sid, role: claims.role }, 'another-secret', { algorithm: 'HS256' });
    for (const token of [tampered, expired, none, foreign, 'garbage']) {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
    }
    expect((await me(good)).status).toBe(200);
  });

  it('refuses a token it has accepted before from the second its exp names (verified tokens are kept, their expiry is not)', async () => {
    const token = (await login(DEMO_EMAILS.investor)).body.data.access_token as string;
    const { exp } = jwt.decode(token) as { exp: number };
    expect((await t.services.auth.identify(token)).user).not.toBeNull();
    const now = jest.spyOn(Date, 'now').mockReturnValue(exp * 1000 - 1);
    try {
      expect((await t.services.auth.identify(token)).user).not.toBeNull();
      now.mockReturnValue(exp * 1000);
      expect(await t.services.auth.identify(token)).toEqual({ user: null, failure: 'TOKEN_EXPIRED' });
    } finally {
      now.mockRestore();
    }
    expect((await me(token)).status).toBe(200);
  });

  it('answers UNAUTHENTICATED on GraphQL for a bad token', async () => {
    const res = await t.gql('{ me { id } }', {}, 'garbage');
    expect(res.errors?.[0]).toMatchObject({ message: 'Unauthenticated.', extensions: { code: 'UNAUTHENTICATED' } });
  });
});

describe('why a token was refused (RFC 6750 on REST, extensions.reason on GraphQL)', () => {
  /** A token of each kind; the body stays the contract's, only the header and the reason tell them apart. */
  async function refusedTokens() {
    const good = (await login(DEMO_EMAILS.investor)).body.data.access_token as string;
    const claims = jwt.decode(good) as Record<string, unknown>;
    const [, p, s] = good.split('.');
    const revoked = (await login(DEMO_EMAILS.investor)).body.data.access_token as string;
    expect((await t.http.post('/api/v1/auth/logout').set('authorization', `Bearer ${revoked}`)).status).toBe(200);
    return {
      TOKEN_EXPIRED: jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, t.config.jwtSecret, { algorithm: 'HS256' }),
      SESSION_REVOKED: revoked,
      TOKEN_INVALID: [
        // A forged expired token is invalid, not expired: the signature is checked first.
        jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, 'another-secret-of-at-least-32-characters', { algorithm: 'HS256' }),
        `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`,
        `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"1"}').toString('base64url')}.${s}`,
        'garbage',
      ],
    };
  }

  it('REST: 401 with the unchanged body and WWW-Authenticate: Bearer error="invalid_token" and a description per reason', async () => {
    const tokens = await refusedTokens();
    const descriptions = new Map<string, string>();
    for (const [reason, list] of Object.entries(tokens)) {
      for (const token of [list].flat()) {
        const res = await me(token);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
        const challenge = /^Bearer error="invalid_token", error_description="([ -!#-[\]-~]+)"$/.exec(res.headers['www-authenticate'] ?? '');
        expect(challenge).not.toBeNull();
        descriptions.set(reason, challenge![1]);
      }
    }
    expect(new Set(descriptions.values()).size).toBe(3);
    expect(descriptions.get('TOKEN_EXPIRED')).toMatch(/refresh/);
    // No token at all: a bare challenge, no error code (RFC 6750 §3.1).
    const guest = await t.http.get('/api/v1/auth/me');
    expect(guest.status).toBe(401);
    expect(guest.headers['www-authenticate']).toBe('Bearer');
  });

  it('GraphQL: UNAUTHENTICATED with extensions.reason TOKEN_EXPIRED, SESSION_REVOKED or TOKEN_INVALID; none without a token', async () => {
    const tokens = await refusedTokens();
    for (const [reason, list] of Object.entries(tokens)) {
      for (const token of [list].flat()) {
        const res = await t.gql('{ me { id } }', {}, token);
        expect(res.errors?.[0]).toMatchObject({ message: 'Unauthenticated.', extensions: { code: 'UNAUTHENTICATED', reason } });
      }
    }
    const guest = await t.gql('{ me { id } }');
    expect(guest.errors?.[0].extensions).toEqual({ code: 'UNAUTHENTICATED' });
  });
});

describe('logout and refresh', () => {
  it('logout makes the access and the refresh token unusable at once', async () => {
    const { access_token, refresh_token } = (await login(DEMO_EMAILS.investor)).body.data;
    const out = await t.http.post('/api/v1/auth/logout').set('authorization', `Bearer ${access_token}`);
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true, data: [], message: 'Logged out successfully.' });
    expect((await me(access_token)).status).toBe(401);
    expect((await t.http.post('/api/v1/auth/refresh').send({ refresh_token })).status).toBe(401);
  });

  it('logout of one session leaves the others working', async () => {
    const a = (await login(DEMO_EMAILS.investor)).body.data.access_token;
    const b = (await login(DEMO_EMAILS.investor)).body.data.access_token;
    await t.http.post('/api/v1/auth/logout').set('authorization', `Bearer ${a}`);
    expect((await me(b)).status).toBe(200);
  });

  it('rotates the refresh token on every use', async () => {
    const first = (await login(DEMO_EMAILS.investor)).body.data;
    const res = await t.http.post('/api/v1/auth/refresh').send({ refresh_token: first.refresh_token });
    expect(res.status).toBe(200);
    expect(res.body.data.refresh_token).not.toBe(first.refresh_token);
    expect((await me(res.body.data.access_token)).status).toBe(200);
    const again = await t.http.post('/api/v1/auth/refresh').send({ refresh_token: res.body.data.refresh_token });
    expect(again.status).toBe(200);
  });

  it('treats reuse of an old refresh token as theft: the whole session is revoked', async () => {
    const first = (await login(DEMO_EMAILS.investor)).body.data;
    const second = (await t.http.post('/api/v1/auth/refresh').send({ refresh_token: first.refresh_token })).body.data;
    const reuse = await t.http.post('/api/v1/auth/refresh').send({ refresh_token: first.refresh_token });
    expect(reuse.status).toBe(401);
    expect((await t.http.post('/api/v1/auth/refresh').send({ refresh_token: second.refresh_token })).status).toBe(401);
    expect((await me(second.access_token)).status).toBe(401);
  });

  it('stores refresh tokens hashed, never as given', async () => {
    const { refresh_token } = (await login(DEMO_EMAILS.investor)).body.data;
    expect(await t.db.prisma.refreshToken.count({ where: { tokenHash: refresh_token } })).toBe(0);
  });

  it('rejects a missing or unknown refresh token', async () => {
    expect((await t.http.post('/api/v1/auth/refresh').send({})).status).toBe(422);
    expect((await t.http.post('/api/v1/auth/refresh').send({ refresh_token: 'unknown' })).status).toBe(401);
  });
});

describe('the session read (a prepared statement past Prisma)', () => {
  /** What the read answered when it was Prisma's model read. */
  const viaPrisma = async (sessionId: string) => {
    if (!/^[0-9a-f-]{36}$/i.test(sessionId)) return null;
    const s = await t.db.prisma.session.findUnique({
      where: { id: sessionId },
      select: { revokedAt: true, expiresAt: true, user: { select: { id: true, role: true, deletedAt: true, investor: { select: { id: true } } } } },
    });
    if (!s || s.revokedAt || s.expiresAt <= new Date() || s.user.deletedAt) return null;
    return { id: s.user.id, role: s.user.role, investorId: s.user.investor?.id ?? null, sessionId };
  };

  it('answers what the model read answers for live, revoked, expired, deleted-user and unknown sessions', async () => {
    const newest = async (email: string, take: number) => {
      const { id } = await t.db.prisma.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
      return (await t.db.prisma.session.findMany({ where: { userId: id }, orderBy: { createdAt: 'desc' }, take, select: { id: true } })).map((s) => s.id);
    };
    for (let i = 0; i < 3; i++) expect((await login(DEMO_EMAILS.investor)).status).toBe(200);
    expect((await login(DEMO_EMAILS.admin)).status).toBe(200);
    const email = 'session-read@example.test';
    const registered = await t.http
      .post('/api/v1/auth/register')
      .send({ name: 'Session Read', email, password: 'Password123!', password_confirmation: 'Password123!' });
    expect(registered.status).toBe(201);
    const [live, revoked, expired] = await newest(DEMO_EMAILS.investor, 3);
    const [ofAdmin] = await newest(DEMO_EMAILS.admin, 1);
    const [ofDeleted] = await newest(email, 1);
    await t.db.prisma.session.update({ where: { id: revoked }, data: { revokedAt: new Date() } });
    await t.db.prisma.session.update({ where: { id: expired }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await t.db.prisma.user.update({ where: { email }, data: { deletedAt: new Date() } });

    const ids = [live, ofAdmin, revoked, expired, ofDeleted, '00000000-0000-4000-8000-000000000000', 'not-a-uuid'];
    const ours = await Promise.all(ids.map((id) => t.services.auth.sessionUser(id)));
    for (const [i, id] of ids.entries()) expect(ours[i]).toEqual(await viaPrisma(id));
    expect(ours.map((u) => u && { role: u.role, hasInvestor: u.investorId !== null })).toEqual([
      { role: 'INVESTOR', hasInvestor: true },
      { role: 'ADMIN', hasInvestor: false },
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
