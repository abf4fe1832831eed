import { useQueryClient } from '@tanstack/react-query';
import { Copy, Eye, Mail } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { OutboxMail, OutboxPage } from '../api/client';
import { adminKeys, useAdminApi, useOutbox } from '../api/queries';
import { formatDateTime } from '../lib/format';

const descriptions: Record<OutboxPage['delivery'], string> = {
  outbox:
    'Mail the server keeps instead of sending it, newest first. Its links and codes sign in whoever uses them, so they stay hidden until you reveal a mail (each reveal is in the audit log); copy a link to its recipient rather than opening it here.',
  smtp: 'Mail is sent through SMTP (SMTP_URL); the outbox keeps nothing new.',
  hosted: 'Mail is sent by the hosted auth service; there is no outbox.',
};

async function copyLink(href: string) {
  try {
    await navigator.clipboard.writeText(href);
    toast.success('Link copied');
  } catch {
    toast.error('The link could not be copied; select it and copy it instead');
  }
}

function OutboxItem({ mail: listed }: { mail: OutboxMail }) {
  const api = useAdminApi();
  const queries = useQueryClient();
  const [revealed, setRevealed] = useState<OutboxMail | null>(null);
  const [state, setState] = useState<'idle' | 'revealing' | 'failed'>('idle');
  const mail = revealed ?? listed;

  async function reveal() {
    setState('revealing');
    try {
      setRevealed(await api.revealOutboxMail(listed.id));
      setState('idle');
      // The reveal is in the audit log: the recent activity shows it.
      void queries.invalidateQueries({ queryKey: adminKeys.audit });
    } catch {
      setState('failed');
    }
  }

  return (
    <li className="grid min-w-0 gap-1 border-b border-border pb-3 last:border-b-0 last:pb-0">
      <p className="font-medium break-words">{mail.subject}</p>
      <p className="text-sm break-all text-muted-foreground">
        To {mail.to} ·{' '}
        <time dateTime={mail.created_at} className="break-normal">
          {formatDateTime(mail.created_at)}
        </time>
      </p>
      {mail.masked && (
        <div className="grid justify-items-start gap-1">
          <Button
            size="sm"
            variant="outline"
            disabled={state === 'revealing'}
            aria-busy={state === 'revealing'}
            onClick={() => void reveal()}
            aria-label={`Reveal links and code: ${mail.subject}, for ${mail.to}`}
          >
            <Eye aria-hidden /> {state === 'revealing' ? 'Revealing…' : 'Reveal links and code'}
          </Button>
          {state === 'failed' && (
            <p role="alert" className="text-sm text-destructive">
              The mail could not be revealed; try again.
            </p>
          )}
        </div>
      )}
      {!mail.masked &&
        mail.links.map((link) => (
          // The link on a line of its own: beside its label and button a phone left it a few letters wide.
          <div key={link.href} className="grid min-w-0 gap-1">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-sm">{link.label}:</span>
              <Button
                size="sm"
                variant="outline"
                onClick={() => void copyLink(link.href)}
                aria-label={`Copy link: ${link.label}, for ${mail.to}`}
              >
                <Copy aria-hidden /> Copy link
              </Button>
            </div>
            <code className="rounded bg-muted px-1 text-xs break-all">{link.href}</code>
          </div>
        ))}
      <details className="text-sm">
        <summary className="cursor-pointer text-muted-foreground">Mail text</summary>
        <pre className="mt-1 font-sans text-sm break-words whitespace-pre-wrap">{mail.text}</pre>
      </details>
    </li>
  );
}

/** The mail outbox of the embedded auth (GET /api/admin/outbox): what /_mail shows, for admins. */
export function OutboxPanel() {
  const titleId = useId();
  const outbox = useOutbox();
  const mails = outbox.data?.mails ?? [];
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} className="flex items-center gap-2">
          <Mail className="size-5" aria-hidden /> Mail outbox
        </CardTitle>
        <CardDescription>{descriptions[outbox.data?.delivery ?? 'outbox']}</CardDescription>
      </CardHeader>
      <CardContent>
        {outbox.isError ? (
          <p role="alert" className="text-sm text-destructive">
            The outbox could not be loaded. {outbox.error.message}
          </p>
        ) : mails.length === 0 ? (
          <p className="text-sm text-muted-foreground">{outbox.isPending ? 'Loading…' : 'No mail yet'}</p>
        ) : (
          <ol className="grid gap-3" aria-label="Mails, newest first">
            {mails.map((mail) => (
              <OutboxItem key={mail.id} mail={mail} />
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
