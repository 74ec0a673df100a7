import type { ContactMessage, ContactRequest } from '@ppr/contracts';
import type { Pool, PoolClient } from 'pg';

interface ContactRow {
  id: number;
  name: string;
  email: string;
  phone: string;
  subject: string;
  message: string;
  created_at: Date;
}

function toMessage(row: ContactRow): ContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    subject: row.subject,
    message: row.message,
    createdAt: row.created_at.toISOString(),
  };
}

export async function insertContactMessage(pool: Pool | PoolClient, body: ContactRequest, clientAddress: string): Promise<ContactMessage> {
  const { rows } = await pool.query<ContactRow>(
    `INSERT INTO contact_messages (name, email, phone, subject, message, client_address)
     VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING id, name, email, phone, subject, message, created_at`,
    [body.name, body.email, body.phone, body.subject, body.message, clientAddress],
  );
  return toMessage(rows[0]!);
}

/** Newest first, one page, and how many there are in all. */
export async function listContactMessages(pool: Pool, page: number, limit: number): Promise<{ messages: ContactMessage[]; total: number }> {
  const [list, count] = await Promise.all([
    pool.query<ContactRow>(
      `SELECT id, name, email, phone, subject, message, created_at FROM contact_messages
       ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
      [limit, (page - 1) * limit],
    ),
    pool.query<{ n: number }>('SELECT count(*)::int AS n FROM contact_messages'),
  ]);
  return { messages: list.rows.map(toMessage), total: count.rows[0]!.n };
}
