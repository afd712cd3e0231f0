ALTER TABLE "invoices" ADD COLUMN "document_type" text;--> statement-breakpoint
-- Hand-written from here: the stats (invoice_totals, 0013) count only invoices, credit notes and receipts; another
-- kind of document that the §5 rules list (an order confirmation, a delivery note, a reminder, a statement, a
-- contract...) is listed but not summed. null (not read by a rules version that knows the type) counts as before.
-- A credit note's amount is stored positive, as its XML states it (README, "The sign of an extracted amount"): the
-- sums take it off. Every invoice's document_type is null when this runs, so the totals already kept stay right
-- without a backfill.
CREATE FUNCTION "invoice_counts"(document_type text) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT document_type IS NULL OR document_type IN ('invoice', 'credit_note', 'receipt') $$;
--> statement-breakpoint
CREATE FUNCTION "invoice_counted_amount"(document_type text, amount_minor bigint) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN document_type = 'credit_note' THEN -abs(coalesce(amount_minor, 0))
    ELSE coalesce(amount_minor, 0) END::numeric $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "invoice_totals_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO invoice_totals AS t (owner_id, account_ids, currency, month, invoices, amount_minor)
    SELECT owner_id, account_ids, currency, month, sum(n), sum(amount)
    FROM (SELECT owner_id, account_ids, coalesce(currency, 'USD') AS currency, invoice_totals_month(invoice_date) AS month,
        1 AS n, invoice_counted_amount(document_type, amount_minor) AS amount FROM new_rows WHERE invoice_counts(document_type)) d
    GROUP BY owner_id, account_ids, currency, month
    HAVING sum(n) <> 0 OR sum(amount) <> 0
    ORDER BY owner_id, account_ids, currency, month
    ON CONFLICT (owner_id, account_ids, currency, month) DO UPDATE
      SET invoices = t.invoices + excluded.invoices, amount_minor = t.amount_minor + excluded.amount_minor;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "invoice_totals_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed bigint;
BEGIN
  INSERT INTO invoice_totals AS t (owner_id, account_ids, currency, month, invoices, amount_minor)
    SELECT owner_id, account_ids, currency, month, sum(n), sum(amount)
    FROM (SELECT owner_id, account_ids, coalesce(currency, 'USD') AS currency, invoice_totals_month(invoice_date) AS month,
        -1 AS n, -invoice_counted_amount(document_type, amount_minor) AS amount FROM old_rows WHERE invoice_counts(document_type)) d
    GROUP BY owner_id, account_ids, currency, month
    HAVING sum(n) <> 0 OR sum(amount) <> 0
    ORDER BY owner_id, account_ids, currency, month
    ON CONFLICT (owner_id, account_ids, currency, month) DO UPDATE
      SET invoices = t.invoices + excluded.invoices, amount_minor = t.amount_minor + excluded.amount_minor;
  GET DIAGNOSTICS changed = ROW_COUNT;
  IF changed > 0 THEN
    DELETE FROM invoice_totals
      WHERE owner_id IN (SELECT owner_id FROM old_rows) AND invoices <= 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "invoice_totals_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed bigint;
BEGIN
  INSERT INTO invoice_totals AS t (owner_id, account_ids, currency, month, invoices, amount_minor)
    SELECT owner_id, account_ids, currency, month, sum(n), sum(amount)
    FROM (SELECT owner_id, account_ids, coalesce(currency, 'USD') AS currency, invoice_totals_month(invoice_date) AS month,
        1 AS n, invoice_counted_amount(document_type, amount_minor) AS amount FROM new_rows WHERE invoice_counts(document_type)
      UNION ALL
      SELECT owner_id, account_ids, coalesce(currency, 'USD') AS currency, invoice_totals_month(invoice_date) AS month,
        -1 AS n, -invoice_counted_amount(document_type, amount_minor) AS amount FROM old_rows WHERE invoice_counts(document_type)) d
    GROUP BY owner_id, account_ids, currency, month
    HAVING sum(n) <> 0 OR sum(amount) <> 0
    ORDER BY owner_id, account_ids, currency, month
    ON CONFLICT (owner_id, account_ids, currency, month) DO UPDATE
      SET invoices = t.invoices + excluded.invoices, amount_minor = t.amount_minor + excluded.amount_minor;
  GET DIAGNOSTICS changed = ROW_COUNT;
  IF changed > 0 THEN
    DELETE FROM invoice_totals
      WHERE owner_id IN (SELECT owner_id FROM old_rows UNION SELECT owner_id FROM new_rows) AND invoices <= 0;
  END IF;
  RETURN NULL;
END $$;
