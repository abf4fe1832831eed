import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { OneTimeCodeField } from '@/components/ui/credential-fields';
import { profileText } from '../messages';
import { qrImageSource } from '../qr-image';
import { FormMessage, type Outcome } from './form-message';

export interface Enrolment {
  factorId: string;
  qrCode: string;
  secret: string;
}

/**
 * An enrolment under way: the QR code and the key to type, then the code the app shows. A copy the
 * browser refuses (no clipboard permission, an insecure origin) says so: the key stays selectable.
 */
export function TotpEnrolment({
  enrolment,
  busy,
  outcome,
  onVerify,
  onCancel,
}: {
  enrolment: Enrolment;
  busy: boolean;
  outcome: Outcome;
  onVerify: (code: string, clear: () => void) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [copy, setCopy] = useState<'copied' | 'failed' | null>(null);
  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(enrolment.secret);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onVerify(code.trim(), () => setCode(''));
  };
  return (
    <form className="grid gap-4" aria-label="Set up an authenticator app" onSubmit={submit}>
      <p className="text-sm">{profileText.scanHelp}</p>
      <img
        src={qrImageSource(enrolment.qrCode)}
        alt="QR code to scan with your authenticator app"
        className="size-48 rounded-md border border-border bg-white p-2"
      />
      <div className="grid gap-2">
        <span className="text-sm font-medium" id="totp-key-label">
          Key to type into the app
        </span>
        <div className="flex flex-wrap items-center gap-2">
          <code
            aria-labelledby="totp-key-label"
            className="rounded bg-muted px-2 py-1 font-mono text-sm break-all select-all"
            data-testid="totp-secret"
          >
            {enrolment.secret}
          </code>
          <Button variant="outline" size="sm" onClick={() => void copyKey()}>
            Copy key
          </Button>
          <span aria-live="polite" className="text-sm text-muted-foreground">
            {copy === 'copied' ? profileText.copied : copy === 'failed' ? profileText.copyFailed : ''}
          </span>
        </div>
      </div>
      <OneTimeCodeField label="Authentication code" value={code} onValueChange={setCode} />
      <FormMessage outcome={outcome} />
      <div className="flex gap-2">
        <Button type="submit" disabled={busy} aria-busy={busy}>
          Verify and turn on
        </Button>
        <Button variant="outline" disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
