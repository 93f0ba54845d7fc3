import type { Migration } from '../migrations.js';

/*
 * Branding (docs/email.md, "Branding"): the accent colour of an organization's hosted signing page, `#rrggbb` as
 * `PATCH /organization` checked it (docs/decisions.md, "Branding: a hex colour, a text colour chosen by contrast");
 * null for the default.
 */
export const organizationBranding: Migration = {
  version: 19,
  name: 'organization branding',
  up: () => `
    ALTER TABLE organizations ADD COLUMN brand_color TEXT;
  `,
};
