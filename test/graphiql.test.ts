import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { GRAPHIQL_DEFAULT_HEADERS } from '../src/graphql/graphiql';
import { ensureChromium } from './support/chromium';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';
import { budget } from './support/time-budget';

/** GraphiQL at /graphiql, served from the gateway's own files: in Debian's chromium, with every other host blocked. */
/** The visible editor of GraphiQL's tools pane (variables and headers share it; one is hidden). */
const HEADERS_EDITOR = '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror';

/** A CodeMirror 5 editor's host element (GraphiQL 4's editors). */
type CodeMirrorHost = { CodeMirror: { getValue(): string; setValue(value: string): void } };

let t: TestGateway;
let origin: string;
let browser: Browser;

// Installing chromium on a fresh machine (apt-get) takes a few minutes.
beforeAll(async () => {
  const executablePath = ensureChromium();
  t = await startTestGateway();
  await new Promise<void>((resolve) => t.gateway.server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(t.gateway.server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-background-networking'] });
}, budget(600_000));
afterAll(async () => {
  await browser?.close();
  await t.close();
});

describe('GET /graphiql', () => {
  it('serves a page whose scripts and styles are all the gateway’s, under a same-origin CSP', async () => {
    const res = await t.http.get('/graphiql');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const assets = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/graphiql\//);
      expect((await t.http.get(asset)).status).toBe(200);
    }
  });

  it('serves nothing else of the packages', async () => {
    expect((await t.http.get('/graphiql/package.json')).status).toBe(404);
    expect((await t.http.get('/graphiql/..%2Fpackage.json')).status).toBe(404);
  });
});

describe("Apollo Sandbox at /graphql without Apollo's CDN", () => {
  it('says where the offline explorer is: a link to /graphiql that opens it', async () => {
    const page = await browser.newPage();
    // Playwright's own waits too: scaled to the machine's load, like every timeout here.
    page.setDefaultTimeout(budget(30_000));
    // Offline: only the gateway answers.
    await page.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort()));
    try {
      await page.goto(`${origin}/graphql`);
      const link = page.locator('.fallback a[href="/graphiql"]');
      await link.waitFor();
      expect(await page.locator('.fallback').innerText()).toMatch(/cannot reach[\s\S]*GraphiQL/);
      await link.click();
      await page.locator('.graphiql-container').waitFor();
    } finally {
      await page.close();
    }
  });
});

describe('GraphiQL in a browser', () => {
  it('runs a query with the bearer token set in the headers editor', async () => {
    const token = await t.token(DEMO_EMAILS.investor);
    const page = await browser.newPage();
    // Playwright's own waits too: scaled to the machine's load, like every timeout here.
    page.setDefaultTimeout(budget(30_000));
    const elsewhere: string[] = [];
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    await page.route('**/*', (route) => {
      if (new URL(route.request().url()).origin === origin) return route.continue();
      elsewhere.push(route.request().url());
      return route.abort();
    });
    try {
      await page.goto(`${origin}/graphiql`);
      await page.locator('.graphiql-container .graphiql-query-editor .CodeMirror').waitFor();
      // The headers tab is open, prefilled with the Authorization template.
      const headers = page.locator(HEADERS_EDITOR);
      expect(await headers.evaluate((el) => (el as unknown as CodeMirrorHost).CodeMirror.getValue())).toBe(GRAPHIQL_DEFAULT_HEADERS);

      // Set the token and the query the way a user's edits do (CodeMirror's own API; typing would auto-close quotes).
      await headers.evaluate((el, text) => (el as unknown as CodeMirrorHost).CodeMirror.setValue(text), JSON.stringify({ Authorization: `Bearer ${token}` }));
      await page
        .locator('.graphiql-query-editor .CodeMirror')
        .evaluate((el, text) => (el as unknown as CodeMirrorHost).CodeMirror.setValue(text), '{ me { email role } }');
      await page.locator('.graphiql-execute-button').click();
      await page.locator('.graphiql-response').filter({ hasText: DEMO_EMAILS.investor }).waitFor();
      expect(await page.locator('.graphiql-response').textContent()).toContain('INVESTOR');
      expect(elsewhere).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
