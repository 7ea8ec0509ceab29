import { createTransport, type Transporter } from 'nodemailer';

/** `BATON_SMTP_URL` and `BATON_SMTP_FROM`: where mail goes out, and who it is from. */
export interface MailSettings {
  /** `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://…:465`. */
  smtpUrl: string;
  /** The From address (`Baton <baton@example.com>`). */
  from: string;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Sends Baton's few mails (password reset, invitations) through the operator's SMTP server. */
export class Mailer {
  readonly #transport: Transporter;

  constructor(readonly settings: MailSettings) {
    // Bounded: a sign-in page waits on this, and an SMTP server that hangs must not hold it.
    const url = new URL(settings.smtpUrl);
    this.#transport = createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.#transport.sendMail({ from: this.settings.from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  close(): void {
    this.#transport.close();
  }
}

/** The mail settings of the environment, or undefined when no SMTP server is configured (no mail is sent). */
export function mailSettingsFromEnv(env: NodeJS.ProcessEnv): MailSettings | undefined {
  const raw = env.BATON_SMTP_URL?.trim();
  if (!raw) return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) {
    throw new Error('BATON_SMTP_URL must be an smtp:// or smtps:// URL (smtp://user:password@mail.example.com:587)');
  }
  const from = env.BATON_SMTP_FROM?.trim();
  if (!from) throw new Error('BATON_SMTP_FROM must be set with BATON_SMTP_URL: the address Baton sends mail from (Baton <baton@example.com>)');
  return { smtpUrl: raw, from };
}
