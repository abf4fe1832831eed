/** 'sales engineer' → ['s a l e s', 'e n g i n e e r']: each word of a title spaced letter by letter. */
export function spacedWords(text: string): string[] {
  return text
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => [...word].join(' '));
}

/**
 * 'sales engineer' → 's a l e s e n g i n e e r': the landing pages' letter-spaced titles as text.
 * Where they are shown the words keep a wider gap (features/landing: `spacedWords`, one element each).
 */
export function spaceOut(text: string): string {
  return spacedWords(text).join(' ');
}
