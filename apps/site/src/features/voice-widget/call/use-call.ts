import { useEffect, useState, useSyncExternalStore } from 'react';
import type { WidgetState } from '../lib/widget-state';
import { createCallController, type CallController, type CallSettings } from './call-controller';

/**
 * The widget's call for React: one controller per mounted view, its state read through
 * useSyncExternalStore, its settings kept up to date (a members key arrives after the page).
 */
export function useCall(settings: CallSettings): { call: CallController; state: WidgetState } {
  const [call] = useState(() => createCallController(settings));
  const { assistantId, publicKey, apiBaseUrl, loadSdk } = settings;
  useEffect(() => {
    call.attach();
    return () => call.detach();
  }, [call]);
  useEffect(() => {
    call.configure({ assistantId, publicKey, apiBaseUrl, loadSdk });
  }, [call, assistantId, publicKey, apiBaseUrl, loadSdk]);
  const state = useSyncExternalStore(call.subscribe, call.getSnapshot, call.getSnapshot);
  return { call, state };
}
