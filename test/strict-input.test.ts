import { getMetadataStorage as getValidatorMetadata } from 'class-validator';
import { getMetadataStorage as getTypeGraphqlMetadata } from 'type-graphql';
import { NotificationType } from '../src/generated/prisma/enums';
import { MAX_JSON_DEPTH } from '../src/http/json-body';
import { DECIMAL_RULE, TEXT_RULE } from '../src/schema/rules';
import { DecimalScalar } from '../src/schema/scalars';
import { DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';

/** Issue 7 findings 6 (bad bytes were 500s) and 12 (REST bodies were not typed strictly). */
let t: TestGateway;
let investor: string;
beforeAll(async () => {
  t = await startTestGateway();
  investor = await t.token('investor@demo.test');
});
afterAll(() => t.close());

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
let seq = 0;
const newEmail = () => `strict-${process.pid}-${++seq}@example.test`;
const registration = (over: Record<string, unknown> = {}) => ({
  name: 'Strict Tester',
  email: newEmail(),
  password: DEMO_PASSWORD,
  password_confirmation: DEMO_PASSWORD,
  ...over,
});
const userCount = () => t.db.prisma.user.count();

function expectFieldError(res: { status: number; body: Record<string, unknown> }, field: string) {
  expect(res.status).toBe(422);
  expect(res.body).toMatchObject({ success: false, message: expect.any(String) });
  expect(Object.keys(res.body.errors as object)).toContain(field);
}

describe('bad bytes are 4xx, never 500 (finding 6)', () => {
  it('answers 404 Resource not found for a malformed %-escape in a path id, after authentication', async () => {
    for (const path of ['/api/v1/public/units/%E0%A4%A', '/api/v1/public/categories/%', '/api/v1/public/units/%ZZ']) {
      const res = await t.http.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Resource not found.' });
    }
    expect((await t.http.get('/api/v1/units/%E0%A4%A')).status).toBe(401);
    const mine = await t.http.post('/api/v1/notifications/%E0%A4%A/read').set(auth(investor));
    expect(mine.status).toBe(404);
    expect(mine.body).toEqual({ success: false, message: 'Resource not found.' });
  });

  it('answers 404 for a malformed %-escape in a download token (decoded by express)', async () => {
    const res = await t.http.get('/api/v1/downloads/%E0%A4%A');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Resource not found.' });
  });

  it('refuses a NUL byte in a text field with a 422 for that field on REST, writing nothing', async () => {
    const before = await userCount();
    const res = await t.http.post('/api/v1/auth/register').send(registration({ name: 'Nul\u0000Name' }));
    expectFieldError(res, 'name');
    expect(res.body.errors.name).toEqual(['The name field must not contain NUL characters.']);
    expect(await userCount()).toBe(before);

    const profile = await t.http.put('/api/v1/auth/me').set(auth(investor)).send({ name: 'a\u0000b' });
    expectFieldError(profile, 'name');
    const login = await t.http.post('/api/v1/auth/login').send({ email: 'investor@demo.test\u0000', password: DEMO_PASSWORD });
    expectFieldError(login, 'email');
  });

  it('refuses a NUL byte in a text field on GraphQL (variables and literals) with BAD_USER_INPUT', async () => {
    const mutation = 'mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { name } }';
    const viaVariable = await t.gql(mutation, { input: { name: 'a\u0000b' } }, investor);
    expect(viaVariable.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { name: ['The name field must not contain NUL characters.'] } });
    const viaLiteral = await t.gql('mutation { updateProfile(input: { name: "a\\u0000b" }) { name } }', {}, investor);
    expect(viaLiteral.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { name: ['The name field must not contain NUL characters.'] } });
    const me = await t.http.get('/api/v1/auth/me').set(auth(investor));
    expect(me.body.data.name).not.toContain('\u0000');
  });

  it('refuses a lone UTF-16 surrogate with a 422 (text must be valid UTF-8) on both faces', async () => {
    const raw = await t.http.post('/api/v1/auth/login').set('content-type', 'application/json').send('{"email":"\\ud800","password":"x"}');
    expectFieldError(raw, 'email');
    expect(raw.body.errors.email).toEqual(['The email field must be valid UTF-8 text.']);
    const before = await userCount();
    const reg = await t.http
      .post('/api/v1/auth/register')
      .set('content-type', 'application/json')
      .send(JSON.stringify(registration()).replace('Strict Tester', 'Bad \\udc00 name'));
    expectFieldError(reg, 'name');
    expect(await userCount()).toBe(before);
    const gql = await t.gql('mutation($email: String!) { forgotPassword(email: $email) }', { email: '\ud800@example.test' });
    expect(gql.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { email: ['The email field must be valid UTF-8 text.'] } });
  });

  it('answers 415 for a JSON body in another charset, on both faces', async () => {
    const rest = await t.http.post('/api/v1/auth/login').set('content-type', 'application/json; charset=latin1').send('{"email":"a@b.c","password":"x"}');
    expect(rest.status).toBe(415);
    expect(rest.body).toEqual({ success: false, message: 'Unsupported media type.' });
    const gql = await t.http.post('/graphql').set('content-type', 'application/json; charset=latin1').send('{"query":"{ __typename }"}');
    expect(gql.status).toBe(415);
    expect(gql.body.errors[0]).toMatchObject({ message: 'Unsupported media type.', extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });

  it('answers 415 for a non-JSON content type with a body on a JSON route, and accepts an empty body', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await t.http.post('/api/v1/auth/login').set('content-type', type).send('email=a@b.c&password=x');
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ success: false, message: 'Unsupported media type.' });
    }
    const session = await t.token('investor@demo.test');
    const empty = await t.http.post('/api/v1/auth/logout').set(auth(session)).set('content-type', 'text/plain');
    expect(empty.status).toBe(200);
  });

  it('answers exactly one 201 and otherwise 422 errors.email for 20 concurrent registrations of one email', async () => {
    const email = newEmail();
    const body = registration({ email });
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.http.post('/api/v1/auth/register').send(body)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const r of answers.filter((a) => a.status !== 201)) {
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ success: false, message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } });
    }
    expect(await t.db.prisma.user.count({ where: { email } })).toBe(1);
  });
});

