import type { Selectable } from 'kysely';
import type { Db } from '../typed-queries.js';
import type { Tables } from '../tables.js';
import { readChunks, writeChunks } from '../chunks.js';
import { toIso, toMillis } from '../schema.js';
import type { DocumentCursor, DocumentPreview, IsoTime, TemplateRecord } from '../types.js';

/*
 * Templates (docs/templates.md): their rows at the current version, their files in chunks and their page-1 previews.
 */

type TemplateRow = Selectable<Tables['templates']>;

function toTemplate(row: TemplateRow): TemplateRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    filename: row.filename,
    pageCount: row.page_count,
    fileSize: row.file_size,
    sha256: row.sha256,
    fields: JSON.parse(row.fields) as TemplateRecord['fields'],
    ...(row.roles === null ? {} : { roles: JSON.parse(row.roles) as NonNullable<TemplateRecord['roles']> }),
    signingOrder: row.signing_order,
    ...(row.expires_in_days === null ? {} : { expiresInDays: row.expires_in_days }),
    version: row.version,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** A new template's row and file, in the caller's transaction. */
export async function insertTemplate(db: Db, template: TemplateRecord, content: Uint8Array): Promise<void> {
  await db
    .insertInto('templates')
    .values({
      id: template.id,
      organization_id: template.organizationId,
      name: template.name,
      filename: template.filename,
      page_count: template.pageCount,
      file_size: template.fileSize,
      sha256: template.sha256,
      fields: JSON.stringify(template.fields),
      roles: template.roles ? JSON.stringify(template.roles) : null,
      signing_order: template.signingOrder,
      expires_in_days: template.expiresInDays ?? null,
      version: template.version,
      created_at: toMillis(template.createdAt),
      updated_at: toMillis(template.updatedAt),
    })
    .execute();
  await writeChunks(db, 'template_chunks', template.id, content);
}

/** The template with this id in this organization, or null; `lock` takes its row's lock (in a transaction). */
export async function findTemplate(db: Db, organizationId: string, id: string, options: { lock?: boolean } = {}): Promise<TemplateRecord | null> {
  let query = db.selectFrom('templates').selectAll().where('id', '=', id).where('organization_id', '=', organizationId);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toTemplate(row) : null;
}

/** The template with this id, whatever its organization (a token's check compares it), or null. */
export async function findTemplateById(db: Db, id: string): Promise<TemplateRecord | null> {
  const row = await db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toTemplate(row) : null;
}

/** A page of an organization's templates, newest first, after the cursor's. */
export async function listTemplates(db: Db, organizationId: string, options: { limit: number; after?: DocumentCursor }): Promise<TemplateRecord[]> {
  const { limit, after } = options;
  let query = db.selectFrom('templates').selectAll().where('organization_id', '=', organizationId);
  if (after) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(toMillis(after.createdAt), after.id)));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toTemplate);
}

/** A template's new content, as one version more (the caller holds its row's lock and checked the version). */
export async function replaceTemplateContent(
  db: Db,
  id: string,
  content: Pick<TemplateRecord, 'name' | 'fields' | 'roles' | 'signingOrder' | 'expiresInDays' | 'version'> & { at: IsoTime },
): Promise<void> {
  await db
    .updateTable('templates')
    .set({
      name: content.name,
      fields: JSON.stringify(content.fields),
      roles: content.roles ? JSON.stringify(content.roles) : null,
      signing_order: content.signingOrder,
      expires_in_days: content.expiresInDays ?? null,
      version: content.version,
      updated_at: toMillis(content.at),
    })
    .where('id', '=', id)
    .execute();
}

/** Deletes a template with its file and preview; false when there was none. */
export async function deleteTemplate(db: Db, organizationId: string, id: string): Promise<boolean> {
  await db.deleteFrom('template_chunks').where('template_id', '=', id).execute();
  await db.deleteFrom('template_previews').where('template_id', '=', id).execute();
  const result = await db.deleteFrom('templates').where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Bytes `start` to `end` inclusive of a template's file (the caller checks the bounds). */
export function readTemplateContent(db: Db, templateId: string, start: number, end: number): Promise<Uint8Array> {
  return readChunks(db, 'template_chunks', templateId, start, end);
}

/** Stores a template's page-1 preview (one per template: a second is ignored). */
export async function insertTemplatePreview(db: Db, templateId: string, preview: DocumentPreview): Promise<void> {
  await db
    .insertInto('template_previews')
    .values({ template_id: templateId, media_type: preview.mediaType, width: preview.width, height: preview.height, content: preview.content, created_at: Date.now() })
    .onConflict((oc) => oc.column('template_id').doNothing())
    .execute();
}

/** A template's page-1 preview, or null when its first page cannot be drawn. */
export async function findTemplatePreview(db: Db, templateId: string): Promise<DocumentPreview | null> {
  const row = await db
    .selectFrom('template_previews')
    .select(['media_type', 'width', 'height', 'content'])
    .where('template_id', '=', templateId)
    .executeTakeFirst();
  return row ? { mediaType: row.media_type, width: row.width, height: row.height, content: row.content } : null;
}
