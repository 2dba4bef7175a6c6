/**
 * The mileage baseline (spec 3-endpoints-b 4.9): vehicles, their expense accounts and odometer
 * readings per tax year, trips (never edited: voided or corrected by a replacement naming the
 * original), recurring trips, and mileage reimbursements with the entries they posted.
 *
 * Rules the database holds besides the engine:
 * - miles are integer tenths of a mile (`miles_tenths`, one-way; `total_tenths` doubles a round trip);
 * - an account belongs to at most one vehicle of a company (its primary key);
 * - a recurring trip logs each date at most once, a voided occurrence included (unique index);
 * - a business trip has a purpose.
 */
export const sql = `
CREATE TABLE vehicles (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description text CHECK (length(description) <= 1000),
  ownership text NOT NULL DEFAULT 'owned' CHECK (ownership IN ('owned', 'leased')),
  in_service_date date NOT NULL,
  retired_on date,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  CHECK (retired_on IS NULL OR retired_on >= in_service_date)
);

CREATE TABLE vehicle_accounts (
  company_id uuid NOT NULL,
  account_code text NOT NULL,
  vehicle_id bigint NOT NULL,
  PRIMARY KEY (company_id, account_code),
  FOREIGN KEY (company_id, vehicle_id) REFERENCES vehicles (company_id, id)
);

CREATE TABLE vehicle_odometer (
  company_id uuid NOT NULL,
  vehicle_id bigint NOT NULL,
  tax_year int NOT NULL CHECK (tax_year BETWEEN 2000 AND 2100),
  start_miles int NOT NULL CHECK (start_miles >= 0),
  end_miles int,
  PRIMARY KEY (company_id, vehicle_id, tax_year),
  FOREIGN KEY (company_id, vehicle_id) REFERENCES vehicles (company_id, id),
  CHECK (end_miles IS NULL OR end_miles >= start_miles)
);

CREATE TABLE recurring_trips (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  vehicle_id bigint NOT NULL,
  from_place text NOT NULL,
  to_place text NOT NULL,
  miles_tenths int NOT NULL CHECK (miles_tenths > 0),
  round_trip boolean NOT NULL,
  purpose text NOT NULL CHECK (length(purpose) BETWEEN 1 AND 500),
  contact_id bigint,
  project_id bigint,
  frequency text NOT NULL CHECK (frequency IN ('weekly', 'monthly')),
  weekdays jsonb NOT NULL DEFAULT '[]',
  day_of_month int CHECK (day_of_month BETWEEN 1 AND 28),
  start_date date NOT NULL,
  end_date date,
  generated_through date,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, vehicle_id) REFERENCES vehicles (company_id, id),
  CHECK (end_date IS NULL OR end_date >= start_date)
);

CREATE TABLE trips (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  vehicle_id bigint NOT NULL,
  trip_date date NOT NULL,
  from_place text NOT NULL CHECK (length(from_place) BETWEEN 1 AND 200),
  to_place text NOT NULL CHECK (length(to_place) BETWEEN 1 AND 200),
  miles_tenths int NOT NULL CHECK (miles_tenths > 0),
  round_trip boolean NOT NULL,
  total_tenths int NOT NULL CHECK (total_tenths = CASE WHEN round_trip THEN 2 * miles_tenths ELSE miles_tenths END),
  kind text NOT NULL CHECK (kind IN ('business', 'personal')),
  purpose text CHECK (length(purpose) <= 500),
  contact_id bigint,
  project_id bigint,
  status text NOT NULL CHECK (status IN ('logged', 'proposed', 'void')),
  recurring_trip_id bigint,
  replaces_trip_id bigint,
  replaced_by_trip_id bigint,
  rationale text,
  void_reason text,
  voided_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, vehicle_id) REFERENCES vehicles (company_id, id),
  CHECK (kind = 'personal' OR purpose IS NOT NULL)
);
CREATE INDEX trips_by_date ON trips (company_id, trip_date, id);
CREATE INDEX trips_by_vehicle ON trips (company_id, vehicle_id, trip_date);
CREATE UNIQUE INDEX trips_recurring_once ON trips (company_id, recurring_trip_id, trip_date)
  WHERE recurring_trip_id IS NOT NULL AND replaces_trip_id IS NULL;

CREATE TABLE mileage_reimbursements (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  vehicle_id bigint NOT NULL,
  payee text NOT NULL CHECK (length(payee) BETWEEN 1 AND 200),
  period_start date NOT NULL,
  period_end date NOT NULL,
  business_tenths int NOT NULL CHECK (business_tenths > 0),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  rates jsonb NOT NULL,
  expense_account text NOT NULL,
  pay_from_account text NOT NULL,
  entry_date date NOT NULL,
  entry_id bigint NOT NULL,
  status text NOT NULL DEFAULT 'posted' CHECK (status IN ('posted', 'void')),
  void_entry_id bigint,
  void_reason text,
  voided_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, vehicle_id) REFERENCES vehicles (company_id, id),
  CHECK (period_end >= period_start)
);
`