describe('REST bodies are typed strictly (finding 12)', () => {
  it('refuses a number, boolean, array or object where text is expected, writing nothing', async () => {
    const before = await userCount();
    for (const name of [12345, true, ['a'], { first: 'a' }]) {
      const res = await t.http.post('/api/v1/auth/register').send(registration({ name }));
      expectFieldError(res, 'name');
      expect(res.body.errors.name).toEqual(['The name field must be a string.']);
    }
    expect(await userCount()).toBe(before);
  });

  it('refuses null and "" for a required field', async () => {
    for (const email of [null, '']) {
      const res = await t.http.post('/api/v1/auth/login').send({ email, password: DEMO_PASSWORD });
      expectFieldError(res, 'email');
      expect(res.body.errors.email).toEqual(['The email field is required.']);
    }
  });

  it('refuses a string, float, boolean, array or object where a number is expected', async () => {
    for (const unitId of ['1', 1.5, true, [1], { id: 1 }]) {
      const res = await t.http.post('/api/v1/category-memberships').set(auth(investor)).send({ category_id: unitId });
      expectFieldError(res, 'category_id');
      expect(res.body.errors.category_id).toEqual(['The category id field must be an integer.']);
    }
    for (const amount of ['1000', '1000.00', [1000], { value: 1000 }, true]) {
      const res = await t.http.post('/api/v1/investment-requests').set(auth(investor)).send({ unit_id: 1, amount });
      expectFieldError(res, 'amount');
      expect(res.body.errors.amount).toEqual(['The amount field must be a number.']);
    }
  });

  it('refuses a string where a boolean is expected and a number where an enum value is expected', async () => {
    const settings = await t.http.put('/api/v1/settings').set(auth(investor)).send({ notify_payouts: 'yes' });
    expectFieldError(settings, 'notify_payouts');
    expect(settings.body.errors.notify_payouts).toEqual(['The notify payouts field must be true or false.']);
    const token = await t.http.post('/api/v1/notifications/fcm-token').set(auth(investor)).send({ token: 'abc', platform: 1 });
    expectFieldError(token, 'platform');
  });

  it('still reads query strings as text: numbers and booleans in filters work', async () => {
    const res = await t.http.get('/api/v1/notifications?unread=true&per_page=5').set(auth(investor));
    expect(res.status).toBe(200);
    expect(res.body.meta.per_page).toBe(5);
  });

  it('bounds every password: 8..128 characters, refused before hashing', async () => {
    const huge = 'Aa1'.repeat(33_334);
    const reg = await t.http.post('/api/v1/auth/register').send(registration({ password: huge, password_confirmation: huge }));
    expectFieldError(reg, 'password');
    expect(reg.body.errors.password).toEqual(['The password field must not be greater than 128 characters.']);
    const login = await t.http.post('/api/v1/auth/login').send({ email: 'investor@demo.test', password: huge });
    expectFieldError(login, 'password');
    const change = await t.http.put('/api/v1/auth/password').set(auth(investor)).send({ current_password: huge, password: huge, password_confirmation: huge });
    expect(change.status).toBe(422);
    expect(Object.keys(change.body.errors).sort()).toEqual(['current_password', 'password', 'password_confirmation']);
    const longest = `Aa1${'x'.repeat(125)}`;
    const ok = await t.http.post('/api/v1/auth/register').send(registration({ password: longest, password_confirmation: longest }));
    expect(ok.status).toBe(201);
  });

  it('bounds the length of every text field', async () => {
    const res = await t.http.post('/api/v1/auth/password/forgot').send({ email: `${'a'.repeat(300)}@example.test` });
    expectFieldError(res, 'email');
    const token = await t.http.post('/api/v1/auth/refresh').send({ refresh_token: 'x'.repeat(5000) });
    expectFieldError(token, 'refresh_token');
  });
});

