import { DuplicateRowInsertError } from './apply';
import type { Projection } from './projection';
import { recordedEvent } from './testing/recorded-event';
import { planBatch } from './plan-batch';

interface Tables {
  notes: { id: string; text: string };
}

/** Inserts one row per note; the note is its key, so the same note twice is the same row twice. */
const notesProjection: Projection<'notes', Tables> = {
  name: 'notes',
  tables: [{ name: 'notes', key: 'id', keyType: 'text' }],
  eventTypes: ['TicketNotesUpdated'],
  project(event) {
    const { notes } = event.data as { notes: string };
    if (notes === 'unreadable') throw new Error('cannot read these notes');
    return [{ kind: 'insert', table: 'notes', key: notes, values: { id: notes, text: notes } }];
  },
};

const note = (text: string) => recordedEvent('TicketNotesUpdated', { ticketId: 1, notes: text });

describe('planBatch: a batch projected and merged, without I/O', () => {
  it('merges the rows of the events the projection reads, and skips the others', () => {
    const status = recordedEvent('TicketStatusChanged', { ticketId: 1, from: 'active', to: 'resolved' });
    const plan = planBatch(notesProjection, [note('a'), status, note('b')]);
    expect(plan.kind).toBe('ready');
    if (plan.kind !== 'ready') return;
    expect([...plan.rows.get('notes')!.keys()]).toEqual(['a', 'b']);
  });

  it('points at the event the projection cannot read', () => {
    const plan = planBatch(notesProjection, [note('a'), note('unreadable'), note('b')]);
    expect(plan).toEqual({ kind: 'poisoned', index: 1, reason: new Error('cannot read these notes') });
  });

  it('points at the event whose insert repeats a row of the batch, not at the first insert', () => {
    const events = [note('a'), note('b'), recordedEvent('TicketStatusChanged', { ticketId: 1, from: 'active', to: 'resolved' }), note('a')];
    const plan = planBatch(notesProjection, events);
    expect(plan).toEqual({ kind: 'poisoned', index: 3, reason: new DuplicateRowInsertError('notes', 'a', 2) });
    if (plan.kind === 'poisoned') expect(String(plan.reason)).toMatch(/Row notes\/a inserted twice/);
  });

  it('plans an empty write for a batch the projection does not read (the checkpoint still moves)', () => {
    const plan = planBatch(notesProjection, [recordedEvent('TicketStatusChanged', { ticketId: 1, from: 'active', to: 'resolved' })]);
    expect(plan).toEqual({ kind: 'ready', rows: new Map() });
  });
});
