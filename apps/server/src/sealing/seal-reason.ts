/*
 * How a seal names itself in its signature's `/Reason`: small, so that `/verify` reads it without loading the PDF
 * libraries into the server's process.
 */

const REASON_PREFIX = 'Sealed by Signet: document ';
const REASON = /^Sealed by Signet: document (\S+), submission (\S+)$/;

/**
 * The signature's `/Reason` for a seal: how a verifier tells Signet's seals (and which submission) from other
 * signatures. `parseSealReason` reads it back.
 * @example sealReason('doc_1', 'sub_2') // 'Sealed by Signet: document doc_1, submission sub_2'
 */
export function sealReason(documentId: string, submissionId: string): string {
  return `${REASON_PREFIX}${documentId}, submission ${submissionId}`;
}

/**
 * The document and submission a seal's `/Reason` names, or `null` when the text is not a Signet seal's.
 * @example parseSealReason('Sealed by Signet: document doc_1, submission sub_2') // { documentId: 'doc_1', submissionId: 'sub_2' }
 */
export function parseSealReason(text: string): { documentId: string; submissionId: string } | null {
  const match = REASON.exec(text);
  return match ? { documentId: match[1]!, submissionId: match[2]! } : null;
}