describe('notification data on REST (finding 12)', () => {
  it('has snake_case keys at every depth and lower-case enum values; GraphQL keeps them as stored', async () => {
    const me = await t.http.get('/api/v1/auth/me').set(auth(investor));
    const note = await t.db.prisma.notification.create({
      data: {
        userId: me.body.data.id,
        type: NotificationType.INVESTMENT_REQUEST_REVIEWED,
        title: 'Reviewed',
        body: 'Your request was reviewed.',
        data: {
          investmentRequestId: 7,
          unitId: 3,
          status: 'APPROVED',
          period: '2026-Q1',
          detail: { documentType: 'NATIONAL_ID', previousStatuses: ['PENDING'] },
        },
      },
    });
    const res = await t.http.get(`/api/v1/notifications/${note.id}`).set(auth(investor));
    expect(res.status).toBe(200);
    expect(res.body.data.type).toBe('investment_request_reviewed');
    expect(res.body.data.data).toEqual({
      investment_request_id: 7,
      unit_id: 3,
      status: 'approved',
      period: '2026-Q1',
      detail: { document_type: 'national_id', previous_statuses: ['pending'] },
    });
    const gql = await t.gql<{ notification: { data: unknown } }>(`{ notification(id: ${note.id}) { data } }`, {}, investor);
    expect(gql.data?.notification.data).toEqual(note.data);
  });
});

