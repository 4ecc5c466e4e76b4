import { sha256 } from '../src/services/auth.service';
import type { MailMessage } from '../src/services/mailer';
import { hashPassword } from '../src/domain/password';
import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t.close());

const NEW_PASSWORD = 'Changed456';
const FORGOT_MESSAGE = 'If that email is registered, a reset link has been sent.';

let counter = 0;
interface Account {
  id: number;
  investorId: number;
  email: string;
  access: string;
  refresh: string;
}

/** A fresh investor (no holdings, no requests), so each test owns its account. */
async function newAccount(): Promise<Account> {
  const email = `account-${++counter}@example.com`;
  const res = await t.http
    .post('/api/v1/auth/register')
    .send({ name: `Account ${counter}`, email, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD });
  expect(res.status).toBe(201);
  const { user, access_token, refresh_token } = res.body.data;
  return { id: user.id, investorId: user.investor_id, email, access: access_token, refresh: refresh_token };
}

const login = (email: string, password = DEMO_PASSWORD) => t.http.post('/api/v1/auth/login').send({ email, password });
const me = (token: string) => t.http.get('/api/v1/auth/me').set('authorization', `Bearer ${token}`);
const forgot = (body: object) => t.http.post('/api/v1/auth/password/forgot').send(body);
const reset = (body: object) => t.http.post('/api/v1/auth/password/reset').send(body);
const changePassword = (body: object, token: string) => t.http.put('/api/v1/auth/password').set('authorization', `Bearer ${token}`).send(body);
const updateProfile = (body: object, token: string) => t.http.put('/api/v1/auth/me').set('authorization', `Bearer ${token}`).send(body);
const deleteAccount = (body: object, token: string) => t.http.delete('/api/v1/auth/me').set('authorization', `Bearer ${token}`).send(body);

/** Requests a reset through REST and returns the token from the message the mailer was given. */
async function resetToken(email: string): Promise<string> {
  const spy = jest.spyOn(t.services.mailer, 'send');
  try {
    expect((await forgot({ email })).status).toBe(200);
    expect(spy).toHaveBeenCalledTimes(1);
    const message = spy.mock.calls[0][0] as MailMessage;
    expect(message.to).toBe(email);
    return /Token: (\S+)/.exec(message.text)![1];
  } finally {
    spy.mockRestore();
  }
}

