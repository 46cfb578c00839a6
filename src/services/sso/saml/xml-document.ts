import { DOMParser } from '@xmldom/xmldom';

/** The namespaces Klaxon reads SAML documents by (prefixes are the sender's choice). */
export const SAML_NS = {
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

export type XmlDocumentResult = { ok: true; root: Element } | { ok: false; message: string };

/**
 * Parses XML with the same DOM library node-saml uses; any parser error or warning about broken
 * markup refuses it, and so does a DOCTYPE: SAML never needs one, and refusing it closes the door
 * on entity tricks whatever the parser would do with them. Messages never quote the input.
 */
export function parseXmlDocument(xml: string): XmlDocumentResult {
  let broken = false;
  const onProblem = () => {
    broken = true;
  };
  let doc: Document;
  try {
    doc = new DOMParser({ errorHandler: { warning: onProblem, error: onProblem, fatalError: onProblem } }).parseFromString(xml, 'text/xml');
  } catch {
    return { ok: false, message: 'it does not parse as XML' };
  }
  if (broken || !doc?.documentElement) return { ok: false, message: 'it does not parse as XML' };
  if (doc.doctype || Array.from(doc.childNodes).some((n) => n.nodeType === 10)) return { ok: false, message: 'a DOCTYPE is not allowed' };
  return { ok: true, root: doc.documentElement };
}
