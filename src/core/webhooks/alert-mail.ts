// E-mail alerts: each console user of an account chooses which events reach them by e-mail
// (alert_email_prefs). An event queues one job per chosen user in the transaction that records
// it (events.ts), so a mail survives restarts and is sent once per user per event (the job's
// ref names both). The mail is plain text with an HTML alternative: one short table-free layout
// with inline styles, which common mail clients render alike.
import { AppError } from '../errors.ts';
import { nowIso, toApiTime } from '../../lib/ids.ts';
import type { Mailer } from '../accounts/mail.ts';
import type { Executor, Store } from '../../db/store.ts';
import { describeEvent, type Markup } from './slack.ts';
import { subscribes } from './subscriptions.ts';

export const ALERT_MAIL_JOB_KIND = 'alert.mail';

/** The users of the account who chose this event type. */
export async function alertRecipients(db: Executor, accountId: string, type: string): Promise<string[]> {
  const rows = await db.selectFrom('alert_email_prefs').select(['user_id', 'events']).where('account_id', '=', accountId).execute();
  return rows.filter((r) => subscribes(JSON.parse(r.events) as string[], type)).map((r) => r.user_id);
}

export async function listAlertEmails(store: Store, accountId: string) {
  const rows = await store.db
    .selectFrom('users')
    .leftJoin('alert_email_prefs', 'alert_email_prefs.user_id', 'users.id')
    .select(['users.email', 'alert_email_prefs.events'])
    .where('users.account_id', '=', accountId)
    .orderBy('users.email')
    .execute();
  return rows.map((r) => ({ email: r.email, events: r.events ? (JSON.parse(r.events) as string[]) : [] }));
}

/** Sets which events each named user of the account gets by e-mail ([] stops them). */
export async function setAlertEmails(store: Store, accountId: string, choices: { email: string; events: string[] }[]) {
  await store.db.transaction().execute(async (trx) => {
    for (const c of choices) {
      const user = await trx.selectFrom('users').select('id').where('account_id', '=', accountId).where('email', '=', c.email.trim().toLowerCase()).executeTakeFirst();
      if (!user) throw new AppError('invalid_request', `${c.email} is not a console user of this account.`, { email: c.email });
      const events = JSON.stringify(c.events.includes('*') ? ['*'] : [...new Set(c.events)]);
      const now = nowIso();
      await trx
        .insertInto('alert_email_prefs')
        .values({ user_id: user.id, account_id: accountId, events, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ events, updated_at: now }))
        .execute();
    }
  });
  return listAlertEmails(store, accountId);
}

const escHtml = (s: unknown) => String(s ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const HTML: Markup = { esc: escHtml, bold: (s) => `<strong>${s}</strong>` };
const TEXT: Markup = { esc: (s) => String(s ?? ''), bold: (s) => s };

/** The alert mail for one event: subject, plain text and HTML. */
export function alertMail(type: string, data: Record<string, unknown>, createdAt: string, publicUrl: string) {
  const base = publicUrl.replace(/\/+$/, '');
  const text = describeEvent(type, data, TEXT);
  const html = describeEvent(type, data, HTML);
  const link = text.href ? `${base}${text.href}` : null;
  const when = toApiTime(createdAt);
  const plain = [text.title, '', text.body, ...text.fields.map((f) => `\n${f}`), '', link ? `Open in sightline: ${link}` : '', `(${type}, ${when})`]
    .filter((l, i, all) => !(l === '' && all[i - 1] === ''))
    .join('\n');
  const para = (s: string) => `<p style="margin:0 0 12px;font:15px/1.5 -apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2328">${s.replace(/\n/g, '<br>')}</p>`;
  const body = [
    `<h1 style="margin:0 0 12px;font:600 20px/1.3 -apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2328">${escHtml(html.title)}</h1>`,
    para(html.body),
    ...html.fields.map(para),
    link ? `<p style="margin:16px 0"><a href="${escHtml(link)}" style="display:inline-block;padding:8px 14px;background:#0b57d0;color:#ffffff;text-decoration:none;border-radius:6px;font:600 14px -apple-system,Segoe UI,Helvetica,Arial,sans-serif">Open in sightline</a></p>` : '',
    `<p style="margin:16px 0 0;font:12px/1.4 -apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#59636e">${escHtml(type)} · ${escHtml(when)}</p>`,
  ].join('\n');
  return {
    subject: `[sightline] ${text.title}`,
    text: plain + '\n',
    html: `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escHtml(text.title)}</title></head>\n<body style="margin:0;padding:24px;background:#f6f8fa"><div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border:1px solid #d1d9e0;border-radius:8px">\n${body}\n</div></body></html>\n`,
  };
}

/** The job: mails one event to one user (ref `<event id>:<user id>`). Without SMTP it does nothing. */
export async function sendAlertMail(deps: { store: Store; mailer?: Mailer; publicUrl: string }, ref: string): Promise<void> {
  if (!deps.mailer?.configured) return;
  const [eventId, userId] = ref.split(':');
  const event = await deps.store.db.selectFrom('webhook_events').selectAll().where('id', '=', eventId!).executeTakeFirst();
  const user = await deps.store.db.selectFrom('users').select(['email', 'account_id']).where('id', '=', userId!).executeTakeFirst();
  if (!event || !user || user.account_id !== event.account_id) return;
  const mail = alertMail(event.type, JSON.parse(event.data) as Record<string, unknown>, event.created_at, deps.publicUrl);
  await deps.mailer.send(user.email, mail.subject, mail.text, mail.html);
}
