import net, { type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { MailMessage } from '../src/services/mailer';
import { eventually } from './support/eventually';
import { captureLogger } from './support/log-capture';
import { DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';
import { budget } from './support/time-budget';

const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) };
const MAIL_FROM = 'Invest Test <no-reply@invest.test>';

interface Inbox {
  url: string;
  messages: ParsedMail[];
  logins: string[];
  /** The next message that arrives (or has arrived) after `seen` messages. */
  next(seen: number): Promise<ParsedMail>;
  /** Keeps the next message's transaction open (no reply to DATA) until the returned function is called. */
  holdNext(): () => void;
  close(): Promise<void>;
}

/**
 * An in-process SMTP server on a random loopback port. Credentials in the URL are accepted and
 * recorded; `reject` makes it refuse every message after reading it. STARTTLS is off: its
 * self-signed certificate would (rightly) fail nodemailer's verification.
 */
async function startInbox(options: { reject?: boolean } = {}): Promise<Inbox> {
  const messages: ParsedMail[] = [];
  const logins: string[] = [];
  const waiters: Array<() => void> = [];
  let hold: Promise<void> | undefined;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(`${auth.username}:${auth.password}`);
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      const held = hold;
      hold = undefined;
      simpleParser(stream)
        .then(async (mail) => {
          await held;
          if (options.reject) return callback(Object.assign(new Error('Message rejected'), { responseCode: 554 }));
          messages.push(mail);
          waiters.splice(0).forEach((w) => w());
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://mailer:s3cret@127.0.0.1:${port}`,
    messages,
    logins,
    async next(seen) {
      while (messages.length <= seen) await new Promise<void>((resolve) => waiters.push(resolve));
      return messages[seen];
    },
    holdNext() {
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
    close: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}

const tokenOf = (text: string) => /Token: (\S+)/.exec(text)![1];

let counter = 0;
async function register(t: TestGateway, name: string) {
  const email = `mail-${++counter}-${Date.now()}@example.com`;
  const res = await t.http.post('/api/v1/auth/register').send({ name, email, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD });
  expect(res.status).toBe(201);
  return { email, access: res.body.data.access_token as string };
}

describe('mail over SMTP (SMTP_URL)', () => {
  let inbox: Inbox;
  let t: TestGateway;
  beforeAll(async () => {
    inbox = await startInbox();
    t = await startTestGateway({ SMTP_URL: inbox.url, MAIL_FROM });
  });
  afterAll(async () => {
    await t.close();
    await inbox.close();
  });

  it('sends the reset token as text and HTML (user content escaped), and the token resets the password', async () => {
    const name = '<b>Eve & "Co"</b>';
    const { email } = await register(t, name);
    const seen = inbox.messages.length;
    expect((await t.http.post('/api/v1/auth/password/forgot').send({ email })).status).toBe(200);
    const mail = await inbox.next(seen);

    expect(inbox.logins).toContain('mailer:s3cret');
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : []).toEqual([email]);
    expect(mail.from?.value).toEqual([{ name: 'Invest Test', address: 'no-reply@invest.test' }]);
    expect(mail.subject).toBe('Reset your password');
    const token = tokenOf(mail.text!);
    expect(mail.text).toContain(`Hello ${name},`);
    expect(mail.html).toContain(`<code style="font-size:16px">${token}</code>`);
    expect(mail.html).toContain('Hello &lt;b&gt;Eve &amp; &quot;Co&quot;&lt;/b&gt;,');
    expect(mail.html).not.toContain('<b>Eve');

    const reset = await t.http.post('/api/v1/auth/password/reset').send({ email, token, password: 'Changed456', password_confirmation: 'Changed456' });
    expect(reset.status).toBe(200);
    expect((await t.http.post('/api/v1/auth/login').send({ email, password: 'Changed456' })).status).toBe(200);

    const notice = await inbox.next(seen + 1);
    expect(notice.subject).toBe('Your password was changed');
    expect(notice.text).toContain(`The password of ${email} was just changed`);
    expect(notice.html).toContain(`The password of ${email} was just changed`);
    expect(notice.text).not.toContain(token);
  });

  it('answers a reset request without waiting for the mail server', async () => {
    const { email } = await register(t, 'Slow Relay');
    const seen = inbox.messages.length;
    const release = inbox.holdNext();
    const res = await t.http.post('/api/v1/auth/password/forgot').send({ email });
    expect(res.status).toBe(200);
    expect(inbox.messages).toHaveLength(seen); // the server has not accepted the message yet
    release();
    expect((await inbox.next(seen)).subject).toBe('Reset your password');
  });

  it('tells the account holder at the old address when the account is deleted', async () => {
    const { email, access } = await register(t, 'Dana Delete');
    const seen = inbox.messages.length;
    const res = await t.http.delete('/api/v1/auth/me').set('authorization', `Bearer ${access}`).send({ password: DEMO_PASSWORD });
    expect(res.status).toBe(200);
    const notice = await inbox.next(seen);
    expect(notice.to && !Array.isArray(notice.to) ? notice.to.text : '').toBe(email);
    expect(notice.subject).toBe('Your account was deleted');
    expect(notice.text).toContain('Hello Dana Delete,');
    expect(notice.html).toContain('<p>Hello Dana Delete,</p>');
  });
});

describe('mail without SMTP_URL', () => {
  /** Sends a reset through the gateway and returns the token the mailer was handed (the spy calls through). */
  async function requestReset(t: TestGateway, email: string): Promise<string> {
    const spy = jest.spyOn(t.services.mailer, 'send');
    try {
      expect((await t.http.post('/api/v1/auth/password/forgot').send({ email })).status).toBe(200);
      return tokenOf((spy.mock.calls[0][0] as MailMessage).text);
    } finally {
      spy.mockRestore();
    }
  }

  it('outside production writes the message to the log at debug level', async () => {
    const log = captureLogger('debug');
    const t = await startTestGateway({}, { logger: log.logger });
    try {
      const { email } = await register(t, 'Dev Reader');
      const token = await requestReset(t, email);
      const line = log.lines().find((l) => l.msg === `mail to ${email}: Reset your password`);
      expect(line?.level).toBe(20);
      expect((line?.mail as { text: string }).text).toContain(`Token: ${token}`);
    } finally {
      await t.close();
    }
  });

  it('in production drops the message with a warning and never logs the token, even at trace level', async () => {
    const log = captureLogger('trace');
    const t = await startTestGateway(PRODUCTION, { logger: log.logger });
    try {
      expect(log.lines().some((l) => l.level === 40 && l.msg === 'SMTP_URL is not set: password reset mails and account notices are dropped')).toBe(true);
      const { email } = await register(t, 'Prod Reader');
      const token = await requestReset(t, email);
      const reset = await t.http.post('/api/v1/auth/password/reset').send({ email, token, password: 'Changed456', password_confirmation: 'Changed456' });
      expect(reset.status).toBe(200);
      expect(log.lines().filter((l) => l.msg === 'mail dropped: SMTP_URL is not set')).toHaveLength(2);
      expect(log.text()).not.toContain(token);
    } finally {
      await t.close();
    }
  });
});

it('in production a refused message is logged as a failure without its token, and the answer stays the same', async () => {
  const inbox = await startInbox({ reject: true });
  const log = captureLogger('trace');
  const t = await startTestGateway({ ...PRODUCTION, SMTP_URL: inbox.url }, { logger: log.logger });
  try {
    const { email } = await register(t, 'Refused Reader');
    const spy = jest.spyOn(t.services.mailer, 'send');
    const res = await t.http.post('/api/v1/auth/password/forgot').send({ email });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('If that email is registered, a reset link has been sent.');
    await expect(spy.mock.results[0].value).rejects.toThrow(/Message rejected/);
    const token = tokenOf((spy.mock.calls[0][0] as MailMessage).text);
    spy.mockRestore();
    expect(log.lines().some((l) => l.level === 50 && l.msg === 'password reset mail could not be sent')).toBe(true);
    expect(log.text()).not.toContain(token);
  } finally {
    await t.close();
    await inbox.close();
  }
});

// Issue 22, finding 13: a mail server that accepts the connection and never says a word. SMTP_TIMEOUT_MS
// (small here; 10 s by default) ends the attempt: the answer never waited for it, the failure is
// logged, and the connection is closed rather than held for as long as the server stays silent.
it('gives up on a silent mail server after SMTP_TIMEOUT_MS: the answer does not wait, the failure is logged, the connection closed', async () => {
  const open = new Set<net.Socket>();
  let accepted = 0;
  const silent = net.createServer((socket) => {
    accepted++;
    open.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const log = captureLogger('trace');
  const t = await startTestGateway({ SMTP_URL: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`, SMTP_TIMEOUT_MS: '200' }, { logger: log.logger });
  try {
    const { email } = await register(t, 'Silent Relay');
    const res = await t.http.post('/api/v1/auth/password/forgot').send({ email });
    expect(res.status).toBe(200);
    // Bounded far above the 200 ms configured, far below the 10 s the transport used to wait.
    await eventually(async () => log.lines().some((l) => l.level === 50 && l.msg === 'password reset mail could not be sent'), budget(5000));
    expect(accepted).toBe(1);
    await eventually(async () => open.size === 0, budget(5000));
  } finally {
    await t.close();
    for (const socket of open) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});
