import type { OrganizationProfile } from '@signet/contract';
import { newId } from '../../ids.js';
import type { Tables } from '../tables.js';
import type { Db } from '../typed-queries.js';
import type { Organization } from '../types.js';
import { toIso } from '../schema.js';

/*
 * Organizations: the tenants every key and document belongs to, with their own settings (`GET` and
 * `PATCH /organization`, docs/email.md, "Branding").
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

/** The columns of an organization's profile. */
const PROFILE_COLUMNS = ['id', 'name', 'brand_color'] as const;

function toProfile(row: Pick<Tables['organizations'], (typeof PROFILE_COLUMNS)[number]>): OrganizationProfile {
  return { id: row.id, name: row.name, brandColor: row.brand_color };
}

/** The organization `id` as `GET /organization` shows it (its name and brand colour), or null. */
export async function findOrganizationProfile(db: Db, id: string): Promise<OrganizationProfile | null> {
  const row = await db.selectFrom('organizations').select(PROFILE_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toProfile(row) : null;
}

/**
 * Changes the members of `changes` given (at least one, as `UpdateOrganizationRequestSchema` requires; a `brandColor`
 * of null clears it) of the organization `id`; its profile as changed, or null when there is none. The colour is
 * stored in lower case.
 */
export async function updateOrganizationProfile(
  db: Db,
  id: string,
  changes: { name?: string; brandColor?: string | null },
): Promise<OrganizationProfile | null> {
  const values = {
    ...(changes.name === undefined ? {} : { name: changes.name }),
    ...(changes.brandColor === undefined ? {} : { brand_color: changes.brandColor?.toLowerCase() ?? null }),
  };
  const row = await db.updateTable('organizations').set(values).where('id', '=', id).returning(PROFILE_COLUMNS).executeTakeFirst();
  return row ? toProfile(row) : null;
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
