/** Drawing on a pdfkit page: headings, tables that continue over pages, and bar charts in vector graphics. */
import type PDFDocument from 'pdfkit';

type Doc = InstanceType<typeof PDFDocument>;

const ROW = 15;
const INK = '#1f2933';
const MUTED = '#6b7280';
const BAR = '#d9480f';
/** Room left of a chart for its scale (`5 min 50 s`). */
const AXIS = 56;

/** The built-in fonts speak WinAnsi: other characters (emoji, CJK) become `?` instead of garbage. */
export const pdfText = (value: string | number | null): string => (value === null ? '-' : String(value).replace(/[^\x20-\x7e\xa0-\xff]/g, '?'));

const bottom = (doc: Doc) => doc.page.height - doc.page.margins.bottom;
const left = (doc: Doc) => doc.page.margins.left;
const usableWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

/** Starts a new page unless `height` still fits on this one. */
export function ensureRoom(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

/** A section heading. */
export function heading(doc: Doc, title: string): void {
  ensureRoom(doc, 3 * ROW);
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(12).fillColor(INK).text(pdfText(title), left(doc), doc.y);
  doc.moveDown(0.3);
}

/** A muted line of explanation. */
export function note(doc: Doc, line: string): void {
  ensureRoom(doc, ROW);
  doc.font('Helvetica').fontSize(8).fillColor(MUTED).text(pdfText(line), left(doc), doc.y);
}

/** A table; `widths` are shares of the page width. Its header is repeated on each new page. */
export function table(doc: Doc, header: string[], rows: Array<Array<string | number | null>>, widths: number[]): void {
  const total = widths.reduce((a, b) => a + b, 0);
  const xs: number[] = [];
  let x = left(doc);
  const cols = widths.map((w) => {
    xs.push(x);
    const width = (w / total) * usableWidth(doc);
    x += width;
    return width;
  });
  const line = (cells: Array<string | number | null>, bold: boolean) => {
    const y = doc.y;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(8)
      .fillColor(INK);
    cells.forEach((c, i) => doc.text(pdfText(c), xs[i] + 2, y + 3, { width: cols[i] - 4, height: ROW, lineBreak: false, ellipsis: true }));
    doc.y = y + ROW;
  };
  const head = () => {
    ensureRoom(doc, 2 * ROW);
    doc.rect(left(doc), doc.y, usableWidth(doc), ROW).fill('#eef0f3');
    line(header, true);
  };
  head();
  for (const r of rows) {
    if (doc.y + ROW > bottom(doc)) {
      doc.addPage();
      head();
    }
    line(r, false);
  }
  doc.x = left(doc);
}

/** A vertical bar chart with its axis, a scale and (when they fit) every label. */
export function barChart(doc: Doc, bars: Array<{ label: string; value: number }>, opts: { height?: number; format?: (v: number) => string } = {}): void {
  const height = opts.height ?? 140;
  const format = opts.format ?? ((v: number) => String(v));
  ensureRoom(doc, height + 3 * ROW);
  const x0 = left(doc) + AXIS;
  const width = usableWidth(doc) - AXIS;
  const top = doc.y + 6;
  const base = top + height;
  const max = Math.max(1, ...bars.map((b) => b.value));
  doc.font('Helvetica').fontSize(7).fillColor(MUTED);
  doc.text(pdfText(format(max)), left(doc), top - 3, { width: AXIS - 4, align: 'right', lineBreak: false });
  doc.text('0', left(doc), base - 4, { width: AXIS - 4, align: 'right', lineBreak: false });
  doc
    .moveTo(x0, top)
    .lineTo(x0, base)
    .lineTo(x0 + width, base)
    .lineWidth(0.7)
    .strokeColor(MUTED)
    .stroke();
  const slot = width / Math.max(1, bars.length);
  const every = Math.max(1, Math.ceil(bars.length / Math.floor(width / 40)));
  bars.forEach((b, i) => {
    const h = (b.value / max) * (height - 4);
    if (h > 0) doc.rect(x0 + i * slot + slot * 0.15, base - h, slot * 0.7, h).fill(BAR);
    if (i % every === 0) {
      doc
        .fillColor(MUTED)
        .text(pdfText(b.label), x0 + i * slot, base + 3, { width: slot * every, align: every === 1 ? 'center' : 'left', lineBreak: false, ellipsis: true });
    }
  });
  doc.fillColor(INK);
  doc.y = base + 2 * ROW;
  doc.x = left(doc);
}
