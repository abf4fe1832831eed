import { Copy } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { EmbedSettings } from '../api/client';
import { useEmbedSettings } from '../api/queries';
import { FetchError } from './fetch-error';

/** The tag a site adds: the hashed script with its integrity (SRI needs crossorigin), and the element. */
export function embedSnippet(settings: EmbedSettings, assistantId: string): string {
  const { origin, script } = settings;
  const tag = script
    ? `<script src="${origin}${script.hashedScript}" integrity="${script.integrity}" crossorigin="anonymous" async></script>`
    : `<script src="${origin}/embed.js" async></script>`;
  return `${tag}\n<engage-widget assistant="${assistantId}"></engage-widget>`;
}

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(`${what} copied`);
  } catch {
    toast.error(`The ${what.toLowerCase()} could not be copied; select it and copy it instead`);
  }
}

/**
 * The dashboard's "Embed" panel: the snippet for each assistant, the sites allowed to run
 * it (EMBED_ORIGINS), the content-hashed script with its SRI hash, and a preview: the element
 * itself, as a site would show it, in this page.
 */
export function EmbedPanel({ renderPreview }: { renderPreview?: (assistantId: string) => ReactNode }) {
  const query = useEmbedSettings();
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Embed</h2>
        </CardTitle>
        <CardDescription>
          Put an assistant on your own site: add its snippet to the page. Only the sites listed here may use
          it (EMBED_ORIGINS on the server).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-4">
        {query.isPending && <p className="text-sm text-muted-foreground">Loading…</p>}
        {query.isError && <FetchError error={query.error} onRetry={() => void query.refetch()} />}
        {query.data && <EmbedDetails settings={query.data} renderPreview={renderPreview} />}
      </CardContent>
    </Card>
  );
}

function EmbedDetails({
  settings,
  renderPreview,
}: {
  settings: EmbedSettings;
  renderPreview: ((assistantId: string) => ReactNode) | undefined;
}) {
  const { script, origins } = settings;
  const [preview, setPreview] = useState(false);
  const previewed = renderPreview && settings.assistants.find((a) => a.embeddable);
  return (
    <>
      {previewed && (
        <div className="flex flex-wrap items-center gap-2">
          <Button size="sm" variant="outline" aria-pressed={preview} onClick={() => setPreview((on) => !on)}>
            {preview ? 'Hide the preview' : 'Preview the widget'}
          </Button>
          {preview && (
            <p className="text-sm text-muted-foreground">
              The widget shows at the bottom left, as on a site (the same element).
            </p>
          )}
          {preview && renderPreview(previewed.id)}
        </div>
      )}
      <section aria-label="Allowed sites" className="grid gap-1">
        <h3 className="text-sm font-semibold">Allowed sites</h3>
        {origins.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            None: only this site&apos;s own pages. Set EMBED_ORIGINS (for example
            https://shop.example,https://blog.example) and restart the server.
          </p>
        ) : (
          <ul className="list-disc pl-5 text-sm break-all">
            {origins.map((origin) => (
              <li key={origin}>{origin}</li>
            ))}
          </ul>
        )}
      </section>
      <section aria-label="Script" className="grid min-w-0 gap-1 text-sm">
        <h3 className="font-semibold">Script</h3>
        {script ? (
          <>
            <p>
              Always current: <code className="break-all">{`${settings.origin}${script.script}`}</code>
            </p>
            <p>
              This build, cached for a year:{' '}
              <code className="break-all">{`${settings.origin}${script.hashedScript}`}</code>
            </p>
            <p>
              SRI: <code className="break-all">{script.integrity}</code>
            </p>
            <p className="text-muted-foreground">{`${(script.gzipBytes / 1024).toFixed(1)} kB gzip before the first click.`}</p>
          </>
        ) : (
          <p className="text-muted-foreground">This build has no embed script: run npm run build.</p>
        )}
      </section>
      <section aria-label="Snippets" className="grid min-w-0 gap-3">
        <h3 className="text-sm font-semibold">Snippets</h3>
        {settings.assistants.map((assistant) => {
          const snippet = embedSnippet(settings, assistant.id);
          return (
            <div key={assistant.id} className="grid min-w-0 gap-1">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="text-sm">
                  {assistant.page} ({assistant.id})
                </span>
                {assistant.embeddable && (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => void copy(snippet, 'Snippet')}
                    aria-label={`Copy the snippet for ${assistant.id}`}
                  >
                    <Copy aria-hidden /> Copy
                  </Button>
                )}
              </div>
              {assistant.embeddable ? (
                <pre className="overflow-x-auto rounded bg-muted p-2 text-xs break-all whitespace-pre-wrap">
                  {snippet}
                </pre>
              ) : (
                <p className="text-sm text-muted-foreground">
                  Sign-in only: its key is given to signed-in visitors of this site, so other sites cannot use
                  it.
                </p>
              )}
            </div>
          );
        })}
      </section>
    </>
  );
}
