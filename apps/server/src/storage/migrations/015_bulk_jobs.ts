import type { Migration } from '../migrations.js';

/*
 * Bulk creation from a template (docs/templates.md, "Bulk"): a job (`bulk_jobs`), its rows as requested with each
 * one's result (`bulk_job_rows`: a created row's session keys sealed with the server's secret until first read), and
 * the row keys that made a document of a template (`bulk_row_keys`), which keep a key from making a second one in
 * any later job of the organization. A row's document, its result and its key are written in one transaction.
 */
export const bulkJobs: Migration = {
  version: 15,
  name: 'bulk_jobs',
  up: ({ bigint, bytes, bytewiseText }) => `
    CREATE TABLE bulk_jobs (
      id ${bytewiseText} PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations (id),
      template_id TEXT NOT NULL,
      template_version INTEGER NOT NULL,
      api_key_id TEXT NOT NULL,
      sessions TEXT,
      status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed')),
      total INTEGER NOT NULL,
      created INTEGER NOT NULL,
      failed INTEGER NOT NULL,
      created_at ${bigint} NOT NULL,
      completed_at ${bigint}
    );
    CREATE INDEX bulk_jobs_organization_created ON bulk_jobs (organization_id, created_at DESC, id DESC);
    CREATE TABLE bulk_job_rows (
      bulk_job_id TEXT NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
      idx INTEGER NOT NULL,
      row_key TEXT NOT NULL,
      request TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'created', 'failed')),
      document_id TEXT,
      error_field TEXT,
      error_reason TEXT,
      sessions ${bytes},
      PRIMARY KEY (bulk_job_id, idx)
    );
    CREATE INDEX bulk_job_rows_pending ON bulk_job_rows (bulk_job_id, status, idx);
    CREATE TABLE bulk_row_keys (
      organization_id TEXT NOT NULL,
      template_id TEXT NOT NULL,
      row_key TEXT NOT NULL,
      document_id TEXT NOT NULL,
      PRIMARY KEY (organization_id, template_id, row_key)
    );
  `,
};
