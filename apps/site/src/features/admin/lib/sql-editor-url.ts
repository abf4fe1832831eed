/**
 * Where the SQL editor of a hosted Supabase project lives, from the project's URL
 * (https://<ref>.supabase.co → its dashboard's new-query page). Null for the embedded auth, which
 * has no SQL editor; a custom domain gets the dashboard's project list.
 */
export function sqlEditorUrl(auth: { embedded: boolean; url: string | null }): string | null {
  if (auth.embedded || !auth.url) return null;
  try {
    const host = new URL(auth.url).hostname;
    const ref = /^([a-z0-9]+)\.supabase\.co$/i.exec(host)?.[1];
    return ref
      ? `https://supabase.com/dashboard/project/${ref}/sql/new`
      : 'https://supabase.com/dashboard/projects';
  } catch {
    return null;
  }
}
