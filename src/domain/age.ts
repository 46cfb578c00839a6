/** How long ago something happened, in the words a glance needs: "just now", "3 min ago", "2 h ago", "4 days ago". */
export function ageInWords(since: Date, now: Date = new Date()): string {
  const minutes = Math.floor((now.getTime() - since.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} days ago`;
}
