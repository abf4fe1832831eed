/** The avatar's look, shared by the navigation's first-paint avatar and the menu's trigger. */
export const avatarClass =
  'flex size-9 items-center justify-center rounded-full bg-sky-700 text-sm font-semibold text-white hover:bg-sky-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-400';

/** The user's initial: the first letter of their email. */
export const initialOf = (email: string) => (email.trim()[0] ?? '?').toUpperCase();
