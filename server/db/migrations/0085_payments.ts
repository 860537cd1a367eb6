import { sql, type Kysely } from 'kysely';

/**
 * Buying tokens: payments (a card payment through YooKassa or an invoice paid by bank transfer), the
 * refunds YooKassa reported (one row per refund id, so a repeated notification debits nothing twice)
 * and the requisites an organization keeps for its invoices.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE SEQUENCE token_invoice_number_seq START 1`.execute(db);
  await db.schema
    .createTable('token_payments')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'uuid', (c) => c.references('organizations.id').onDelete('set null'))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('card', 'invoice')`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'paid', 'canceled', 'refunded')`))
    .addColumn('package_id', 'text', (c) => c.notNull())
    .addColumn('tokens', 'integer', (c) => c.notNull().check(sql`tokens > 0`))
    .addColumn('amount_kopecks', 'bigint', (c) => c.notNull().check(sql`amount_kopecks > 0`))
    .addColumn('refunded_kopecks', 'bigint', (c) => c.notNull().defaultTo(0))
    // The client's key: a retried "pay" gives the same payment.
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('provider_payment_id', 'text', (c) => c.unique())
    .addColumn('confirmation_url', 'text')
    .addColumn('invoice_number', 'bigint', (c) => c.unique())
    // The buyer's requisites as the invoice printed them (a later change of the organization's does not rewrite it).
    .addColumn('requisites', 'jsonb')
    .addColumn('cancel_reason', 'text')
    // The platform admin who marked an invoice paid or cancelled it.
    .addColumn('decided_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('paid_at', 'timestamptz')
    .addUniqueConstraint('token_payments_user_idempotency_key', ['user_id', 'idempotency_key'])
    .execute();
  await sql`CREATE INDEX token_payments_user_created_idx ON token_payments (user_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX token_payments_method_status_idx ON token_payments (method, status, created_at DESC)`.execute(db);

  await db.schema
    .createTable('token_payment_refunds')
    .addColumn('provider_refund_id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'uuid', (c) => c.notNull().references('token_payments.id').onDelete('cascade'))
    .addColumn('amount_kopecks', 'bigint', (c) => c.notNull())
    .addColumn('tokens_debited', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('organization_requisites')
    .addColumn('organization_id', 'uuid', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('inn', 'text', (c) => c.notNull())
    .addColumn('kpp', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('organization_requisites').ifExists().execute();
  await db.schema.dropTable('token_payment_refunds').ifExists().execute();
  await db.schema.dropTable('token_payments').ifExists().execute();
  await sql`DROP SEQUENCE IF EXISTS token_invoice_number_seq`.execute(db);
}
