import type { CreateEngineer, Engineer } from '@ppr/contracts';
import type { Pool } from 'pg';

interface EngineerRow {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly specialty: string | null;
  readonly bio: string | null;
  readonly isActive: boolean;
  readonly createdAt: Date;
}

const COLUMNS = `id, name, email, specialty, bio, is_active AS "isActive", created_at AS "createdAt"`;

function toEngineer(row: EngineerRow): Engineer {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/** Plain query helpers over `engineers`; each is one statement on the pool. */
export async function listEngineers(pool: Pool, active?: boolean): Promise<Engineer[]> {
  const { rows } = await pool.query<EngineerRow>(
    `SELECT ${COLUMNS} FROM engineers WHERE $1::boolean IS NULL OR is_active = $1 ORDER BY lower(name), id`,
    [active ?? null],
  );
  return rows.map(toEngineer);
}

/** null: an engineer with that email address exists. */
export async function insertEngineer(pool: Pool, engineer: CreateEngineer): Promise<Engineer | null> {
  const { rows } = await pool.query<EngineerRow>(
    `INSERT INTO engineers (name, email, specialty, bio) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
    [engineer.name, engineer.email, engineer.specialty ?? null, engineer.bio ?? null],
  );
  const row = rows[0];
  return row ? toEngineer(row) : null;
}

export async function setEngineerActive(pool: Pool, id: number, active: boolean): Promise<Engineer | null> {
  const { rows } = await pool.query<EngineerRow>(`UPDATE engineers SET is_active = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [id, active]);
  const row = rows[0];
  return row ? toEngineer(row) : null;
}

export async function findEngineer(pool: Pool, id: number): Promise<Engineer | null> {
  const { rows } = await pool.query<EngineerRow>(`SELECT ${COLUMNS} FROM engineers WHERE id = $1`, [id]);
  const row = rows[0];
  return row ? toEngineer(row) : null;
}

/** Names of the given engineers, deactivated ones included (tickets and history still name them). */
export async function engineerNames(pool: Pool, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<{ id: number; name: string }>('SELECT id, name FROM engineers WHERE id = ANY($1::int[])', [ids]);
  return new Map(rows.map((row) => [row.id, row.name]));
}
