// Just enough SMTP (RFC 5321: greeting, EHLO, MAIL, RCPT, DATA, QUIT) to receive mail from
// nodemailer on loopback. `delayMs` holds the greeting and the answer to the end of DATA back,
// as a slow mail server does; `hold` holds them until `release()` (and `hold()` again), so a test
// can tell whether a request waited for its mail by order rather than by the clock.
import net from 'node:net';

export interface SmtpSink {
  port: number;
  mails: { from: string; to: string[]; data: string }[];
  /** Resolves once `count` mails have arrived (rejects after timeoutMs). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  /** Lets the held greeting and DATA answers go, and answers at once until `hold()`. */
  release(): void;
  /** Holds greetings and DATA answers from now on, until `release()`. */
  hold(): void;
  close(): Promise<void>;
}

export async function startSmtpSink(opts: { delayMs?: number; hold?: boolean } = {}): Promise<SmtpSink> {
  const mails: SmtpSink['mails'] = [];
  let held: (() => void)[] | null = opts.hold ? [] : null;
  const later = (fn: () => void) => {
    if (held) held.push(fn);
    else if (opts.delayMs) setTimeout(fn, opts.delayMs);
    else fn();
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = '';
    let inData = false;
    let mail = { from: '', to: [] as string[], data: '' };
    later(() => socket.write('220 sink ESMTP\r\n'));
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let i;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            const done = mail;
            mail = { from: '', to: [], data: '' };
            later(() => {
              mails.push(done);
              socket.write('250 queued\r\n');
            });
          } else mail.data += line.replace(/^\.\./, '.') + '\n';
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 sink\r\n');
        else if (verb === 'MAIL') (mail.from = line), socket.write('250 ok\r\n');
        else if (verb === 'RCPT') (mail.to.push(line), socket.write('250 ok\r\n'));
        else if (verb === 'DATA') (inData = true), socket.write('354 go on\r\n');
        else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    mails,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > deadline) throw new Error(`${mails.length} of ${count} mails after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const fn of waiting) fn();
    },
    hold() {
      held ??= [];
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A mail's text with quoted-printable soft breaks and =3D undone. */
export function mailText(mail: { data: string }): string {
  return mail.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

/** The one-time link of a kind in a mail's text. */
export function linkIn(mail: { data: string }, kind: 'reset' | 'invite'): string | undefined {
  return new RegExp(`/console/${kind}#token=([\\w-]+)`).exec(mailText(mail))?.[1];
}
