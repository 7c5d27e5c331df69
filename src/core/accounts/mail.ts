// Mail for one-time links (password reset, invitation), through nodemailer when the operator set
// SIGHTLINE_SMTP_URL. Without it nothing is sent: the operator prints links with the CLI
// (`sightline users reset-link`, `sightline users invite`), and the console says so.
// nodemailer is imported with the first mail, not with the process: its 39 modules cost every
// process that builds the server about 0.07 s of CPU at start, and most never send one.
import type { Transporter } from 'nodemailer';

export interface Mailer {
  /** Whether a transport is configured: without one, links are printed by the operator's CLI. */
  readonly configured: boolean;
  /** Plain text always; an HTML alternative when given (alerts). */
  send(to: string, subject: string, text: string, html?: string): Promise<void>;
  close(): void;
}

export function createMailer(smtpUrl: string | undefined, from: string): Mailer {
  if (!smtpUrl) {
    return {
      configured: false,
      send: async () => {
        throw new Error('no mail transport is configured (SIGHTLINE_SMTP_URL)');
      },
      close: () => {},
    };
  }
  let transport: Promise<Transporter> | undefined;
  return {
    configured: true,
    async send(to, subject, text, html) {
      transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
      await (await transport).sendMail({ from, to, subject, text, ...(html ? { html } : {}) });
    },
    close: () => void transport?.then((t) => t.close(), () => {}),
  };
}

export function resetMail(link: string) {
  return {
    subject: 'Reset your sightline password',
    text: `Someone asked to set a new password for this email on sightline.\n\nSet it here (the link works once, for an hour):\n${link}\n\nIf it was not you, ignore this mail; your password stays as it is.\n`,
  };
}

export function inviteMail(link: string, credits: string) {
  return {
    subject: 'You are invited to sightline',
    text: `You are invited to open an account on sightline${credits !== '0.00' ? ` with ${credits} credits` : ''}.\n\nChoose your password here (the link works once, for seven days):\n${link}\n`,
  };
}

/** An invitation into an existing account: who invited, as what. */
export function teamInviteMail(link: string, inviter: string, role: 'admin' | 'member') {
  return {
    subject: `${inviter} invited you to their sightline account`,
    text: `${inviter} invited you to join their account on sightline as ${role === 'admin' ? 'an admin (you may also invite and remove people)' : 'a member'}.\n\nChoose your password here (the link works once, for seven days):\n${link}\n\nIf you did not expect this, ignore this mail; nothing happens without the link.\n`,
  };
}

/** Sign-up with a new email: the link proves the address and sets the first password. */
export function signUpWelcomeMail(link: string) {
  return {
    subject: 'Finish opening your sightline account',
    text: `Someone asked to open a sightline account for this email.\n\nChoose your password here to finish (the link works once, for an hour):\n${link}\n\nIf it was not you, ignore this mail; without the link nobody can use the account.\n`,
  };
}

/** Sign-up with an email that has an account: nothing changed; a password link in case it was the owner. */
export function signUpExistingMail(link: string) {
  return {
    subject: 'Your sightline account',
    text: `Someone tried to open a sightline account for this email, which has one already. Nothing was changed.\n\nIf it was you, sign in, or set a new password here (the link works once, for an hour):\n${link}\n\nIf it was not you, ignore this mail; your password stays as it is.\n`,
  };
}
