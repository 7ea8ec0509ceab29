import { inArray, sql } from 'drizzle-orm';
import { searchTerms, type ChatSearchHit, type ChatSearchQuery } from '@baton/schemas';
import type { Database } from '../db/client';
import { chat } from '../db/schema';
import { toChat } from './chat-read-model';
import type { ChatOwner } from './chat-rows';

/**
 * The words of a message's text parts, as the GIN index `message_text_search_idx` holds
 * them. Written out as literal SQL, identical to the index's expression: a bound parameter
 * in its place would keep the planner from using the index.
 */
const messageWords = (parts: string) =>
  sql.raw(`jsonb_to_tsvector('simple'::regconfig, jsonb_path_query_array(${parts}, '$[*] ? (@.type == "text").text'), '["string"]')`);

/** The text parts of a message joined, for the snippet. */
const messageTextSql = (parts: string) =>
  sql.raw(`array_to_string(array(select jsonb_array_elements_text(jsonb_path_query_array(${parts}, '$[*] ? (@.type == "text").text'))), ' ')`);

// ts_headline marks matches with these (private-use characters, removed from the text first).
const START = '\uE000';
const STOP = '\uE001';
const HEADLINE_OPTIONS = `StartSel=${START}, StopSel=${STOP}, MaxWords=24, MinWords=10, ShortWord=2`;

/**
 * Every word as the start of a word: "deleg" finds "delegation", which is what a search box
 * typed into word by word needs. The 'simple' configuration (no stemming, no stop words)
 * because chats are written in any language. Terms hold only letters and digits (see
 * searchTerms), so they are never read as tsquery syntax.
 */
function prefixQuery(terms: string[]): string {
  return terms.map((t) => `${t}:*`).join(' & ');
}

interface HitRow {
  id: string;
  match_chat_id: string | null;
  message_id: string | null;
  role: 'system' | 'user' | 'assistant' | null;
  headline: string | null;
}

/**
 * The person's top-level chats in the workspace whose title or messages (their own, or
 * those of any sub-chat below them) hold every word of the query — the messages of each
 * chat's active branch only, and the sub-chats that branch made; most recently active
 * first, each with the best matching message around its match.
 */
export async function searchChats(db: Database, owner: ChatOwner, query: ChatSearchQuery): Promise<ChatSearchHit[]> {
  const terms = searchTerms(query.q);
  // Only punctuation or emoji: nothing a text search can look for.
  if (terms.length === 0) return [];
  // Steps sized for a common word that is in most of someone's messages: the index finds
  // the chats with a match (one row each), only the page of top-level chats is picked
  // before anything is ranked, and only that page's messages are ranked and excerpted.
  const result = await db.execute(sql`
    with recursive
    q as (select to_tsquery('simple', ${prefixQuery(terms)}) as query),
    owned as (
      select id, parent_chat_id, parent_tool_call_id, title, updated_at from ${chat}
      where workspace_id = ${owner.workspaceId} and user_id = ${owner.userId}
    ),
    hit_chats as (
      select distinct m.chat_id from message m, q
      where ${messageWords('m.parts')} @@ q.query and m.active and m.chat_id in (select id from owned)
    ),
    -- Up from each chat with a hit to its top-level chat, through the calls that made each
    -- sub-chat: a sub-chat whose call is in a message off the active branch (an edited
    -- question's old answer) does not count, as the chat shows only its active branch.
    -- (Inactive messages are the few; a call is in one message.)
    lineage (chat_id, ancestor_id, parent_id, call_id) as (
      select c.id, c.id, c.parent_chat_id, c.parent_tool_call_id from owned c where c.id in (select chat_id from hit_chats)
      union all
      select l.chat_id, p.id, p.parent_chat_id, p.parent_tool_call_id from lineage l join ${chat} p on p.id = l.parent_id
      where p.workspace_id = ${owner.workspaceId} and p.user_id = ${owner.userId}
        and (l.call_id is null or not exists (
          select 1 from message pm
          where pm.chat_id = p.id and not pm.active and pm.parts @> jsonb_build_array(jsonb_build_object('toolCallId', l.call_id))
        ))
    ),
    hit_roots as (select chat_id, ancestor_id as root_id from lineage where parent_id is null),
    roots as (
      select root_id as id from hit_roots
      union
      select owned.id from owned, q where owned.parent_chat_id is null and to_tsvector('simple'::regconfig, owned.title) @@ q.query
    ),
    page as (
      select c.id, c.updated_at from roots join owned c on c.id = roots.id
      order by c.updated_at desc, c.id desc
      limit ${query.limit}
    ),
    best as (
      -- One message per chat of the page: the best ranked, its own messages before its sub-chats', then the newest.
      select distinct on (h.root_id) h.root_id, m.chat_id, m.id, m.role, m.parts
      from page join hit_roots h on h.root_id = page.id join message m on m.chat_id = h.chat_id and m.active, q
      where ${messageWords('m.parts')} @@ q.query
      order by h.root_id, ts_rank(${messageWords('m.parts')}, q.query) desc, (m.chat_id = h.root_id) desc, m.seq desc
    )
    select page.id, best.chat_id as match_chat_id, best.id as message_id, best.role,
      case when best.id is null then null else
        ts_headline('simple', translate(${messageTextSql('best.parts')}, ${START + STOP}, ''), q.query, ${HEADLINE_OPTIONS})
      end as headline
    from page left join best on best.root_id = page.id, q
    order by page.updated_at desc, page.id desc
  `);
  const rows = (result as unknown as { rows: HitRow[] }).rows;
  if (rows.length === 0) return [];
  const chats = await db
    .select()
    .from(chat)
    .where(
      inArray(
        chat.id,
        rows.map((r) => r.id),
      ),
    );
  const byId = new Map(chats.map((c) => [c.id, c]));
  return rows.flatMap((r) => {
    const found = byId.get(r.id);
    if (!found) return [];
    const match =
      r.message_id && r.match_chat_id && r.role && r.headline !== null
        ? { chatId: r.match_chat_id, messageId: r.message_id, role: r.role, ...readHeadline(r.headline) }
        : null;
    return [{ chat: toChat(found), match }];
  });
}

/** A headline's marked text as plain text on one line, and where its matches are in it. */
export function readHeadline(headline: string): { snippet: string; highlights: { start: number; end: number }[] } {
  let snippet = '';
  const highlights: { start: number; end: number }[] = [];
  let open: number | null = null;
  for (const ch of headline.replace(/\s+/g, ' ').trim()) {
    if (ch === START) open = snippet.length;
    else if (ch === STOP) {
      if (open !== null && snippet.length > open) highlights.push({ start: open, end: snippet.length });
      open = null;
    } else snippet += ch;
  }
  return { snippet, highlights };
}
