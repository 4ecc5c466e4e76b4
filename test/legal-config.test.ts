import { nextVersion } from '../src/services/legal.service';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let admin: string;
let investor: string;
let analyst: string;

beforeAll(async () => {
  t = await startTestGateway();
  [admin, investor, analyst] = await Promise.all([t.token(DEMO_EMAILS.admin), t.token(DEMO_EMAILS.investor), t.token(DEMO_EMAILS.analyst)]);
});
afterAll(() => t.close());

const laravel = (d: Date) => d.toISOString().slice(0, 19) + '+00:00';

const ROUTES = [
  ['/api/v1/legal/privacy-policy', 'PRIVACY_POLICY'],
  ['/api/v1/legal/terms-of-service', 'TERMS_OF_SERVICE'],
  ['/api/v1/legal/investment-disclaimer', 'INVESTMENT_DISCLAIMER'],
] as const;

const UPSERT = 'mutation ($input: UpsertLegalTextInput!) { upsertLegalText(input: $input) { kind title content version publishedAt } }';
const UPDATE_CONFIG =
  'mutation ($input: UpdateAppConfigInput!) { updateAppConfig(input: $input) { minInvestment maxInvestment minWithdrawalPercentage supportEmail colorOptions minAppVersion maintenanceMode } }';

describe('GET /api/v1/legal/*', () => {
  it.each(ROUTES)('%s answers the stored text to guests', async (path, kind) => {
    const res = await t.http.get(path);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['kind', 'title', 'content', 'version', 'published_at', 'updated_at']);
    const row = await t.db.prisma.legalText.findUniqueOrThrow({ where: { kind } });
    expect(res.body).toEqual({
      success: true,
      data: {
        kind: kind.toLowerCase(),
        title: row.title,
        content: row.content,
        version: row.version,
        published_at: laravel(row.publishedAt),
        updated_at: laravel(row.updatedAt),
      },
    });
  });

  it('has a GraphQL counterpart open to guests', async () => {
    const row = await t.db.prisma.legalText.findUniqueOrThrow({ where: { kind: 'TERMS_OF_SERVICE' } });
    const res = await t.gql('{ legalText(kind: TERMS_OF_SERVICE) { kind title version } }');
    expect(res).toEqual({ data: { legalText: { kind: 'TERMS_OF_SERVICE', title: row.title, version: row.version } } });
  });
});

describe('upsertLegalText (admin)', () => {
  it('replaces the text, bumps the version and the publication time', async () => {
    const before = await t.db.prisma.legalText.findUniqueOrThrow({ where: { kind: 'PRIVACY_POLICY' } });
    const res = await t.gql<{ upsertLegalText: { version: string; publishedAt: string } }>(
      UPSERT,
      { input: { kind: 'PRIVACY_POLICY', title: ' Privacy Policy 2027 ', content: 'We changed things.\n\nRead them.' } },
      admin,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.upsertLegalText).toMatchObject({
      kind: 'PRIVACY_POLICY',
      title: 'Privacy Policy 2027',
      content: 'We changed things.\n\nRead them.',
      version: nextVersion(before.version),
    });
    expect(new Date(res.data!.upsertLegalText.publishedAt).getTime()).toBeGreaterThan(before.publishedAt.getTime());
    const rest = await t.http.get('/api/v1/legal/privacy-policy');
    expect(rest.body.data).toMatchObject({ title: 'Privacy Policy 2027', version: nextVersion(before.version) });
  });

  it('numbers versions by major: 1.0 → 2.0', () => {
    expect(['1.0', '2.0', '9', '10.3', 'draft'].map(nextVersion)).toEqual(['2.0', '3.0', '10.0', '11.0', '1.0']);
  });

  it('gives each of concurrent publications its own version, or CONFLICT', async () => {
    const before = await t.db.prisma.legalText.findUniqueOrThrow({ where: { kind: 'TERMS_OF_SERVICE' } });
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        t.gql<{ upsertLegalText: { version: string } }>(UPSERT, { input: { kind: 'TERMS_OF_SERVICE', title: `Terms ${i}`, content: `Version ${i}` } }, admin),
      ),
    );
    const won = results.filter((r) => !r.errors);
    expect(won.length).toBeGreaterThan(0);
    expect(results.filter((r) => r.errors).every((r) => r.errors![0].extensions?.code === 'CONFLICT')).toBe(true);
    const versions = won.map((r) => r.data!.upsertLegalText.version);
    expect(new Set(versions).size).toBe(versions.length);
    const after = await t.db.prisma.legalText.findUniqueOrThrow({ where: { kind: 'TERMS_OF_SERVICE' } });
    expect(Number.parseInt(after.version, 10)).toBe(Number.parseInt(before.version, 10) + won.length);
  });

  it('validates title and content, changing nothing', async () => {
    const before = await t.db.prisma.legalText.findUniqueOrThrow({ where: { kind: 'INVESTMENT_DISCLAIMER' } });
    const res = await t.gql(UPSERT, { input: { kind: 'INVESTMENT_DISCLAIMER', title: '  ', content: '' } }, admin);
    expect(res.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: { title: ['The title field is required.'], content: ['The content field is required.'] },
    });
    expect(await t.db.prisma.legalText.findUniqueOrThrow({ where: { kind: 'INVESTMENT_DISCLAIMER' } })).toEqual(before);
  });

  it('is refused to investors and analysts (FORBIDDEN) and guests (UNAUTHENTICATED)', async () => {
    const before = await t.db.prisma.legalText.findMany({ orderBy: { id: 'asc' } });
    const input = { kind: 'INVESTMENT_DISCLAIMER', title: 'Hijacked', content: 'Nope.' };
    for (const [bearer, code] of [
      [investor, 'FORBIDDEN'],
      [analyst, 'FORBIDDEN'],
      [undefined, 'UNAUTHENTICATED'],
    ] as const) {
      const res = await t.gql(UPSERT, { input }, bearer);
      expect(res.errors?.[0].extensions?.code).toBe(code);
    }
    expect(await t.db.prisma.legalText.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
  });

  it('answers 404 for a kind never published, and creates it at version 1.0', async () => {
    await t.db.prisma.legalText.delete({ where: { kind: 'INVESTMENT_DISCLAIMER' } });
    const missing = await t.http.get('/api/v1/legal/investment-disclaimer');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, message: 'Resource not found.' });
    expect((await t.gql('{ legalText(kind: INVESTMENT_DISCLAIMER) { title } }')).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const created = await t.gql(UPSERT, { input: { kind: 'INVESTMENT_DISCLAIMER', title: 'Risks', content: 'You may lose money.' } }, admin);
    expect(created.data).toMatchObject({ upsertLegalText: { version: '1.0', title: 'Risks' } });
    expect((await t.http.get('/api/v1/legal/investment-disclaimer')).body.data).toMatchObject({ kind: 'investment_disclaimer', version: '1.0' });
  });
});

