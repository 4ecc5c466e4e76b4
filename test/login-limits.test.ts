import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';

/** Logins through either face, from a chosen client IP (TRUST_PROXY: X-Forwarded-For names the client). */
function loginAs(t: TestGateway) {
  return {
    async rest(email: string, password: string, ip = '203.0.113.1') {
      return t.http.post('/api/v1/auth/login').set('x-forwarded-for', ip).send({ email, password });
    },
    async graphql(email: string, password: string, ip = '203.0.113.1') {
      const res = await t.http.post('/graphql').set('content-type', 'application/json').set('x-forwarded-for', ip).send({
        query: 'mutation ($email: String!, $password: String!) { login(email: $email, password: $password) { accessToken } }',
        variables: { email, password },
      });
      return res.body as { data?: unknown; errors?: Array<{ extensions: { code: string; retryAfter?: number } }> };
    },
  };
}

async function withGateway(env: Record<string, string>, run: (t: TestGateway) => Promise<void>) {
  const t = await startTestGateway({ TRUST_PROXY: 'true', ...env });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

const emails = (n: number) => Array.from({ length: n }, (_, i) => `sprayed${i}@example.com`);

describe('password spraying (one client, many emails)', () => {
  it('40 emails from one client: the per-client minute limit answers 429 after 10, on both faces', () =>
    withGateway({ AUTH_RATE_LIMIT_PER_MINUTE: '10' }, async (t) => {
      const login = loginAs(t);
      const statuses: number[] = [];
      let last;
      for (const email of emails(40)) {
        last = await login.rest(email, 'Guess1234!');
        statuses.push(last.status);
      }
      expect(statuses).toEqual([...Array(10).fill(422), ...Array(30).fill(429)]);
      expect(last!.body).toEqual({ success: false, message: 'Too Many Attempts.' });
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
      expect(last!.headers['x-ratelimit-limit']).toBe('10');
      expect(last!.headers['x-ratelimit-remaining']).toBe('0');
      expect((await login.graphql('another@example.com', 'Guess1234!')).errors?.[0].extensions.code).toBe('RATE_LIMITED');
      // Another client is not affected.
      expect((await login.rest(DEMO_EMAILS.investor, DEMO_PASSWORD, '203.0.113.2')).status).toBe(200);
    }));

  it('a slow spray is stopped by the failures-per-client-per-day limit, which then blocks even a right password', () =>
    withGateway({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', LOGIN_FAILS_PER_IP_PER_DAY: '5' }, async (t) => {
      const login = loginAs(t);
      const statuses = [];
      for (const email of emails(6)) statuses.push((await login.rest(email, 'Guess1234!')).status);
      expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
      const blocked = await login.rest(DEMO_EMAILS.investor, DEMO_PASSWORD);
      expect(blocked.status).toBe(429);
      expect(blocked.headers['x-ratelimit-limit']).toBe('5');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(23 * 3600);
      expect((await login.graphql(DEMO_EMAILS.investor, DEMO_PASSWORD)).errors?.[0].extensions.code).toBe('RATE_LIMITED');
    }));
});

describe('one account attacked from many clients', () => {
  it('failures per account are counted across client IPs and faces; other accounts are untouched', () =>
    withGateway({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', LOGIN_FAILS_PER_ACCOUNT_PER_HOUR: '5' }, async (t) => {
      const login = loginAs(t);
      const outcomes = [];
      for (let i = 1; i <= 5; i++) {
        outcomes.push(
          i % 2
            ? (await login.rest(DEMO_EMAILS.investor, 'Guess1234!', `198.51.100.${i}`)).status
            : (await login.graphql(DEMO_EMAILS.investor, 'Guess1234!', `198.51.100.${i}`)).errors?.[0].extensions.code,
        );
      }
      expect(outcomes).toEqual([422, 'BAD_USER_INPUT', 422, 'BAD_USER_INPUT', 422]);
      const sixth = await login.rest(DEMO_EMAILS.investor, 'Guess1234!', '198.51.100.6');
      expect(sixth.status).toBe(429);
      expect(sixth.headers['x-ratelimit-limit']).toBe('5');
      expect((await login.graphql(DEMO_EMAILS.investor, 'Guess1234!', '198.51.100.7')).errors?.[0].extensions.code).toBe('RATE_LIMITED');
      expect((await login.rest(DEMO_EMAILS.admin, DEMO_PASSWORD, '198.51.100.6')).status).toBe(200);
    }));

  it("consecutive failures block one (email, client) pair; a success clears them, and the owner's other clients still log in", () =>
    withGateway({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', LOGIN_CONSECUTIVE_FAILS: '3' }, async (t) => {
      const login = loginAs(t);
      const attacker = '192.0.2.66';
      const statuses = async (passwords: string[], ip: string) => {
        const out = [];
        for (const password of passwords) out.push((await login.rest(DEMO_EMAILS.investor, password, ip)).status);
        return out;
      };
      // Two typos, then the right password: the count starts again.
      expect(await statuses(['Typo1234!', 'Typo1234!', DEMO_PASSWORD, 'Typo1234!', 'Typo1234!', 'Typo1234!'], attacker)).toEqual([
        422, 422, 200, 422, 422, 422,
      ]);
      expect(await statuses(['Typo1234!', DEMO_PASSWORD], attacker)).toEqual([429, 429]);
      expect(await statuses([DEMO_PASSWORD], '192.0.2.10')).toEqual([200]);
    }));
});
