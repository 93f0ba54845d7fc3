import type { PadesLevel } from '@signet/contract';

/*
 * The tables as the typed queries see them (Kysely), column for column what `migrations/` creates on both engines.
 * Times are epoch milliseconds; booleans are 0/1 integers; JSON documents are text; bytes are `Uint8Array`.
 * A new migration changes this file in the same commit.
 */

/** Epoch milliseconds (a 64-bit integer; PostgreSQL's BIGINT is read as a number, see postgres-database.ts). */
export type Millis = number;

export interface Tables {
  schema_migrations: { version: number; name: string; applied_at: Millis };
  organizations: {
    id: string;
    slug: string;
    name: string;
    created_at: Millis;
    /** The hosted signing page's accent, `#rrggbb` (lower case); null for the default. */
    brand_color: string | null;
  };
  api_keys: {
    id: string;
    organization_id: string;
    kind: 'pk' | 'sk';
    hash: string;
    display_prefix: string;
    /** JSON array of scopes. */
    scopes: string;
    expires_at: Millis | null;
    revoked_at: Millis | null;
    /** JSON array of origins. */
    allowed_origins: string;
    rate_limit: number;
    created_at: Millis;
    document_id: string | null;
    signer_id: string | null;
    /** A builder session key: `edit` (read and edit its draft) or `send` (and send it); null on every other key. */
    builder: 'edit' | 'send' | null;
  };
  documents: {
    id: string;
    organization_id: string;
    filename: string;
    mime_type: string;
    page_count: number;
    file_size: number;
    sha256: string;
    /** JSON array of field definitions. */
    fields: string;
    status: 'pending' | 'completed';
    version: number;
    created_at: Millis;
    updated_at: Millis;
    /** JSON array of signers: at least one (the implicit signer on a document created without). */
    signers: string;
    signing_order: 'parallel' | 'sequential';
    declined_at: Millis | null;
    decline_reason: string | null;
    declined_by: string | null;
    declined_ip: string | null;
    declined_user_agent: string | null;
    /** 1 while the document is a draft (its `status` is then `pending`, and it reads as `draft`). */
    draft: number;
    /** When a draft was sent; null on a draft and on a document created ready to sign. */
    sent_at: Millis | null;
    /** When it was voided (it then reads as `voided`), why, and the id of the API key that voided it. */
    voided_at: Millis | null;
    void_reason: string | null;
    voided_by: string | null;
    /** When it expires unless completed (it then reads as `expired`), and when the expire job recorded that. */
    expires_at: Millis | null;
    expired_at: Millis | null;
    /** When its content was erased (the row is then its tombstone), and the API key's id (or `cli`) that did. */
    erased_at: Millis | null;
    erased_by: string | null;
    /** The template it was made from, and the version it copied; null on a document uploaded as such. */
    template_id: string | null;
    template_version: number | null;
    /** `email` when Signet e-mails its signers their links (017, docs/email.md); null: the host delivers them. */
    delivery: 'email' | null;
    /** JSON `{ firstAfterDays, everyDays, max }`, with `delivery` only. */
    reminders: string | null;
    /** The origin of its signing links when `PUBLIC_BASE_URL` is not set: the creating request's. */
    link_base_url: string | null;
  };
  /** Each invitation and reminder queued to a signer (017, docs/email.md): no address, no link. */
  signer_messages: {
    id: string;
    document_id: string;
    signer_id: string;
    kind: 'invitation' | 'reminder';
    sent_at: Millis;
    /** `schedule` (the document's delivery), or the API key's id (or `cli`) that asked for a reminder. */
    sent_by: string;
  };
  document_chunks: { document_id: string; idx: number; data: Uint8Array };
  templates: {
    id: string;
    organization_id: string;
    name: string;
    filename: string;
    page_count: number;
    file_size: number;
    sha256: string;
    /** JSON array of field definitions. */
    fields: string;
    /** JSON array of roles; null on a template whose documents have one implicit signer. */
    roles: string | null;
    signing_order: 'parallel' | 'sequential';
    expires_in_days: number | null;
    version: number;
    created_at: Millis;
    updated_at: Millis;
  };
  template_chunks: { template_id: string; idx: number; data: Uint8Array };
  template_previews: {
    template_id: string;
    media_type: string;
    width: number;
    height: number;
    content: Uint8Array;
    created_at: Millis;
  };
  document_previews: {
    document_id: string;
    media_type: string;
    width: number;
    height: number;
    content: Uint8Array;
    created_at: Millis;
  };
  document_signers: {
    document_id: string;
    signer_id: string;
    opened_at: Millis | null;
    opened_ip: string | null;
    opened_user_agent: string | null;
    completed_at: Millis | null;
    submission_id: string | null;
    /** When a session key of this signer last proved who they are (018). */
    verified_at: Millis | null;
    /** Wrong access codes since the last lock or success (018). */
    access_code_failures: number;
    access_code_locked_until: Millis | null;
  };
  /** Each signer's current e-mailed code, as an HMAC (018). */
  signer_codes: {
    document_id: string;
    signer_id: string;
    code_hash: string;
    expires_at: Millis;
    failures: number;
    sent_at: Millis;
    hour_started_at: Millis;
    sent_this_hour: number;
  };
  /** Each verification and failed try, for the session key it was made with (018). */
  signer_verifications: {
    id: string;
    document_id: string;
    signer_id: string;
    key_id: string;
    outcome: 'verified' | 'failed';
    method: 'email_code' | 'access_code';
    address: string | null;
    occurred_at: Millis;
    ip: string | null;
    user_agent: string | null;
  };
  idempotency_keys: {
    organization_id: string;
    key: string;
    fingerprint: string;
    status: 'in_flight' | 'completed';
    response_status: number | null;
    response_body: string | null;
    created_at: Millis;
  };
  submissions: {
    id: string;
    document_id: string;
    signer_id: string;
    organization_id: string;
    key_id: string;
    checksum: string;
    /** The submission as received, JSON. */
    payload: string;
    /** The submit's answer, JSON. */
    result: string;
    client_ip: string | null;
    user_agent: string | null;
    received_at: Millis;
    /** JSON: normalised copies of images the seal draws instead of the sent ones. */
    seal_images: string | null;
  };
  audit_events: {
    id: string;
    document_id: string;
    type: string;
    occurred_at: Millis;
    ip: string | null;
    user_agent: string | null;
  };
  seal_jobs: {
    document_id: string;
    submission_id: string;
    status: 'pending' | 'running' | 'sealed' | 'failed';
    attempts: number;
    run_at: Millis;
    lease_owner: string | null;
    lease_until: Millis | null;
    last_error: string | null;
    created_at: Millis;
    updated_at: Millis;
  };
  sealed_documents: {
    document_id: string;
    submission_id: string;
    sha256: string;
    file_size: number;
    sealed_at: Millis;
    /** The PAdES level reached (016); null for older seals. */
    level: PadesLevel | null;
  };
  sealed_chunks: { document_id: string; idx: number; data: Uint8Array };
  stored_secrets: { name: string; value: Uint8Array; created_at: Millis };
  webhook_endpoints: {
    id: string;
    organization_id: string;
    url: string;
    description: string | null;
    enabled: number;
    disabled_reason: string | null;
    secret: Uint8Array;
    previous_secret: Uint8Array | null;
    previous_secret_expires_at: Millis | null;
    created_at: Millis;
    updated_at: Millis;
  };
  webhook_subscriptions: { endpoint_id: string; organization_id: string; event_type: string };
  webhook_events: {
    id: string;
    organization_id: string;
    type: string;
    document_id: string | null;
    /** The event's JSON body, as sent. */
    body: string;
    occurred_at: Millis;
    fanned_out: number;
  };
  webhook_deliveries: {
    id: string;
    event_id: string;
    endpoint_id: string;
    event_type: string;
    document_id: string | null;
    occurred_at: Millis;
    status: 'pending' | 'sending' | 'succeeded' | 'failed';
    attempts: number;
    next_attempt_at: Millis | null;
    lease_owner: string | null;
    lease_until: Millis | null;
    last_status_code: number | null;
    last_error: string | null;
    last_response_body: string | null;
    last_duration_ms: number | null;
    created_at: Millis;
    updated_at: Millis;
    delivered_at: Millis | null;
  };
  /** A bulk creation from a template (`migrations/015_bulk_jobs.ts`, docs/templates.md, "Bulk"). */
  bulk_jobs: {
    id: string;
    organization_id: string;
    template_id: string;
    template_version: number;
    /** The sk key that started it: the only one its rows' session keys are shown to. */
    api_key_id: string;
    /** JSON of the sessions' options (`expiresInSeconds`, `origins`), or null for the defaults. */
    sessions: string | null;
    status: 'pending' | 'running' | 'completed';
    total: number;
    created: number;
    failed: number;
    created_at: Millis;
    completed_at: Millis | null;
  };
  bulk_job_rows: {
    bulk_job_id: string;
    idx: number;
    row_key: string;
    /** The row as requested (JSON). */
    request: string;
    status: 'pending' | 'created' | 'failed';
    document_id: string | null;
    error_field: string | null;
    error_reason: string | null;
    /** Its session keys, sealed with the server's secret box until the first read gives them out (then null). */
    sessions: Uint8Array | null;
  };
  /** Which row key made which document of a template, for every later bulk job of the organization. */
  bulk_row_keys: { organization_id: string; template_id: string; row_key: string; document_id: string };
  /** The generic job queue (`migrations/009_jobs.ts`, `jobs/generic-queue.ts`). */
  jobs: {
    id: string;
    kind: string;
    key: string | null;
    /** The payload as JSON, checked by its kind's schema. */
    payload: string;
    status: 'pending' | 'running' | 'done' | 'dead';
    attempts: number;
    run_at: Millis;
    lease_owner: string | null;
    lease_until: Millis | null;
    last_error: string | null;
    created_at: Millis;
    updated_at: Millis;
  };
}
