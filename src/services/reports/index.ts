/** Reports (issue 14): MTTA/MTTR and the workspace's incident figures, as JSON, CSV or PDF. */
export { generateReport, DEFAULT_ZONE, NOISY_SOURCES, type ReportRequest } from './generate';
export { reportCsv, INCIDENT_COLUMNS, FIGURE_COLUMNS } from './csv';
export { reportPdf, pdfTitle, PDF_INCIDENT_ROWS } from './pdf';
