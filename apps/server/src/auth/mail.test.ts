import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailTemplates, smtpMailer } from './mail.js';

/** A minimal SMTP server (no TLS, no auth) that records each message's envelope and data. */
function fakeSmtp() {
  const messages: { from: string; to: string[]; data: string }[] = [];
  const server: Server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 fake.smtp ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            messages.push(current);
            current = { from: '', to: [], data: '' };
            socket.write('250 OK queued\r\n');
          } else current.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'MAIL') current.from = line;
        if (verb === 'RCPT') current.to.push(line);
        if (verb === 'DATA') inData = true;
        if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write(verb === 'DATA' ? '354 go ahead\r\n' : '250 OK\r\n');
      }
    });
  });
  return { server, messages };
}

describe('SMTP mail (SMTP_URL)', () => {
  const smtp = fakeSmtp();
  let url: string;
  beforeAll(async () => {
    smtp.server.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    url = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.server.close(() => resolve())));

  it('sends the confirmation mail with its link through the SMTP server', async () => {
    const mailer = smtpMailer(url, 'Engage <no-reply@engage.example>');
    const link =
      'http://site.test/auth/v1/verify?token=abc&type=signup&redirect_to=http%3A%2F%2Fsite.test%2F';
    await mailer.send({
      userId: null,
      kind: 'confirmation',
      to: 'new@example.com',
      ...mailTemplates.confirmation('Engage', link, '123456'),
    });
    expect(smtp.messages).toHaveLength(1);
    const [message] = smtp.messages;
    expect(message?.from).toContain('no-reply@engage.example');
    expect(message?.to.join()).toContain('new@example.com');
    expect(message?.data).toContain('Subject: Confirm your signup');
    expect(message?.data.replace(/=\r?\n/g, '')).toContain('123456');
  });

  it('escapes what it puts into the HTML of a mail', () => {
    const mail = mailTemplates.adminSignup('Engage', '"><script>x</script>@example.com');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
  });
});
