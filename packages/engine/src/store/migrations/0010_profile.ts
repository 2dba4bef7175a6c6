/**
 * The profile area's baseline: the company profile (spec 3-endpoints-b 4.5), one row per company,
 * made on first change; the logo's bytes (already checked or rebuilt) live in the row.
 */
export const sql = `
CREATE TABLE company_profiles (
  company_id uuid PRIMARY KEY REFERENCES companies,
  legal_name text,
  dba text,
  address_line1 text,
  address_line2 text,
  city text,
  region text,
  postal_code text,
  country text NOT NULL DEFAULT 'US' CHECK (country ~ '^[A-Z]{2}$'),
  phone text,
  email text,
  website text,
  ein text CHECK (ein ~ '^[0-9]{9}$'),
  show_ein boolean NOT NULL DEFAULT false,
  sales_tax_id text,
  brand_color text CHECK (brand_color ~ '^#[0-9a-f]{6}$'),
  payment_instructions text,
  footer_text text,
  logo bytea,
  logo_media_type text CHECK (logo_media_type IN ('image/png', 'image/svg+xml')),
  logo_file_name text,
  logo_width integer,
  logo_height integer,
  logo_updated_at timestamptz,
  updated_at timestamptz NOT NULL
);
`
