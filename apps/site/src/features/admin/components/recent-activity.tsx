import { History } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { AuditEntry } from '../api/client';
import { useAuditLog } from '../api/queries';
import { formatDateTime } from '../lib/format';
import { roleLabels } from '../lib/messages';

const verbs: Record<AuditEntry['action'], string> = {
  'user.create': 'created',
  'user.delete': 'deleted',
  'user.verify': 'verified',
  'user.role': 'changed the role of',
  'user.invite': 'invited',
  'user.recovery': 'sent a password recovery link to',
  'user.magic_link': 'sent a sign-in link to',
  'user.sign_out': 'signed out everywhere',
  'user.ban': 'changed the ban of',
  'user.export': 'exported',
  'user.passkey_delete': 'removed a passkey of',
  'outbox.reveal': 'revealed the links of a mail to',
  'account.delete': 'deleted their own account',
  'visitor_address.read': 'saw the address a visitor left for an answer by mail',
};

/** A ban's length as stored (a Go duration such as "24h"), in words: "24 hours", "7 days", "100 years". */
export function banLength(duration: string): string {
  const hours = /^(\d+)h$/.exec(duration)?.[1];
  if (!hours) return duration;
  const n = Number(hours);
  const unit = (count: number, word: string) => `${count.toLocaleString()} ${word}${count === 1 ? '' : 's'}`;
  if (n >= 8760 && n % 8760 === 0) return unit(n / 8760, 'year');
  if (n >= 48 && n % 24 === 0) return unit(n / 24, 'day');
  return unit(n, 'hour');
}

/** What an entry says the actor did, before the target: a ban and its lifting read apart. */
const verbOf = (e: AuditEntry): string =>
  e.action === 'user.ban'
    ? e.detail === 'none'
      ? 'lifted the ban of'
      : 'banned'
    : (verbs[e.action] ?? e.action);

const isRole = (value: unknown): value is keyof typeof roleLabels =>
  typeof value === 'string' && Object.hasOwn(roleLabels, value);

/** The latest entries of the audit log (who did what to whom, and when). */
export function RecentActivity() {
  const log = useAuditLog();
  const entries = log.data ?? [];
  return (
    <Card aria-labelledby="activity-title">
      <CardHeader>
        <CardTitle id="activity-title" className="flex items-center gap-2">
          <History className="size-5" aria-hidden /> Recent admin activity
        </CardTitle>
        <CardDescription>
          Every create, invite, mailed link, sign-out, ban, role change, export and delete (a user's own
          included) is recorded on the server.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {log.isError ? (
          <p className="text-sm text-destructive">The activity log could not be loaded.</p>
        ) : entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {log.isPending ? 'Loading…' : 'No admin actions yet'}
          </p>
        ) : (
          <ol className="grid gap-1 text-sm [overflow-wrap:anywhere]" aria-label="Recent admin actions">
            {entries.map((e) => (
              <li key={e.id}>
                <span className="font-medium">{e.actor_email}</span> {verbOf(e)}{' '}
                {e.action !== 'account.delete' && e.action !== 'visitor_address.read' && (
                  <span className="font-medium">
                    {e.target_email ?? (e.action === 'user.export' ? 'the user list' : 'a user')}
                  </span>
                )}
                {e.action === 'visitor_address.read' && e.detail && <> for &ldquo;{e.detail}&rdquo;</>}
                {e.action === 'user.role' && isRole(e.detail) && <> to {roleLabels[e.detail]}</>}
                {e.action === 'user.ban' && e.detail && e.detail !== 'none' && (
                  <> for {banLength(e.detail)}</>
                )}{' '}
                <time className="text-muted-foreground" dateTime={e.created_at}>
                  · {formatDateTime(e.created_at)}
                </time>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