describe('GET /api/v1/marketplace/config', () => {
  it('answers the configuration to guests, money as JSON numbers', async () => {
    const res = await t.http.get('/api/v1/marketplace/config');
    expect(res.status).toBe(200);
    const row = await t.db.prisma.appConfig.findUniqueOrThrow({ where: { id: 1 } });
    expect(Object.keys(res.body.data)).toEqual([
      'min_investment',
      'max_investment',
      'min_withdrawal_percentage',
      'support_email',
      'icon_options',
      'badge_options',
      'color_options',
      'min_app_version',
      'maintenance_mode',
      'updated_at',
    ]);
    expect(res.body.data).toEqual({
      min_investment: row.minInvestment.toNumber(),
      max_investment: row.maxInvestment.toNumber(),
      min_withdrawal_percentage: row.minWithdrawalPercentage.toNumber(),
      support_email: row.supportEmail,
      icon_options: row.iconOptions,
      badge_options: row.badgeOptions,
      color_options: row.colorOptions,
      min_app_version: row.minAppVersion,
      maintenance_mode: row.maintenanceMode,
      updated_at: laravel(row.updatedAt),
    });
  });

  it('has a GraphQL counterpart open to guests, money as Decimal strings', async () => {
    const row = await t.db.prisma.appConfig.findUniqueOrThrow({ where: { id: 1 } });
    const res = await t.gql('{ appConfig { minInvestment supportEmail } }');
    expect(res).toEqual({ data: { appConfig: { minInvestment: row.minInvestment.toFixed(2), supportEmail: row.supportEmail } } });
  });
});

