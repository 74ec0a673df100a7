#!/usr/bin/env node
/**
 * Follows the integration event feed and remembers where it stopped, so that a restart resumes exactly
 * after the last event it handled (no event skipped, none handled twice).
 *
 *   FEED_URL=https://www.example.com/api/integrations/events \
 *   FEED_KEY=ppr_ik_... \
 *   POSITION_FILE=./feed-position \
 *   node examples/sse-follower.mjs
 *
 * Node 20+, no dependencies. Replace `handle` with your integration (it must finish before the position is
 * saved: a crash in between replays that event, so make `handle` idempotent on `event.id`).
 */
import { readFile, rename, writeFile } from 'node:fs/promises';

const FEED_URL = process.env.FEED_URL ?? 'http://localhost:3000/api/integrations/events';
const FEED_KEY = process.env.FEED_KEY;
const POSITION_FILE = process.env.POSITION_FILE ?? './feed-position';

if (!FEED_KEY) {
  console.error('Set FEED_KEY to an integration key (Admin > Integrations)');
  process.exit(2);
}

async function handle(event) {
  console.log(`${event.position} ${event.type} ticket #${event.ticketId}`, JSON.stringify(event.data));
}

async function loadPosition() {
  try {
    return (await readFile(POSITION_FILE, 'utf8')).trim() || '0';
  } catch (error) {
    if (error.code === 'ENOENT') return '0';
    throw error;
  }
}

/** Written to a temporary file and renamed: a crash never leaves a half-written position. */
async function savePosition(position) {
  await writeFile(`${POSITION_FILE}.tmp`, `${position}\n`);
  await rename(`${POSITION_FILE}.tmp`, POSITION_FILE);
}

/** Reads one connection's messages until the stream ends. Returns 'stop' when the key was revoked. */
async function follow(position) {
  const response = await fetch(FEED_URL, {
    headers: { authorization: `Bearer ${FEED_KEY}`, accept: 'text/event-stream', 'last-event-id': position },
  });
  if (response.status === 401 || response.status === 403) {
    console.error(`The feed refused the key (${response.status}): ${await response.text()}`);
    return { position, stop: true };
  }
  if (!response.ok || !response.body) throw new Error(`The feed answered ${response.status}`);
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let id;
      let type = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue; // heartbeat
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = value;
        else if (field === 'event') type = value;
        else if (field === 'data') data.push(value);
      }
      if (type === 'revoked') return { position, stop: true };
      // `resume`: the server cut a slow connection; reconnecting from our saved position is all it asks.
      if (type === 'resume') return { position, stop: false };
      if (type !== 'message' || data.length === 0) continue;
      await handle(JSON.parse(data.join('\n')));
      if (id) {
        position = id;
        await savePosition(position);
      }
    }
  }
  return { position, stop: false };
}

let position = await loadPosition();
let delay = 1000;
for (;;) {
  try {
    const result = await follow(position);
    position = result.position;
    if (result.stop) process.exit(1);
    delay = 1000;
  } catch (error) {
    console.error(`Feed connection lost (${error.message}); retrying in ${delay / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 60_000);
  }
}
