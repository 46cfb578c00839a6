/**
 * What an email page says (pure): the drill email with its acknowledge link. Incident emails are
 * src/domain/paging/messages.ts `emailBody` (account and digest emails share its look).
 */
import { DRILL_MARK } from '../../domain/drill-mark';
import { escapeMarkup as xml } from '../../domain/markup';

/** The drill email's subject, and its bodies with the acknowledge link. */
export function drillEmail(ackUrl: string): { subject: string; text: string; html: string } {
  const line = 'This is a test page: no incident was opened, nothing needs fixing.';
  return {
    subject: `${DRILL_MARK}: no incident`,
    text: `${line}\n\nShow that pages reach you: acknowledge within 10 minutes.\nAcknowledge: ${ackUrl}\n`,
    html: `<p><strong>${xml(DRILL_MARK)}</strong></p><p>${xml(line)}</p><p><a href="${xml(ackUrl)}">Acknowledge the drill</a></p>`,
  };
}
