/** The exact strings for the accounts screens. */
export const authText = {
  title: 'Welcome',
  description: 'Sign in to your account or create a new one',
  protectedTitle: 'Protected Resource',
  protectedBody: "This area requires authentication. Sign up if you'd like access and we'll get you set up.",
  passwordsDoNotMatch: 'Passwords do not match',
  emailRequired: 'Please enter your email address',
  // The same for a new address and one that already has an account (no enumeration): it claims
  // only what happened in both cases; the mail says which it was.
  signUpSuccess:
    'Check your email. If this address is new here, we sent a link and a six-digit code to confirm it: confirm it before you sign in (an admin has been told of your sign-up). If it already has an account, the mail says how to sign in.',
  resetSent: 'Check your email for the password reset link!',
  // Beyond the original screens (Supabase Auth UI's magic link and resend).
  emailMeALink: 'Email me a sign-in link',
  signInLinkSent: (email: string) =>
    `We sent a sign-in link and a six-digit code to ${email}. Follow the link, or type the code here.`,
  resendConfirmation: 'Resend confirmation email',
  confirmationResent: 'We sent the confirmation email again. Check your inbox.',
  // The mailed codes, the interval between mails, a wrong code.
  signUpCodeHint: 'Or type the six-digit code from the mail here.',
  resetCodeHint: 'Or type the six-digit code from the reset mail here; you then choose the new password.',
  sendNewCode: 'Send a new code',
  resendIn: (label: string, seconds: number) => `${label} (in ${seconds} s)`,
  // A sign-in link and a password reset share one wait per address (one mail a minute).
  linkWait: (seconds: number) =>
    `A sign-in link or a password reset was mailed to this address moments ago, and they share one wait: another can be sent in ${seconds} seconds.`,
  resendWait: (seconds: number) =>
    `A new mail can be sent in ${seconds} seconds: the last one may still be on its way.`,
  codeWrongOrExpired:
    'That code is wrong or has expired. Check it against the newest mail, or ask for a new one below.',
  notConfirmed:
    'Your email address is not confirmed yet. Follow the link in the confirmation mail, or type its code.',
  inviteCodeDescription:
    'Type your email address and the six-digit code from the invitation mail (or follow its link).',
  inviteCodeWrong:
    'That code is wrong or has expired. Check it against the newest invitation mail, or ask the administrator to send a new one.',
  inviteTitle: 'Accept your invitation',
  inviteDescription: (email: string) => `Choose a password for ${email} to finish setting up your account.`,
  invitePasswordSet: 'Your password is set. Welcome!',
  mfaTitle: 'Two-factor authentication',
  mfaDescription: 'Enter the six-digit code from your authenticator app to finish signing in.',
  mfaNoFactor: 'No verified authenticator app was found for this account.',
  // ADMIN_REQUIRE_MFA, the server's 403 mfa_enrollment_required.
  mfaEnrolTitle: 'Set up two-factor authentication',
  mfaEnrolBody:
    'Administrators of this site must use an authenticator app. Add one in your profile, then come back to the dashboard.',
  mfaEnrolLink: 'Set up an authenticator app',
  // Passkeys and security keys.
  signInWithPasskey: 'Sign in with a passkey',
  useRecoveryCode: 'Lost your authenticator? Use a recovery code',
  recoveryCodeHelp: 'One of the codes you saved when you set up two-factor authentication. Each works once.',
  recoveryCodeRequired: 'Type one of your recovery codes.',
  passkeyCancelled: 'No passkey was used: the request was cancelled or timed out.',
  passkeyCounterBehind:
    'This passkey was refused: it counted fewer uses than it had before, which happens when a passkey was copied or its device restored from a backup. Sign in another way, then remove it on your profile and add it again.',
  passkeyNotVerified: 'This passkey could not be verified. Try again, or sign in another way.',
  passkeyUnsupported: 'This browser cannot use passkeys.',
  useSecurityKey: 'Use your security key',
  mfaKeyDescription:
    'Use your security key or passkey, or enter the six-digit code from your authenticator app.',
  // The account was deleted or the session revoked elsewhere (a refused refresh signs out).
  sessionEnded: 'Your session has ended. Please sign in again.',
  emailConfirmed: 'Your email address is confirmed, and you are signed in.',
} as const;
