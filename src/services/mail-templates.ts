import escapeHtml from 'escape-html';
import type { MailMessage } from './mailer';

/** A paragraph, or a labelled value shown as code (a token the reader copies). */
type Block = string | { label: string; code: string };

interface Recipient {
  name: string;
  email: string;
}

const SIGNATURE = 'The Investment Platform team';

/**
 * One message, written once: the text body joins the blocks, the HTML body wraps the same blocks
 * with every piece of user content (names, addresses, tokens) escaped.
 */
function compose(to: string, subject: string, blocks: Block[]): MailMessage {
  const all: Block[] = [...blocks, SIGNATURE];
  const text = all.map((b) => (typeof b === 'string' ? b : `${b.label}: ${b.code}`)).join('\n\n');
  const paragraphs = all.map((b) =>
    typeof b === 'string' ? `<p>${escapeHtml(b)}</p>` : `<p>${escapeHtml(b.label)}: <code style="font-size:16px">${escapeHtml(b.code)}</code></p>`,
  );
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:sans-serif;line-height:1.5">
${paragraphs.join('\n')}
</body></html>`;
  return { to, subject, text, html };
}

export function passwordResetMail(user: Recipient, token: string, ttlMinutes: number): MailMessage {
  return compose(user.email, 'Reset your password', [
    `Hello ${user.name},`,
    `Use this token to reset the password of ${user.email}. It expires in ${ttlMinutes} minutes and works once.`,
    { label: 'Token', code: token },
    'If you did not ask for a reset, ignore this message: your password stays as it is.',
  ]);
}

export function passwordChangedMail(user: Recipient): MailMessage {
  return compose(user.email, 'Your password was changed', [
    `Hello ${user.name},`,
    `The password of ${user.email} was just changed, and every other session was signed out.`,
    'If this was not you, reset your password at once and contact support.',
  ]);
}

export function accountDeletedMail(user: Recipient): MailMessage {
  return compose(user.email, 'Your account was deleted', [
    `Hello ${user.name},`,
    `The account ${user.email} was deleted at your request: your personal data is erased and you can no longer sign in. Records the law requires us to keep (transactions, statements) are retained.`,
    'If this was not you, contact support at once.',
  ]);
}
