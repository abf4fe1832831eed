/** 'sales engineer' → 's a l e s e n g i n e e r': the landing pages' letter-spaced titles. */
export function spaceOut(text: string): string {
  return [...text.replace(/\s+/g, '')].join(' ');
}
