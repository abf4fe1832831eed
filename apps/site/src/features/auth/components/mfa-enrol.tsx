import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { clearAssuranceDemand } from '@/lib/assurance';
import { authText } from '../messages';

/**
 * Shown instead of a page whose server answered 403 `mfa_enrollment_required` (ADMIN_REQUIRE_MFA):
 * the way to the profile's two-factor section. Following it forgets the demand, so the profile
 * itself shows; the dashboard asks again until an authenticator app is verified.
 */
export function MfaEnrolmentRequired() {
  return (
    <main className="mx-auto grid max-w-xl justify-items-start gap-4 px-4 py-16" role="alert">
      <ShieldCheck className="size-10 text-slate-700" aria-hidden />
      <h1 className="text-2xl font-semibold">{authText.mfaEnrolTitle}</h1>
      <p className="text-muted-foreground">{authText.mfaEnrolBody}</p>
      <Link
        to={{ pathname: '/profile', hash: '#two-factor-title' }}
        onClick={clearAssuranceDemand}
        className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        {authText.mfaEnrolLink}
      </Link>
    </main>
  );
}
