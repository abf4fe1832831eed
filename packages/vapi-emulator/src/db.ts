/**
 * The database the emulator needs: structurally the server's `Db` (PGlite or PostgreSQL), so the
 * emulator never imports the server.
 */
export interface EmulatorQueryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<{ rows: T[]; rowCount: number }>;
  exec(sql: string): Promise<void>;
}

export interface EmulatorDb extends EmulatorQueryable {
  transaction<T>(fn: (tx: EmulatorQueryable) => Promise<T>): Promise<T>;
}

/** Timestamps come back as Date from both drivers; the API speaks ISO strings. */
export const iso = (value: unknown): string =>
  value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();

/** jsonb comes back parsed from both drivers, but be tolerant of a string. */
export const json = <T>(value: unknown): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : (value as T);
