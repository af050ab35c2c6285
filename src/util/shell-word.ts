/** A name as one shell word, for the commands we print (a name with a space or quote is single-quoted). */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_.:@%+=/-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
