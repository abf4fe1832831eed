import { useMemo } from 'react';
import { createEngageApi, type EngageApi } from './engage-api';
import { useSessionSource } from './session';
import { getAccessToken } from './supabase';

/** Engage's API client for the signed-in user's pages: their token, and 401s asked about. */
export function useEngageApi(): EngageApi {
  const { confirm } = useSessionSource();
  return useMemo(() => createEngageApi({ getAccessToken, onSessionRefused: confirm }), [confirm]);
}
