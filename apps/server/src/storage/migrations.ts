import { initial } from './migrations/001_initial.js';
import { documentPreviews } from './migrations/002_document_previews.js';
import { sealing } from './migrations/003_sealing.js';
import { webhooks } from './migrations/004_webhooks.js';
import { signers } from './migrations/005_signers.js';
import { declines } from './migrations/006_declines.js';
import { sealImages } from './migrations/007_seal_images.js';
import { implicitSigner } from './migrations/008_implicit_signer.js';
import { jobs } from './migrations/009_jobs.js';
import { drafts } from './migrations/010_drafts.js';
import { voids } from './migrations/011_voids.js';
import { expiry } from './migrations/012_expiry.js';
import { erasure } from './migrations/013_erasure.js';
import { templates } from './migrations/014_templates.js';
import { bulkJobs } from './migrations/015_bulk_jobs.js';
import { sealLevel } from './migrations/016_seal_level.js';
import { emailDelivery } from './migrations/017_email_delivery.js';
import { signerVerification } from './migrations/018_signer_verification.js';
import { organizationBranding } from './migrations/019_organization_branding.js';
import type { DdlDialect, SqlDatabase } from './sql-database.js';

/**
 * A schema change, one file in `migrations/` named after its version. Applied once, in order of version, on both
 * engines, and recorded in `schema_migrations`. A migration is never edited once released: a change is a new one.
 */
export interface Migration {
  version: number;
  name: string;
  /** Its DDL (one or more statements), with the engine's types and clauses from `ddl`. */
  up(ddl: DdlDialect): string;
}

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = [initial, documentPreviews, sealing, webhooks, signers, declines, sealImages, implicitSigner, jobs, drafts, voids, expiry, erasure, templates, bulkJobs, sealLevel, emailDelivery, signerVerification, organizationBranding];

/**
 * Brings the schema up to date; safe to run on every start and from several instances at once.
 * @example await migrate(new SqliteDatabase(':memory:'))
 */
export async function migrate(db: SqlDatabase): Promise<void> {
  await db.migration(async (tx) => {
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at ${db.ddl.bigint} NOT NULL)`);
    const rows = await tx.all<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await tx.exec(migration.up(db.ddl));
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        migration.version,
        migration.name,
        Date.now(),
      ]);
    }
  });
}