describe('every text and Decimal input is bounded', () => {
  it('carries the text rule (UTF-8, no NUL, a maximum length) on every String field of every input and args type', () => {
    const graphql = getTypeGraphqlMetadata();
    const inputs = new Set([...graphql.inputTypes, ...graphql.argumentTypes].map((t) => t.target));
    const textFields = graphql.fields.filter((f) => inputs.has(f.target) && f.getType() === String);
    expect(textFields.length).toBeGreaterThan(30);
    const missing = textFields.filter(
      (f) =>
        !getValidatorMetadata()
          .getTargetValidationMetadatas(f.target, '', true, false)
          .some((v) => v.propertyName === f.name && v.name === TEXT_RULE),
    );
    expect(missing.map((f) => `${f.target.name}.${f.name}`)).toEqual([]);
  });

  it('carries a Decimal rule (a range, decimal places or a money bound) on every Decimal field of every input and args type', () => {
    const graphql = getTypeGraphqlMetadata();
    const inputs = new Set([...graphql.inputTypes, ...graphql.argumentTypes].map((t) => t.target));
    const decimalFields = graphql.fields.filter((f) => inputs.has(f.target) && f.getType() === DecimalScalar);
    expect(decimalFields.length).toBeGreaterThanOrEqual(16);
    const missing = decimalFields.filter(
      (f) =>
        !getValidatorMetadata()
          .getTargetValidationMetadatas(f.target, '', true, false)
          .some((v) => v.propertyName === f.name && v.name === DECIMAL_RULE),
    );
    expect(missing.map((f) => `${f.target.name}.${f.name}`)).toEqual([]);
  });
});

describe('a refused body does not stall the connection', () => {
  it('answers 415 to a large chunked text body and keeps serving', async () => {
    const { Readable } = await import('node:stream');
    const chunks = Array.from({ length: 64 }, () => 'x'.repeat(16 * 1024));
    const req = t.http.post('/api/v1/auth/login').set('content-type', 'text/plain');
    const res = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      req.on('response', resolve).on('error', reject);
      Readable.from(chunks).pipe(req as unknown as NodeJS.WritableStream);
    });
    expect(res.status).toBe(415);
    expect((await t.http.get('/api/v1/public/categories')).status).toBe(200);
  });
});

describe('JSON nesting is bounded on both faces (issue 22, finding 8)', () => {
  const nested = (depth: number) => `${'['.repeat(depth - 1)}{"a":"]"}${']'.repeat(depth - 1)}`;
  const deepBody = (depth: number) => JSON.stringify(registration()).replace(/}$/, `,"extra":${nested(depth)}}`);

  it('a register body with an Idempotency-Key and a key nested 12 000 arrays deep: 400, nothing written', async () => {
    const users = await userCount();
    const res = await t.http.post('/api/v1/auth/register').set('content-type', 'application/json').set('idempotency-key', 'x').send(deepBody(12_000));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels.` });
    expect(await userCount()).toBe(users);
    // The body object itself is a level: extra at MAX_JSON_DEPTH - 1 is MAX_JSON_DEPTH in all, and accepted.
    const atLimit = await t.http
      .post('/api/v1/auth/register')
      .set('content-type', 'application/json')
      .set('idempotency-key', `deep-${process.pid}`)
      .send(deepBody(MAX_JSON_DEPTH - 1));
    expect(atLimit.status).toBe(201);
    const over = await t.http.post('/api/v1/auth/register').set('content-type', 'application/json').send(deepBody(MAX_JSON_DEPTH));
    expect(over.status).toBe(400);
  });

  it('GraphQL variables nested too deeply, in a body or in a GET query string: 400 BAD_REQUEST', async () => {
    const query = 'query ($v: Boolean! = true) { __typename @include(if: $v) }';
    const body = `{"query":${JSON.stringify(query)},"variables":{"deep":${nested(5_000)}}}`;
    const posted = await t.http.post('/graphql').set('content-type', 'application/json').send(body);
    expect(posted.status).toBe(400);
    expect(posted.body.errors).toEqual([
      { message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels.`, extensions: { code: 'BAD_REQUEST', maxDepth: MAX_JSON_DEPTH } },
    ]);
    const got = await t.http
      .get('/graphql')
      .set('apollo-require-preflight', 'true')
      .query({ query, variables: `{"deep":${nested(1_000)}}` });
    expect(got.status).toBe(400);
    expect(got.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    const fine = await t.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .send({ query, variables: { v: true } });
    expect(fine.body).toEqual({ data: { __typename: 'Query' } });
  });
});