describe('POST /api/v1/auth/password/forgot', () => {
  it('sends a single-use token by mail and stores only its hash, valid for 60 minutes', async () => {
    const account = await newAccount();
    const before = Date.now();
    const token = await resetToken(account.email);
    const rows = await t.db.prisma.passwordReset.findMany({ where: { userId: account.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(sha256(token));
    expect(rows[0].tokenHash).not.toBe(token);
    expect(rows[0].usedAt).toBeNull();
    const ttl = rows[0].expiresAt.getTime() - before;
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(61 * 60_000);
  });

  it('answers the same for an unknown email, sending nothing and writing nothing', async () => {
    const account = await newAccount();
    const spy = jest.spyOn(t.services.mailer, 'send');
    const known = await forgot({ email: account.email.toUpperCase() });
    const before = await t.db.prisma.passwordReset.count();
    const unknown = await forgot({ email: 'nobody-here@example.com' });
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ success: true, data: [], message: FORGOT_MESSAGE });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(await t.db.prisma.passwordReset.count()).toBe(before);
  });

  it('answers alike when the mail transport fails', async () => {
    const account = await newAccount();
    const spy = jest.spyOn(t.services.mailer, 'send').mockRejectedValueOnce(new Error('SMTP down'));
    const res = await forgot({ email: account.email });
    spy.mockRestore();
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(FORGOT_MESSAGE);
  });

  it('invalidates the earlier token when a new one is requested', async () => {
    const account = await newAccount();
    const first = await resetToken(account.email);
    const second = await resetToken(account.email);
    const old = await reset({ email: account.email, token: first, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(old.status).toBe(422);
    expect(old.body.errors).toEqual({ token: ['This password reset token is invalid.'] });
    const fresh = await reset({ email: account.email, token: second, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(fresh.status).toBe(200);
  });

  it('validates the email', async () => {
    const missing = await forgot({});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ email: ['The email field is required.'] });
    const malformed = await forgot({ email: 'not-an-email' });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors).toEqual({ email: ['The email field must be a valid email address.'] });
  });

  it('is rate limited like login (429 on both faces), as are resets and password checks', async () => {
    const limited = await startTestGateway({ AUTH_RATE_LIMIT_PER_MINUTE: '2' });
    const thrice = async (send: () => Promise<{ status: number }>) => [(await send()).status, (await send()).status, (await send()).status];
    try {
      expect(await thrice(() => limited.http.post('/api/v1/auth/password/forgot').send({ email: DEMO_EMAILS.investor }))).toEqual([200, 200, 429]);
      const gql = await limited.gql(`mutation { forgotPassword(email: "${DEMO_EMAILS.investor}") }`);
      expect(gql.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
      const badReset = { email: DEMO_EMAILS.investor, token: 'guess', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
      expect(await thrice(() => limited.http.post('/api/v1/auth/password/reset').send(badReset))).toEqual([422, 422, 429]);
      const token = await limited.token(DEMO_EMAILS.investor);
      const guess = { current_password: 'Guess1234', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
      expect(await thrice(() => limited.http.put('/api/v1/auth/password').set('authorization', `Bearer ${token}`).send(guess))).toEqual([422, 422, 429]);
    } finally {
      await limited.close();
    }
  });

  it('has a GraphQL counterpart answering true', async () => {
    const res = await t.gql('mutation { forgotPassword(email: "nobody-at-all@example.com") }');
    expect(res).toEqual({ data: { forgotPassword: true } });
  });
});

describe('POST /api/v1/auth/password/reset', () => {
  it('sets the password, uses up the token and ends every session', async () => {
    const account = await newAccount();
    const other = (await login(account.email)).body.data.access_token as string;
    const token = await resetToken(account.email);
    const res = await reset({ email: account.email, token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: [], message: 'Your password has been reset.' });
    expect((await me(account.access)).status).toBe(401);
    expect((await me(other)).status).toBe(401);
    expect((await t.http.post('/api/v1/auth/refresh').send({ refresh_token: account.refresh })).status).toBe(401);
    expect(await t.db.prisma.session.count({ where: { userId: account.id, revokedAt: null } })).toBe(0);
    expect((await login(account.email)).status).toBe(422);
    expect((await login(account.email, NEW_PASSWORD)).status).toBe(200);
    const row = await t.db.prisma.passwordReset.findUniqueOrThrow({ where: { tokenHash: sha256(token) } });
    expect(row.usedAt).not.toBeNull();
    const again = await reset({ email: account.email, token, password: 'Another789', password_confirmation: 'Another789' });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ token: ['This password reset token is invalid.'] });
  });

  it('refuses a token for another email, an expired token and an unknown token, changing nothing', async () => {
    const account = await newAccount();
    const stranger = await newAccount();
    const token = await resetToken(account.email);
    const hashBefore = (await t.db.prisma.user.findUniqueOrThrow({ where: { id: account.id } })).passwordHash;
    const body = { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
    const wrongEmail = await reset({ ...body, email: stranger.email, token });
    expect(wrongEmail.status).toBe(422);
    expect(wrongEmail.body).toEqual({
      success: false,
      message: 'This password reset token is invalid.',
      errors: { token: ['This password reset token is invalid.'] },
    });
    expect((await reset({ ...body, email: account.email, token: 'not-a-token' })).status).toBe(422);
    await t.db.prisma.passwordReset.updateMany({ where: { tokenHash: sha256(token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await reset({ ...body, email: account.email, token });
    expect(expired.status).toBe(422);
    expect(expired.body.errors).toHaveProperty('token');
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: account.id } })).passwordHash).toBe(hashBefore);
    expect((await me(account.access)).status).toBe(200);
    expect((await me(stranger.access)).status).toBe(200);
  });

  it('applies the register password rule and the confirmation', async () => {
    const account = await newAccount();
    const token = await resetToken(account.email);
    const missing = await reset({});
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['email', 'password', 'password_confirmation', 'token']);
    const weak = await reset({ email: account.email, token, password: 'short', password_confirmation: 'short' });
    expect(weak.status).toBe(422);
    expect(Object.keys(weak.body.errors)).toEqual(['password']);
    const mismatch = await reset({ email: account.email, token, password: NEW_PASSWORD, password_confirmation: 'Different1' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual({ password: ['The password field confirmation does not match.'] });
    // The token survives form errors.
    const ok = await reset({ email: account.email, token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(ok.status).toBe(200);
  });

  it('lets exactly one of two concurrent uses of a token win', async () => {
    const account = await newAccount();
    const token = await resetToken(account.email);
    const results = await Promise.all(
      ['First111', 'Second22'].map((password) => reset({ email: account.email, token, password, password_confirmation: password })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
  });

  it('has a GraphQL counterpart with per-field errors', async () => {
    const account = await newAccount();
    const bad = await t.gql('mutation ($input: ResetPasswordInput!) { resetPassword(input: $input) }', {
      input: { email: account.email, token: 'nope', password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD },
    });
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { token: ['This password reset token is invalid.'] } });
    const token = await resetToken(account.email);
    const ok = await t.gql('mutation ($input: ResetPasswordInput!) { resetPassword(input: $input) }', {
      input: { email: account.email, token, password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD },
    });
    expect(ok).toEqual({ data: { resetPassword: true } });
  });
});

describe('PUT /api/v1/auth/password', () => {
  it('changes the password, keeps this session and ends the others', async () => {
    const account = await newAccount();
    const other = (await login(account.email)).body.data.access_token as string;
    const res = await changePassword({ current_password: DEMO_PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD }, account.access);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: [], message: 'Your password has been changed.' });
    expect((await me(account.access)).status).toBe(200);
    expect((await t.http.post('/api/v1/auth/refresh').send({ refresh_token: account.refresh })).status).toBe(200);
    expect((await me(other)).status).toBe(401);
    expect((await login(account.email)).status).toBe(422);
    expect((await login(account.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('drops the device tokens of the ended sessions only', async () => {
    const account = await newAccount();
    const other = (await login(account.email)).body.data.access_token as string;
    const sessions = await t.db.prisma.session.findMany({ where: { userId: account.id }, orderBy: { createdAt: 'asc' } });
    await t.db.prisma.deviceToken.createMany({
      data: sessions.map((s, i) => ({ userId: account.id, sessionId: s.id, token: `device-${account.id}-${i}`, platform: 'IOS' as const })),
    });
    expect(
      (await changePassword({ current_password: DEMO_PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD }, account.access)).status,
    ).toBe(200);
    expect((await me(other)).status).toBe(401);
    const left = await t.db.prisma.deviceToken.findMany({ where: { userId: account.id } });
    expect(left.map((d) => d.sessionId)).toEqual([sessions[0].id]);
  });

  it('refuses a wrong current password (422 on current_password), changing nothing', async () => {
    const account = await newAccount();
    const other = (await login(account.email)).body.data.access_token as string;
    const res = await changePassword({ current_password: 'Wrong1234', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD }, account.access);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: 'The password is incorrect.', errors: { current_password: ['The password is incorrect.'] } });
    expect((await me(other)).status).toBe(200);
    expect((await login(account.email)).status).toBe(200);
  });

  it('validates the new password', async () => {
    const account = await newAccount();
    const missing = await changePassword({}, account.access);
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['current_password', 'password', 'password_confirmation']);
    const weak = await changePassword({ current_password: DEMO_PASSWORD, password: 'weakweak', password_confirmation: 'weakweak' }, account.access);
    expect(weak.status).toBe(422);
    expect(Object.keys(weak.body.errors)).toEqual(['password']);
    const mismatch = await changePassword({ current_password: DEMO_PASSWORD, password: NEW_PASSWORD, password_confirmation: 'Other1234' }, account.access);
    expect(mismatch.body.errors).toEqual({ password: ['The password field confirmation does not match.'] });
    const same = await changePassword({ current_password: DEMO_PASSWORD, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD }, account.access);
    expect(same.status).toBe(422);
    expect(same.body.errors).toEqual({ password: ['The password field and current password must be different.'] });
    expect((await login(account.email)).status).toBe(200);
  });

  it('needs a bearer token', async () => {
    const res = await t.http
      .put('/api/v1/auth/password')
      .send({ current_password: DEMO_PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
  });

  it('has a GraphQL counterpart', async () => {
    const account = await newAccount();
    const query = 'mutation ($input: ChangePasswordInput!) { changePassword(input: $input) }';
    const input = { currentPassword: DEMO_PASSWORD, password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD };
    expect((await t.gql(query, { input })).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(await t.gql(query, { input }, account.access)).toEqual({ data: { changePassword: true } });
  });
});

describe('PUT /api/v1/auth/me', () => {
  it('updates name and phone and answers the user as GET /auth/me does', async () => {
    const account = await newAccount();
    const res = await updateProfile({ name: '  Ana Sousa ', phone: '+351 911 222 333' }, account.access);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({ id: account.id, name: 'Ana Sousa', phone: '+351 911 222 333', email: account.email });
    const current = await me(account.access);
    expect(res.body.data).toEqual(current.body.data);
    const row = await t.db.prisma.user.findUniqueOrThrow({ where: { id: account.id } });
    expect([row.name, row.phone]).toEqual(['Ana Sousa', '+351 911 222 333']);
  });

  it('changes only the fields given; a null phone clears it', async () => {
    const account = await newAccount();
    await updateProfile({ name: 'Kept Name', phone: '+44 20 7946 0000' }, account.access);
    const phoneOnly = await updateProfile({ phone: '+44 20 7946 0001' }, account.access);
    expect(phoneOnly.body.data).toMatchObject({ name: 'Kept Name', phone: '+44 20 7946 0001' });
    const cleared = await updateProfile({ phone: null }, account.access);
    expect(cleared.body.data).toMatchObject({ name: 'Kept Name', phone: null });
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: account.id } })).phone).toBeNull();
  });

  it('validates the fields given, changing nothing', async () => {
    const account = await newAccount();
    const before = await t.db.prisma.user.findUniqueOrThrow({ where: { id: account.id } });
    const res = await updateProfile({ name: '   ', phone: '12' }, account.access);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ name: ['The name field is required.'], phone: ['The phone field must be between 6 and 32 characters.'] });
    expect(res.body.message).toBe('The name field is required. (and 1 more error)');
    const nullName = await updateProfile({ name: null }, account.access);
    expect(nullName.body.errors).toEqual({ name: ['The name field is required.'] });
    const long = await updateProfile({ name: 'x'.repeat(256) }, account.access);
    expect(long.body.errors).toEqual({ name: ['The name field must not be greater than 255 characters.'] });
    const after = await t.db.prisma.user.findUniqueOrThrow({ where: { id: account.id } });
    expect([after.name, after.phone, after.updatedAt]).toEqual([before.name, before.phone, before.updatedAt]);
  });

  it('needs a bearer token', async () => {
    expect((await t.http.put('/api/v1/auth/me').send({ name: 'X' })).status).toBe(401);
  });

  it('has a GraphQL counterpart', async () => {
    const account = await newAccount();
    const res = await t.gql(
      'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { id name phone } }',
      { input: { name: 'Via GraphQL' } },
      account.access,
    );
    expect(res).toEqual({ data: { updateProfile: { id: account.id, name: 'Via GraphQL', phone: null } } });
  });
});

describe('DELETE /api/v1/auth/me', () => {
  it('anonymises the user, deletes device tokens and ends every session', async () => {
    const account = await newAccount();
    const other = (await login(account.email)).body.data.access_token as string;
    await updateProfile({ phone: '+351 912 000 000' }, account.access);
    await t.db.prisma.investor.update({ where: { id: account.investorId }, data: { country: 'Portugal', city: 'Porto', dateOfBirth: new Date('1990-05-01') } });
    await t.db.prisma.deviceToken.create({ data: { userId: account.id, token: `delete-me-${account.id}`, platform: 'ANDROID' } });
    const res = await deleteAccount({ password: DEMO_PASSWORD }, account.access);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: [], message: 'Your account has been deleted.' });

    const row = await t.db.prisma.user.findUniqueOrThrow({ where: { id: account.id }, include: { investor: true } });
    expect(row).toMatchObject({ name: 'Deleted user', email: `deleted-${account.id}@invalid.local`, phone: null });
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect(row.passwordHash).not.toMatch(/^\$argon2/);
    expect(row.investor).toMatchObject({ country: null, city: null, dateOfBirth: null });
    expect(await t.db.prisma.deviceToken.count({ where: { userId: account.id } })).toBe(0);
    expect(await t.db.prisma.session.count({ where: { userId: account.id, revokedAt: null } })).toBe(0);
    expect((await me(account.access)).status).toBe(401);
    expect((await me(other)).status).toBe(401);
    expect((await t.http.post('/api/v1/auth/refresh').send({ refresh_token: account.refresh })).status).toBe(401);
    expect((await login(account.email)).status).toBe(422);
    // The address is free again, and a reset for it sends nothing.
    const spy = jest.spyOn(t.services.mailer, 'send');
    await forgot({ email: `deleted-${account.id}@invalid.local` });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    const again = await t.http
      .post('/api/v1/auth/register')
      .send({ name: 'Back Again', email: account.email, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD });
    expect(again.status).toBe(201);
  });

  it('refuses a wrong or missing password (422), changing nothing', async () => {
    const account = await newAccount();
    const wrong = await deleteAccount({ password: 'Wrong1234' }, account.access);
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ password: ['The password is incorrect.'] });
    const missing = await deleteAccount({}, account.access);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ password: ['The password field is required.'] });
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: account.id } })).deletedAt).toBeNull();
    expect((await me(account.access)).status).toBe(200);
  });

  it('refuses (409) while the investor holds units, changing nothing', async () => {
    const token = await t.token(DEMO_EMAILS.investor);
    const user = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } });
    expect(await t.db.prisma.holding.count({ where: { investorId: user.investor!.id, ownershipPercentage: { gt: 0 } } })).toBeGreaterThan(0);
    const res = await deleteAccount({ password: DEMO_PASSWORD }, token);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      message: 'The account cannot be deleted while it holds units or has pending investment or withdrawal requests.',
    });
    const after = await t.db.prisma.user.findUniqueOrThrow({ where: { id: user.id }, include: { investor: true } });
    expect(after).toEqual(user);
    expect((await me(token)).status).toBe(200);
  });

  it('refuses (409) while an investment or a withdrawal request is pending; an emptied holding does not block', async () => {
    const unit = await t.db.prisma.unit.findFirstOrThrow();
    const blocked = async (account: Account) => {
      const res = await deleteAccount({ password: DEMO_PASSWORD }, account.access);
      expect(res.status).toBe(409);
      expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: account.id } })).deletedAt).toBeNull();
      expect((await me(account.access)).status).toBe(200);
    };
    const investing = await newAccount();
    const request = await t.db.prisma.investmentRequest.create({
      data: { investorId: investing.investorId, unitId: unit.id, amount: '1000.00', ownershipPercentage: '0.100000' },
    });
    await blocked(investing);
    await t.db.prisma.investmentRequest.update({ where: { id: request.id }, data: { status: 'CANCELLED' } });

    const withdrawing = await newAccount();
    await t.db.prisma.holding.create({
      data: { investorId: withdrawing.investorId, unitId: unit.id, ownershipPercentage: '0.000000', investedAmount: '0.00' },
    });
    const withdrawal = await t.db.prisma.withdrawalRequest.create({
      data: { investorId: withdrawing.investorId, unitId: unit.id, ownershipPercentage: '0.100000', investedAmount: '100.00', reason: 'Test' },
    });
    await blocked(withdrawing);
    await t.db.prisma.withdrawalRequest.update({ where: { id: withdrawal.id }, data: { status: 'COMPLETED' } });

    for (const account of [investing, withdrawing]) expect((await deleteAccount({ password: DEMO_PASSWORD }, account.access)).status).toBe(200);
  });

  it('refuses (409) to delete the last administrator, allows it while another remains', async () => {
    const admin = await t.token(DEMO_EMAILS.admin);
    // The demo admin as the only active one, whatever the seed holds.
    await t.db.prisma.user.updateMany({ where: { role: 'ADMIN', email: { not: DEMO_EMAILS.admin } }, data: { deletedAt: new Date() } });
    const last = await deleteAccount({ password: DEMO_PASSWORD }, admin);
    expect(last.status).toBe(409);
    expect(last.body.message).toBe('The last administrator account cannot be deleted.');
    expect((await me(admin)).status).toBe(200);

    const second = await t.db.prisma.user.create({
      data: { name: 'Second Admin', email: 'second-admin@example.com', passwordHash: await hashPassword(DEMO_PASSWORD), role: 'ADMIN' },
    });
    const secondToken = await t.token(second.email);
    expect((await deleteAccount({ password: DEMO_PASSWORD }, secondToken)).status).toBe(200);
    expect((await me(admin)).status).toBe(200);
  });

  it('needs a bearer token', async () => {
    expect((await t.http.delete('/api/v1/auth/me').send({ password: DEMO_PASSWORD })).status).toBe(401);
  });

  it('has a GraphQL counterpart: CONFLICT while holding units, true otherwise', async () => {
    const query = 'mutation ($password: String!) { deleteAccount(password: $password) }';
    const held = await t.gql(query, { password: DEMO_PASSWORD }, await t.token(DEMO_EMAILS.investor));
    expect(held.errors?.[0].extensions?.code).toBe('CONFLICT');
    const account = await newAccount();
    expect(await t.gql(query, { password: DEMO_PASSWORD }, account.access)).toEqual({ data: { deleteAccount: true } });
  });
});
