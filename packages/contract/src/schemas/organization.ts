import { z } from '../zod.js';
import { idSchema } from '../ids.js';

/*
 * The organization's own settings (docs/email.md, "Branding"): its name, which signers read on the hosted signing page
 * and in Signet's e-mails, and the brand colour of that page.
 */

/** Longest organization name accepted. */
export const ORGANIZATION_NAME_MAX_LENGTH = 200;

/**
 * A brand colour: `#` and six hexadecimal digits, nothing else (no names, no `rgb()`, no three-digit form), so that
 * the value can be written into the hosted page's style sheet as it is (docs/decisions.md, "Branding: a hex colour,
 * a text colour chosen by contrast").
 */
export const BRAND_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

export const BrandColorSchema = z.string().regex(BRAND_COLOR_PATTERN, 'must be "#" followed by six hexadecimal digits, such as "#0a7d4f"');

/** A name as people read it: one line of printable text. */
export const OrganizationNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(ORGANIZATION_NAME_MAX_LENGTH)
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name), 'must be one line without control characters');

/** `GET /organization`: the key's organization. `brandColor` is `null` when unset (the page's default accent). */
export const OrganizationProfileSchema = z
  .object({
    id: idSchema('org'),
    name: z.string(),
    brandColor: BrandColorSchema.nullable().meta({ description: 'The accent of the hosted signing page, `#rrggbb`; `null`: the default' }),
  })
  .meta({ id: 'OrganizationProfile' });
export type OrganizationProfile = z.infer<typeof OrganizationProfileSchema>;

/** `PATCH /organization`: the members to change, at least one; `brandColor: null` returns to the default. */
export const UpdateOrganizationRequestSchema = z
  .object({ name: OrganizationNameSchema.optional(), brandColor: BrandColorSchema.nullable().optional() })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'name at least one of name, brandColor')
  .meta({ id: 'UpdateOrganizationRequest' });
export type UpdateOrganizationRequest = z.infer<typeof UpdateOrganizationRequestSchema>;
