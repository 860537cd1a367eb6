import { SMTPServer } from 'smtp-server';
import { findFreePort } from '../../../server/db/embedded.js';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives, for following links from mails. */
export async function startMailbox() {
  const mails: ReceivedMail[] = [];
  const waiters: { match: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = { to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') };
        mails.push(mail);
        for (const waiter of [...waiters]) {
          if (waiter.match(mail)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(mail);
          }
        }
        callback();
      });
    },
  });
  const port = await findFreePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Resolves with the first mail to this address (already received or arriving later). */
    waitForMail(to: string): Promise<ReceivedMail> {
      const match = (mail: ReceivedMail) => mail.to.includes(to.toLowerCase());
      const existing = mails.find(match);
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail that points at the given path (quoted-printable soft breaks undone). */
export function linkFromMail(mail: ReceivedMail, pathPart: string): string {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const found = text.match(new RegExp(`https?://[^\\s"'<>]*${pathPart.replace(/[/?]/g, '\\$&')}[^\\s"'<>]*`));
  if (!found) throw new Error(`No link to ${pathPart} in mail:\n${text}`);
  return found[0];
}
