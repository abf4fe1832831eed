/** Every route of the site, in one place. */
export const paths = {
  home: { path: '/', label: null },
  ediscovery: { path: '/ediscovery', label: 'Sales Engineer' },
  onboarding: { path: '/onboarding', label: 'Project Onboarding' },
  kbImport: { path: '/kb-import', label: 'KB Import' },
  conversations: { path: '/conversations', label: 'Conversations' },
  admin: { path: '/admin', label: 'Admin' },
  /** Public: the auth card on a page of its own, for visitors who look for it in the navigation. */
  signIn: { path: '/sign-in', label: 'Sign in' },
  signUp: { path: '/sign-up', label: 'Sign up' },
} as const;
