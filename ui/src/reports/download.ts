import { ApiError, type ApiErrorBody } from '../api/client';
import type { ReportRequest } from './report-request';

/**
 * Downloads a report as CSV or PDF. The route is a POST that needs the CSRF header, which a
 * plain link cannot send, so the file is fetched (the session cookie rides along, same origin)
 * and handed to the browser as a download under the server's file name.
 */
export async function downloadReport(request: ReportRequest, format: 'csv' | 'pdf', csrfToken: string): Promise<string> {
  const res = await fetch('/api/reports/generate', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken },
    body: JSON.stringify({ ...request, format }),
  });
  if (!res.ok) {
    const err = (await res.json().catch(() => undefined)) as ApiErrorBody | undefined;
    throw new ApiError(res.status, err?.code ?? 'error', err?.error ?? `the server answered ${res.status}`);
  }
  const filename = fileNameOf(res.headers.get('Content-Disposition')) ?? `klaxon-${request.type}.${format}`;
  saveAs(await res.blob(), filename);
  return filename;
}

/** The file name in `attachment; filename="klaxon-summary-2026-12-01-2026-12-07.pdf"`. */
export function fileNameOf(disposition: string | null): string | undefined {
  return disposition ? /filename="([^"]+)"/.exec(disposition)?.[1] : undefined;
}

function saveAs(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  // Not revoked at once: some browsers read the blob after click() returns (FileSaver.js waits 40 s).
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
}
