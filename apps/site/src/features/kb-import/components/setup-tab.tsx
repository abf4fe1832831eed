import { isVapiApiError } from '@engage/vapi-client';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useAssistants } from '../hooks/use-assistants';
import type { KbImport } from '../hooks/use-kb-import';
import { messages } from '../lib/messages';

export function SetupTab({
  kb,
  serverHoldsPrivateKey,
  providerName,
}: {
  kb: KbImport;
  serverHoldsPrivateKey: boolean;
  providerName: string;
}) {
  const assistants = useAssistants(kb);
  const list = (assistants.data ?? []).filter((a) => a.id !== '');
  const loadError = assistants.error
    ? isVapiApiError(assistants.error)
      ? assistants.error.status === 401
        ? messages.invalidApiKey
        : `Failed to load assistants: ${assistants.error.status} ${assistants.error.statusText}`
      : `Failed to load assistants: ${assistants.error.message}`
    : null;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <Label htmlFor="kb-api-key">Private API key</Label>
        <Input
          id="kb-api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={serverHoldsPrivateKey ? 'Held by the server' : `Your ${providerName} private key`}
          value={serverHoldsPrivateKey ? '' : kb.apiKey}
          onChange={(e) => kb.setApiKey(e.target.value)}
          disabled={serverHoldsPrivateKey}
          aria-describedby="kb-api-key-note"
        />
        <p id="kb-api-key-note" className="text-sm text-muted-foreground">
          {serverHoldsPrivateKey
            ? `The server holds the ${providerName} private key; requests go through it with your session.`
            : 'Use the private key, not the public one. It is kept in this browser only.'}
        </p>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="kb-assistant">Assistant</Label>
        <Select
          value={list.some((a) => a.id === kb.assistantId) ? kb.assistantId : ''}
          onValueChange={kb.setAssistantId}
          disabled={!kb.hasKey || list.length === 0}
        >
          <SelectTrigger id="kb-assistant" aria-describedby="kb-assistant-note">
            <SelectValue
              placeholder={
                !kb.hasKey
                  ? 'Enter the API key first'
                  : assistants.isLoading
                    ? 'Loading assistants…'
                    : list.length === 0
                      ? 'No assistants found'
                      : 'Select an assistant'
              }
            />
          </SelectTrigger>
          <SelectContent>
            {list.map((a) => (
              <SelectItem key={a.id} value={a.id}>
                {a.name || a.id}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <p id="kb-assistant-note" className="text-sm text-muted-foreground">
          The knowledge base's query tool is attached to this assistant; its other tools are kept.
        </p>
        {loadError && (
          <Alert variant="destructive">
            <AlertDescription>{loadError}</AlertDescription>
          </Alert>
        )}
      </div>
    </div>
  );
}
