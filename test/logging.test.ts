import { execFileSync } from 'node:child_process';
import { loadConfig } from '../src/platform/config';
import { createLogger, redactUrl } from '../src/platform/logger';
import { fromRoot } from '../src/platform/paths';
import { captureLogger } from './support/log-capture';
import { DEMO_EMAILS, startTestGateway } from './support/harness';

/** What one log call prints from a fresh process, stdout a terminal or not (pino-pretty runs in a worker thread). */
function printed(options: { env?: string; format?: string; tty: boolean }): string {
  const script = [
    `process.stdout.isTTY = ${options.tty};`,
    "const { createLogger } = require('./src/platform/logger');",
    `const logger = createLogger('info', { env: ${JSON.stringify(options.env)}, format: ${JSON.stringify(options.format)} });`,
    "logger.info({ unit: 'A-1' }, 'hello operator');",
  ].join('\n');
  return execFileSync(process.execPath, ['-r', fromRoot('scripts/ts-register.cjs'), '-e', script], { cwd: fromRoot('.'), encoding: 'utf8' });
}

describe('log format', () => {
  it('is readable in development on a terminal, and with LOG_FORMAT=pretty anywhere', () => {
    for (const out of [printed({ env: 'development', tty: true }), printed({ env: 'production', format: 'pretty', tty: false })]) {
      expect(out).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: hello operator\n\s+unit: "A-1"\n$/);
    }
  });

  it('is one JSON object per line in production (terminal or not), when piped, and with LOG_FORMAT=json', () => {
    for (const out of [
      printed({ env: 'production', tty: true }),
      printed({ env: 'development', tty: false }),
      printed({ env: 'development', format: 'json', tty: true }),
    ]) {
      expect(JSON.parse(out)).toMatchObject({ level: 30, msg: 'hello operator', unit: 'A-1', service: 'investment-gateway' });
    }
  });

  it('LOG_FORMAT and SMTP_URL refuse values they cannot use, naming the variable', () => {
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({}).logFormat).toBeUndefined();
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT must be json or pretty (got "xml")');
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).smtpUrl).toBe('smtps://u:p@mail.example.com:465');
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/: SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(() => loadConfig({ SMTP_URL: 'not a url' })).toThrow(/: SMTP_URL must be/);
  });
});

describe('request logs carry no credentials', () => {
  it('redacts a download link token and token query parameters from req.url, and bearer tokens from headers', async () => {
    const capture = captureLogger('info');
    const t = await startTestGateway({}, { logger: capture.logger });
    try {
      const token = await t.token(DEMO_EMAILS.investor);
      const link = 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..c2VjcmV0LWl2.c2VjcmV0LWxpbmstY2lwaGVydGV4dA.dGFn';
      await t.http.get(`/api/v1/downloads/${link}`);
      await t.http.get('/api/v1/public/categories?page=1&token=reset-secret-123&access_token=query-secret-456');
      await t.http.get('/api/v1/auth/me').set('authorization', `Bearer ${token}`);
      const text = capture.text();
      for (const secret of [link, 'reset-secret-123', 'query-secret-456', token]) expect(text).not.toContain(secret);
      const urls = capture
        .lines()
        .map((l) => (l.req as { url?: string } | undefined)?.url)
        .filter(Boolean);
      expect(urls).toEqual(
        expect.arrayContaining([
          '/api/v1/downloads/[redacted]',
          '/api/v1/public/categories?page=1&token=[redacted]&access_token=[redacted]',
          '/api/v1/auth/me',
        ]),
      );
    } finally {
      await t.close();
    }
  });

  // A wildcard path's censor gets a Symbol in its path; joining it threw, so every push (its log line
  // carries push.token) failed in the log sender and was never sent.
  it('redacts a nested token field without throwing (the log sender logs push.token)', () => {
    const logger = createLogger('info', { format: 'json' });
    expect(() => logger.info({ push: { token: 'abcdefgh…', data: { notificationId: '1' } } }, 'push notification (log sender)')).not.toThrow();
  });

  it('redactUrl keeps the route and every other parameter', () => {
    expect(redactUrl('/api/v1/downloads/abc.def?x=1')).toBe('/api/v1/downloads/[redacted]?x=1');
    expect(redactUrl('/api/v1/units?page=2&per_page=15')).toBe('/api/v1/units?page=2&per_page=15');
    expect(redactUrl('/x?Signature=s&code=c#frag')).toBe('/x?Signature=[redacted]&code=[redacted]#frag');
  });
});