describe('updateAppConfig (admin)', () => {
  it('changes only the fields given', async () => {
    const before = await t.db.prisma.appConfig.findUniqueOrThrow({ where: { id: 1 } });
    const res = await t.gql(
      UPDATE_CONFIG,
      {
        input: {
          maintenanceMode: !before.maintenanceMode,
          minAppVersion: '2.1.0',
          minInvestment: '250.5',
          colorOptions: ['#112233', '#aabbcc'],
          supportEmail: null,
        },
      },
      admin,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({
      updateAppConfig: {
        minInvestment: '250.50',
        maxInvestment: before.maxInvestment.toFixed(2),
        minWithdrawalPercentage: before.minWithdrawalPercentage.toFixed(2),
        supportEmail: before.supportEmail,
        colorOptions: ['#112233', '#aabbcc'],
        minAppVersion: '2.1.0',
        maintenanceMode: !before.maintenanceMode,
      },
    });
    const after = await t.db.prisma.appConfig.findUniqueOrThrow({ where: { id: 1 } });
    expect({
      ...after,
      maintenanceMode: before.maintenanceMode,
      minAppVersion: before.minAppVersion,
      minInvestment: before.minInvestment,
      colorOptions: before.colorOptions,
      updatedAt: before.updatedAt,
    }).toEqual(before);
    expect((await t.http.get('/api/v1/marketplace/config')).body.data).toMatchObject({ min_investment: 250.5, min_app_version: '2.1.0' });
  });

  it('validates every field and min ≤ max, changing nothing', async () => {
    const before = await t.db.prisma.appConfig.findUniqueOrThrow({ where: { id: 1 } });
    const bad = await t.gql(
      UPDATE_CONFIG,
      {
        input: {
          minInvestment: '0',
          maxInvestment: '10.001',
          minWithdrawalPercentage: '150',
          supportEmail: 'support',
          iconOptions: ['home', 'Bad Icon'],
          badgeOptions: ['New', 'New'],
          colorOptions: ['#12345G', 'red'],
          minAppVersion: '2.1',
        },
      },
      admin,
    );
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    // Every input rule at once: the amounts' rules too (docs/api.md "Validation").
    expect(bad.errors?.[0].extensions?.fields).toEqual({
      minInvestment: ['The min investment field must be greater than 0.'],
      maxInvestment: ['The max investment field must have at most 2 decimal places.'],
      minWithdrawalPercentage: ['The min withdrawal percentage field must be greater than 0 and at most 100.'],
      supportEmail: ['The support email field must be a valid email address.'],
      iconOptions: ['Each icon option must be an icon name such as graduation-cap.'],
      badgeOptions: ['The badge options field has a duplicate value.'],
      colorOptions: ['Each color option must be a colour such as #2E7D32.'],
      minAppVersion: ['The min app version field must be a version such as 2.1.0.'],
    });
    const amounts = await t.gql(UPDATE_CONFIG, { input: { minInvestment: '0', maxInvestment: '10.001', minWithdrawalPercentage: '150' } }, admin);
    expect(amounts.errors?.[0].extensions?.fields).toEqual({
      minInvestment: ['The min investment field must be greater than 0.'],
      maxInvestment: ['The max investment field must have at most 2 decimal places.'],
      minWithdrawalPercentage: ['The min withdrawal percentage field must be greater than 0 and at most 100.'],
    });
    const crossed = await t.gql(UPDATE_CONFIG, { input: { minInvestment: before.maxInvestment.plus(1).toFixed(2) } }, admin);
    expect(crossed.errors?.[0].extensions?.fields).toEqual({
      maxInvestment: ['The max investment field must be greater than or equal to the min investment.'],
    });
    const huge = await t.gql(UPDATE_CONFIG, { input: { maxInvestment: '1000000000000' } }, admin);
    expect(huge.errors?.[0].extensions?.fields).toEqual({ maxInvestment: ['The max investment field must be less than 1000000000000.'] });
    expect(await t.db.prisma.appConfig.findUniqueOrThrow({ where: { id: 1 } })).toEqual(before);
  });

  it('is refused to investors and analysts (FORBIDDEN) and guests (UNAUTHENTICATED)', async () => {
    const before = await t.db.prisma.appConfig.findUniqueOrThrow({ where: { id: 1 } });
    for (const [bearer, code] of [
      [investor, 'FORBIDDEN'],
      [analyst, 'FORBIDDEN'],
      [undefined, 'UNAUTHENTICATED'],
    ] as const) {
      const res = await t.gql(UPDATE_CONFIG, { input: { maintenanceMode: true } }, bearer);
      expect(res.errors?.[0].extensions?.code).toBe(code);
    }
    expect(await t.db.prisma.appConfig.findUniqueOrThrow({ where: { id: 1 } })).toEqual(before);
  });

  it('answers 404 while no configuration exists; creating one needs the required fields', async () => {
    await t.db.prisma.appConfig.delete({ where: { id: 1 } });
    const missing = await t.http.get('/api/v1/marketplace/config');
    expect(missing.status).toBe(404);
    const partial = await t.gql(UPDATE_CONFIG, { input: { maintenanceMode: true } }, admin);
    expect(Object.keys(partial.errors?.[0].extensions?.fields as object)).toEqual([
      'minInvestment',
      'maxInvestment',
      'minWithdrawalPercentage',
      'supportEmail',
      'minAppVersion',
    ]);
    expect(await t.db.prisma.appConfig.count()).toBe(0);
    const input = { minInvestment: '100', maxInvestment: '5000', minWithdrawalPercentage: '0.5', supportEmail: 'help@example.com', minAppVersion: '1.0.0' };
    const created = await t.gql(UPDATE_CONFIG, { input }, admin);
    expect(created.errors).toBeUndefined();
    const res = await t.http.get('/api/v1/marketplace/config');
    expect(res.body.data).toMatchObject({
      min_investment: 100,
      max_investment: 5000,
      min_withdrawal_percentage: 0.5,
      icon_options: [],
      color_options: [],
      maintenance_mode: false,
    });
  });
});
