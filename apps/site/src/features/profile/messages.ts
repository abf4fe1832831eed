/** The profile page's texts (Supabase's own wording where it has one). */
export const profileText = {
  title: 'Profile',
  /** the sign-up message, for the same mistake here. */
  passwordsDoNotMatch: 'Passwords do not match',
  passwordUpdated: 'Your password has been updated.',
  deleteHelp:
    'Deleting your account removes its sign-in, passkeys and two-factor settings for good; it cannot be undone.',
  deleteConfirmLabel: (email: string) => `Type ${email} to confirm`,
  deleteConfirmMismatch: 'Type your account’s email address exactly to confirm.',
  deleteFailed: (status: number) =>
    status
      ? `The account could not be deleted (the server answered ${status}). Try again.`
      : 'The account could not be deleted: the server could not be reached. Try again.',
  accountDeleted: 'Your account has been deleted.',
  signInAgain: 'Your session has ended: sign in again, then delete the account.',
  currentPasswordHint:
    'Leave it empty if your account has no password yet (you sign in with a mailed link or a passkey).',
  reauthenticationSent: (email: string) =>
    `For your security, we sent a verification code to ${email}. Enter it to confirm the new password.`,
  emailChangeSent: (current: string, next: string) =>
    `We sent a confirmation link to ${current} and to ${next}. Your address changes once both are confirmed.`,
  /** The current address again (the embedded auth says the same; hosted GoTrue ignores it). */
  emailUnchanged: 'This is already your email address.',
  // The email change's mailed codes.
  emailChangeCodesHelp: 'Or type the six-digit code of each mail here.',
  emailChangeConfirmed: (address: string) => `The mail to ${address} is confirmed.`,
  emailChangeHalf: (address: string) => `Confirmed. Now the code (or the link) of the mail to ${address}.`,
  emailChanged: (address: string) => `Your email address is now ${address}.`,
  emailChangeCodeWrong: (address: string) =>
    `The code for ${address} is wrong or has expired. Check it against the newest mail to that address, or change the email again for new codes.`,
  totpOn: 'Two-factor authentication is on. You will be asked for a code from your app when you sign in.',
  totpRemoved: 'The authenticator app was removed.',
  noFactors: 'Two-factor authentication is off.',
  recoveryShownOnce:
    'Save these recovery codes somewhere safe: each signs you in once if you lose your authenticator. They are shown only now.',
  recoveryFileIntro:
    'Recovery codes: each one can be used once instead of a code from your authenticator, at the second sign-in step.',
  recoveryLeft: (n: number) =>
    `${n} recovery code${n === 1 ? '' : 's'} left: each signs you in once if you lose your authenticator.`,
  recoveryNone: 'No recovery codes: make some, so losing your authenticator does not lock you out.',
  recoveryCopied: 'Recovery codes copied.',
  scanHelp:
    'Scan the QR code with your authenticator app, or type the key below into it. Then enter the six-digit code it shows.',
  copied: 'Key copied.',
  copyFailed: 'The key could not be copied here: select it and copy it yourself, or type it into the app.',
  // Passkeys and security keys.
  passkeysHelp:
    'A passkey signs you in with your fingerprint, face or device PIN instead of a password. It stays on your device or in your password manager.',
  noPasskeys: 'You have no passkeys yet.',
  passkeyAdded: 'Passkey added. You can now sign in with it.',
  passkeyRenamed: 'Passkey renamed.',
  passkeyRemoved: 'Passkey removed.',
  passkeyUnsupported: 'This browser cannot create passkeys.',
  passkeyCancelled: 'No passkey was created: the request was cancelled or timed out.',
  securityKeyRemoved: 'The security key was removed.',
  securityKeyOn: 'Your security key is set up. Signing in will ask for it (or a code from your app).',
} as const;
