/** `a, b or c`: a list of choices as a sentence names them. */
export function orList(words: readonly string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}` : words.join('');
}
