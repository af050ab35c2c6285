/** "1 message", "2 messages", "0 messages": a count with its noun agreeing (never "message(s)"). */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
