/** Every route of the site, in one place (SPEC §2). */
export const paths = {
  home: { path: '/', label: null },
  ediscovery: { path: '/ediscovery', label: 'Sales Engineer' },
  onboarding: { path: '/onboarding', label: 'Project Onboarding' },
  kbImport: { path: '/kb-import', label: 'kb import' },
  admin: { path: '/admin', label: 'Admin' },
} as const;
