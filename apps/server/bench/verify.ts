import Database from 'libsql';
import { openStorage } from '../src/storage/index.js';

/** What the client saw of the submit load, to be held against what the database kept. */
export interface SubmitLedger {
  /** Checksum of every document a submission was sent for. */
  sent: Map<string, string>;
  /** Documents whose submission was answered 201. */
  accepted: Set<string>;
  /** Documents whose submission got any response. */
  answered: Set<string>;
}

export interface DurabilityReport {
  ok: boolean;
  accepted: number;
  storedSubmissions: number;
  completedDocuments: number;
  /** Sent but unanswered: cut off when a phase's time ran out (autocannon closes its connections). */
  cutOff: number;
  /** Of those, how many the server committed anyway. */
  cutOffCommitted: number;
  problems: string[];
}

/**
 * Reads the database after the server has stopped: every 201 must be a stored submission with the checksum sent,
 * each submission must complete its document, and nothing may be stored that was not sent. A submission stored
 * without a 201 is allowed only for a request cut off at the end of a phase, which the server finished anyway.
 */
export function verifyDurability(databasePath: string, ledger: SubmitLedger): DurabilityReport {
  const db = new Database(databasePath, { readonly: true });
  try {
    const rows = db.prepare('SELECT document_id, checksum FROM submissions').all([]) as StoredRow[];
    const completed = db.prepare("SELECT count(*) AS n FROM documents WHERE status = 'completed'").get([]) as { n: number };
    return judgeDurability(rows, Number(completed.n), ledger);
  } finally {
    db.close();
  }
}

/** `verifyDurability` of a store on PostgreSQL (or any `databaseUrl`), read through the storage's typed queries. */
export async function verifyDurabilityAt(databaseUrl: string, ledger: SubmitLedger): Promise<DurabilityReport> {
  const storage = await openStorage(databaseUrl);
  try {
    const rows = await storage.db.query.selectFrom('submissions').select(['document_id', 'checksum']).execute();
    const completed = await storage.db.query
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'completed')
      .executeTakeFirstOrThrow();
    return judgeDurability(rows, Number(completed.n), ledger);
  } finally {
    await storage.close();
  }
}

type StoredRow = { document_id: string; checksum: string };

function judgeDurability(rows: StoredRow[], completedDocuments: number, ledger: SubmitLedger): DurabilityReport {
  const problems: string[] = [];
  const stored = new Map(rows.map((row) => [row.document_id, row.checksum]));
  let missing = 0;
  let wrongChecksum = 0;
  for (const documentId of ledger.accepted) {
    const checksum = stored.get(documentId);
    if (checksum === undefined) missing++;
    else if (checksum !== ledger.sent.get(documentId)) wrongChecksum++;
  }
  if (missing > 0) problems.push(`${missing} submissions answered 201 are not in the database`);
  if (wrongChecksum > 0) problems.push(`${wrongChecksum} stored submissions carry another checksum than the one sent`);

  let cutOffCommitted = 0;
  let unexplained = 0;
  for (const documentId of stored.keys()) {
    if (ledger.accepted.has(documentId)) continue;
    if (ledger.sent.has(documentId) && !ledger.answered.has(documentId)) cutOffCommitted++;
    else unexplained++;
  }
  if (unexplained > 0) problems.push(`${unexplained} stored submissions were neither answered 201 nor cut off in flight`);
  if (completedDocuments !== stored.size) {
    problems.push(`${completedDocuments} completed documents for ${stored.size} submissions`);
  }
  let cutOff = 0;
  for (const documentId of ledger.sent.keys()) if (!ledger.answered.has(documentId)) cutOff++;

  return {
    ok: problems.length === 0,
    accepted: ledger.accepted.size,
    storedSubmissions: stored.size,
    completedDocuments,
    cutOff,
    cutOffCommitted,
    problems,
  };
}
