import { XIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useKbImport, type KbImportEnvironment } from '../hooks/use-kb-import';
import { FilesTab } from './files-tab';
import { ImportTab } from './import-tab';
import { LogsTab } from './logs-tab';
import { SetupTab } from './setup-tab';

export type KbImportToolProps = KbImportEnvironment;

/** The knowledge base bulk import tool: one card, four tabs. */
export function KbImportTool(props: KbImportToolProps) {
  const kb = useKbImport(props);
  const [tab, setTab] = useState('setup');
  const { alert, announcement } = kb.state;
  useLeaveWarning(kb.state.upload.running);
  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      <Card>
        <CardHeader>
          <CardTitle level={1} className="text-2xl">
            {props.providerName} Knowledge Base Bulk Import Tool
          </CardTitle>
          <CardDescription>
            Upload documents to {props.providerName}, build a query tool from them and attach it to an
            assistant.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {alert && (
            <Alert variant={alert.variant} className="pr-10">
              <AlertDescription className="break-words">{alert.message}</AlertDescription>
              <Button
                variant="ghost"
                size="icon"
                className="absolute top-1.5 right-1.5 size-7"
                aria-label="Dismiss message"
                onClick={() => kb.controller.dismissAlert()}
              >
                <XIcon aria-hidden />
              </Button>
            </Alert>
          )}
          <p className="sr-only" aria-live="polite" aria-atomic="true">
            {announcement}
          </p>
          <Tabs value={tab} onValueChange={setTab}>
            <TabsList aria-label="Import steps">
              <TabsTrigger value="setup">Setup</TabsTrigger>
              <TabsTrigger value="files">Files</TabsTrigger>
              <TabsTrigger value="import">Import</TabsTrigger>
              <TabsTrigger value="logs">Logs</TabsTrigger>
            </TabsList>
            <TabsContent value="setup">
              <SetupTab
                kb={kb}
                serverHoldsPrivateKey={props.serverHoldsPrivateKey}
                providerName={props.providerName}
              />
            </TabsContent>
            <TabsContent value="files">
              <FilesTab kb={kb} />
            </TabsContent>
            <TabsContent value="import">
              <ImportTab kb={kb} />
            </TabsContent>
            <TabsContent value="logs">
              <LogsTab logs={kb.state.logs} />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
    </main>
  );
}

/**
 * While files are being sent, leaving or reloading the page asks first (the browser's own
 * question): the upload would stop part way. Registered only then, so the page stays eligible for
 * the back/forward cache otherwise.
 */
function useLeaveWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return undefined;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium shows the question only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}
