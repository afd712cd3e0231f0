-- Hand-written: keeps invoice_totals (see invoices.tables.ts) equal to what GET /invoices/stats used to compute from
-- every invoice: per owner, account set, currency (null counted as USD) and month, the number of invoices and the sum
-- of amount_minor. Statement-level triggers with transition tables: one upsert per statement, not per row, with the
-- keys in order so that concurrent statements take the row locks in the same order. Updates that change none of
-- the counted columns (status, drive fields, extraction) write nothing.

-- 'YYYY-MM' when the invoice date starts with one (then "invoice_date LIKE 'YYYY-MM%'" holds for exactly that
-- month), '' otherwise; the stats compare it with to_char(now(), 'YYYY-MM').
CREATE FUNCTION "invoice_totals_month"(invoice_date text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN invoice_date ~ '^[0-9]{4}-[0-9]{2}' THEN left(invoice_date, 7) ELSE '' END $$;
--> statement-breakpoint
CREATE FUNCTION "invoice_totals_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO invoice_totals AS t (owner_id, account_ids, currency, month, invoices, amount_minor)
    SELECT owner_id, account_ids, currency, month, sum(n), sum(amount)
    FROM (SELECT owner_id, account_ids, coalesce(currency, 'USD') AS currency, invoice_totals_month(invoice_date) AS month,
        1 AS n, coalesce(amount_minor, 0)::numeric AS amount FROM new_rows) d
    GROUP BY owner_id, account_ids, currency, month
    HAVING sum(n) <> 0 OR sum(amount) <> 0
    ORDER BY owner_id, account_ids, currency, month
    ON CONFLICT (owner_id, account_ids, currency, month) DO UPDATE
      SET invoices = t.invoices + excluded.invoices, amount_minor = t.amount_minor + excluded.amount_minor;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "invoice_totals_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed bigint;
BEGIN
  INSERT INTO invoice_totals AS t (owner_id, account_ids, currency, month, invoices, amount_minor)
    SELECT owner_id, account_ids, currency, month, sum(n), sum(amount)
    FROM (SELECT owner_id, account_ids, coalesce(currency, 'USD') AS currency, invoice_totals_month(invoice_date) AS month,
        -1 AS n, -coalesce(amount_minor, 0)::numeric AS amount FROM old_rows) d
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
CREATE FUNCTION "invoice_totals_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed bigint;
BEGIN
  INSERT INTO invoice_totals AS t (owner_id, account_ids, currency, month, invoices, amount_minor)
    SELECT owner_id, account_ids, currency, month, sum(n), sum(amount)
    FROM (SELECT owner_id, account_ids, coalesce(currency, 'USD') AS currency, invoice_totals_month(invoice_date) AS month,
        1 AS n, coalesce(amount_minor, 0)::numeric AS amount FROM new_rows
      UNION ALL
      SELECT owner_id, account_ids, coalesce(currency, 'USD') AS currency, invoice_totals_month(invoice_date) AS month,
        -1 AS n, -coalesce(amount_minor, 0)::numeric AS amount FROM old_rows) d
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
--> statement-breakpoint
CREATE FUNCTION "invoice_totals_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM invoice_totals;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Writers wait from here until the backfill below has committed, so no invoice is counted twice or missed.
LOCK TABLE "invoices" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TRIGGER "invoice_totals_insert" AFTER INSERT ON "invoices"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "invoice_totals_insert"();
--> statement-breakpoint
CREATE TRIGGER "invoice_totals_update" AFTER UPDATE ON "invoices"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "invoice_totals_update"();
--> statement-breakpoint
CREATE TRIGGER "invoice_totals_delete" AFTER DELETE ON "invoices"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "invoice_totals_delete"();
--> statement-breakpoint
CREATE TRIGGER "invoice_totals_truncate" AFTER TRUNCATE ON "invoices"
  FOR EACH STATEMENT EXECUTE FUNCTION "invoice_totals_truncate"();
--> statement-breakpoint
INSERT INTO "invoice_totals" ("owner_id", "account_ids", "currency", "month", "invoices", "amount_minor")
  SELECT "owner_id", "account_ids", coalesce("currency", 'USD'), invoice_totals_month("invoice_date"), count(*),
    coalesce(sum("amount_minor"), 0)
  FROM "invoices"
  GROUP BY 1, 2, 3, 4;
