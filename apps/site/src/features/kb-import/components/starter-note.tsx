/** The embedded provider's starter documents (the server seeds one per landing assistant). */
const STARTER = /^starter-(index|ediscovery|onboarding)\.md$/;

/**
 * Says what the starter documents are and how to replace them, while the provider holds any: out of
 * the box each landing page's assistant answers from one, made from the site's configuration.
 */
export function StarterNote({ names }: { names: readonly string[] }) {
  const starters = names.filter((n) => STARTER.test(n));
  if (starters.length === 0) return null;
  return (
    <div
      role="note"
      aria-label="Starter documents"
      className="rounded-md border border-border bg-muted/40 p-4 text-sm"
    >
      <p>
        <strong>{starters.join(', ')}</strong>{' '}
        {starters.length === 1 ? 'is a starter document' : 'are starter documents'}: until you give them your
        own, the landing pages&rsquo; assistants answer from these, written from the site&rsquo;s
        configuration (its title and roles).
      </p>
      <p className="mt-2">
        To replace one, upload your documents and build a query tool or knowledge base for that assistant on
        the Setup and Import tabs (its other tools are kept), then delete the starter file here.
      </p>
    </div>
  );
}
