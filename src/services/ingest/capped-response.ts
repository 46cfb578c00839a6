/**
 * A response body as UTF-8 text, read up to `maxBytes`: undefined (and the rest never read) when
 * it is longer, whether or not it said so in Content-Length.
 */
export async function readCappedText(res: Response, maxBytes: number): Promise<string | undefined> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > maxBytes || !res.body) {
    await res.body?.cancel();
    return declared > maxBytes ? undefined : '';
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
