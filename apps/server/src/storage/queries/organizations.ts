import { newId } from '../../ids.js';
import type { Tables } from '../tables.js';
import type { Db } from '../typed-queries.js';
import type { Organization } from '../types.js';
import { toIso } from '../schema.js';

/*
 * Organizations: the tenants every key and document belongs to.
 */

/** An `organizations` row as a record. */
export function toOrganization(row: Tables['organizations']): Organization {
  return { id: row.id, slug: row.slug, name: row.name, createdAt: toIso(row.created_at) };
}

/** The organization with this slug, or null. */
export async function findOrganizationBySlug(db: Db, slug: string): Promise<Organization | null> {
  const row = await db.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst();
  return row ? toOrganization(row) : null;
}

/** The name of the organization `id`, or null when there is none (a signing link's page and e-mails show it). */
export async function findOrganizationName(db: Db, id: string): Promise<string | null> {
  const row = await db.selectFrom('organizations').select('name').where('id', '=', id).executeTakeFirst();
  return row?.name ?? null;
}

/** The organization with this slug, created (named `name`) when new; safe to run from several instances at once. */
export async function ensureOrganization(db: Db, slug: string, name: string): Promise<Organization> {
  await db
    .insertInto('organizations')
    .values({ id: newId('org'), slug, name, created_at: Date.now() })
    .onConflict((oc) => oc.column('slug').doNothing())
    .execute();
  return (await findOrganizationBySlug(db, slug))!;
}
