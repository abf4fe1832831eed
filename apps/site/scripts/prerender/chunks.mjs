// The build's chunks, from Vite's manifest: what a module needs loaded before it runs.

/** @param {Record<string, { file: string, imports?: string[], isEntry?: boolean }>} manifest */
export function chunkGraph(manifest) {
  /** Chunk keys a module statically imports, itself included. */
  const closure = (key, seen = new Set()) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return seen;
    seen.add(key);
    for (const imported of chunk.imports ?? []) closure(imported, seen);
    return seen;
  };
  const fileOf = (key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The build has no chunk for ${key}.`);
    return `/${chunk.file}`;
  };
  const appEntry = Object.keys(manifest).find((k) => manifest[k].isEntry && k.endsWith('.html'));
  if (!appEntry) throw new Error("The build's manifest has no index.html entry.");
  const appChunks = closure(appEntry);
  return {
    fileOf,
    /** The files a page module needs beyond the app's entry (whose own chunks the template preloads). */
    pageFiles: (key) => [...closure(key)].filter((k) => !appChunks.has(k)).map(fileOf),
    /** An entry's file and the files it imports. */
    entryFiles: (key) => ({
      entry: fileOf(key),
      preloads: [...closure(key)].filter((k) => k !== key).map(fileOf),
    }),
  };
}
