// The script as a pure function: rule order and the edge cases of parsing.
import { describe, expect, it } from 'vitest';
import { decideTurn, parseDelegateLines, parseFileListing, parseSubAgentListing, parseToolLines, STEER_PAUSE_MS, STEER_WAIT_STEPS } from './script';
import type { ChatMessage, ChatRequest, ToolDefinition, WireToolCall } from './wire';

const fn = (name: string, description = ''): ToolDefinition => ({ type: 'function', function: { name, description } });
const req = (messages: ChatMessage[], tools?: ToolDefinition[]): ChatRequest => ({ model: 'baton-demo', messages, ...(tools ? { tools } : {}) });
const user = (content: string): ChatMessage => ({ role: 'user', content });
const call = (id: string, name: string, args: Record<string, unknown>): WireToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});
const calling = (...calls: WireToolCall[]): ChatMessage => ({ role: 'assistant', content: null, tool_calls: calls });
const output = (id: string, content: unknown): ChatMessage => ({
  role: 'tool',
  tool_call_id: id,
  content: typeof content === 'string' ? content : JSON.stringify(content),
});
const LISTING = '- Researcher (id: r1): finds\n- general-purpose (id: general-purpose): does anything';
/** A sub-agent that may delegate, as the backend offers it below depth 3. */
const nestedTools = [fn('taskResult'), fn('newTask', LISTING)];
const notes = (texts: string[]): ChatMessage[] => texts.flatMap((text, i) => [calling(call(`n${i}`, 'note', { text })), output(`n${i}`, { ok: true })]);

describe('parsing', () => {
  it('reads the sub-agent listing lines and nothing else', () => {
    const text = 'Sub-agents:\n- Researcher (id: a1): finds\n  - Deep Diver (id: a-2):\n- not a listing\n* Star (id: s1): no';
    expect(parseSubAgentListing(text)).toEqual([
      { name: 'Researcher', id: 'a1' },
      { name: 'Deep Diver', id: 'a-2' },
    ]);
  });

  it('reads /delegate lines with spaced names and colons in the task', () => {
    expect(parseDelegateLines('intro\n  /Delegate  Deep   Diver :  go: now  \n/delegate nobody:\n/delegate x')).toEqual([
      { name: 'Deep Diver', task: 'go: now' },
    ]);
  });
});

describe('rule order', () => {
  it('tool results win over everything', () => {
    const turn = decideTurn(
      req(
        [
          user('/delegate A: x'),
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'plain text' },
        ],
        [fn('newTask')],
      ),
    );
    expect(turn).toEqual({ rule: 'tool-results', text: 'Here is what came back:\n\n- **lookup**: plain text', toolCalls: [] });
  });

  it('only quotes the latest batch, and falls back to the id for unlisted sub-agents', () => {
    const call = (id: string, subAgentId: string) => ({
      id,
      type: 'function' as const,
      function: { name: 'newTask', arguments: JSON.stringify({ subAgentId, task: 't' }) },
    });
    const turn = decideTurn(
      req(
        [
          user('go'),
          { role: 'assistant', tool_calls: [call('old', 'a1')] },
          { role: 'tool', tool_call_id: 'old', content: '{"result":"old","status":"success"}' },
          { role: 'assistant', content: 'again', tool_calls: [call('new', 'zz9')] },
          { role: 'tool', tool_call_id: 'new', content: '{"status":"error","result":{"why":"no"}}' },
        ],
        [fn('newTask', '- Alpha (id: a1): x')],
      ),
    );
    expect(turn.text).toBe('Here is what came back:\n\n- **zz9** (error): {"why":"no"}');
  });

  it('a sub-agent that is not offered newTask answers with taskResult even when its task has /delegate lines', () => {
    const turn = decideTurn(req([user('/delegate A: x')], [fn('taskResult')]));
    expect(turn.rule).toBe('sub-agent');
    expect(turn.toolCalls[0]?.name).toBe('taskResult');
  });

  it('"fail" must be a whole word', () => {
    const status = (task: string) => decideTurn(req([user(task)], [fn('taskResult')])).toolCalls[0]?.arguments.status;
    expect(status('this failed before')).toBe('success');
    expect(status('failure is an option')).toBe('success');
    expect(status('make it fail.')).toBe('error');
    expect(status('Fail')).toBe('error');
  });

  it('finds sub-agents listed in the system message too', () => {
    const turn = decideTurn(req([{ role: 'system', content: '- Writer (id: w7): writes' }, user('/delegate writer: a poem')], [fn('newTask')]));
    expect(turn.toolCalls).toEqual([{ name: 'newTask', arguments: { subAgentId: 'w7', task: 'a poem' } }]);
  });

  it('names each unavailable sub-agent once', () => {
    const turn = decideTurn(req([user('/delegate A: 1\n/delegate B: 2\n/delegate A: 3')]));
    expect(turn.text).toBe('No sub-agent named **A** is available to this agent.\nNo sub-agent named **B** is available to this agent.');
  });

  it('quotes a long or empty message sensibly', () => {
    expect(decideTurn(req([user('')])).text).toContain('> (an empty message)');
    const long = decideTurn(req([user('word '.repeat(300))])).text;
    expect(long).toContain('…');
    expect(long.length).toBeLessThan(1200);
  });
});

describe('failure tokens', () => {
  it('mark the turn, except on /delegate lines', () => {
    expect(decideTurn(req([user('hi [demo:error]')])).failure).toBe('error');
    expect(decideTurn(req([user('hi [demo:drop]')])).failure).toBe('drop');
    expect(decideTurn(req([user('/delegate A: x [demo:drop]')], [fn('newTask')])).failure).toBeUndefined();
    expect(decideTurn(req([user('hi [demo:error]'), { role: 'assistant', content: 'x' }, user('fine')])).failure).toBeUndefined();
  });
});

describe('nested delegation', () => {
  it('a sub-agent offered newTask delegates its /delegate lines like a parent, names case-insensitive', () => {
    const turn = decideTurn(req([user('Split this up.\n/delegate RESEARCHER: otters\n/delegate General-Purpose: a haiku')], nestedTools));
    expect(turn).toEqual({
      rule: 'delegate',
      text: 'Delegating 2 tasks (RESEARCHER, General-Purpose).',
      toolCalls: [
        { name: 'newTask', arguments: { subAgentId: 'r1', task: 'otters' } },
        { name: 'newTask', arguments: { subAgentId: 'general-purpose', task: 'a haiku' } },
      ],
    });
  });

  it('a parent reaches the general-purpose sub-agent by name', () => {
    const turn = decideTurn(req([user('/delegate general-purpose: sum 2 and 3')], [fn('newTask', LISTING)]));
    expect(turn.toolCalls).toEqual([{ name: 'newTask', arguments: { subAgentId: 'general-purpose', task: 'sum 2 and 3' } }]);
  });

  it('then reports the results through taskResult, tolerating the new output fields', () => {
    const turn = decideTurn(
      req(
        [
          user('/delegate Researcher: a\n/delegate general-purpose: b'),
          calling(call('c1', 'newTask', { subAgentId: 'r1', task: 'a' }), call('c2', 'newTask', { subAgentId: 'general-purpose', task: 'b' })),
          output('c1', { result: 'Otters hold hands.', status: 'success', subChatId: 's1', outcome: 'success', usage: { totalTokens: 9 }, truncated: false }),
          output('c2', { result: 'Oops.', status: 'error' }),
        ],
        nestedTools,
      ),
    );
    expect(turn).toEqual({
      rule: 'report-results',
      text: '2 results are in; reporting back.',
      toolCalls: [
        {
          name: 'taskResult',
          arguments: {
            result: 'Here is what came back:\n\n- **Researcher** (success): Otters hold hands.\n- **general-purpose** (error): Oops.',
            status: 'success',
          },
        },
      ],
    });
  });

  it('quotes a newTask output by its outcome, the word the delegation block shows', () => {
    const turn = decideTurn(
      req([
        user('/delegate Researcher: a\n/delegate Writer: b'),
        calling(call('c1', 'newTask', { subAgentId: 'r1', task: 'a' }), call('c2', 'newTask', { subAgentId: 'w1', task: 'b' })),
        output('c1', { result: 'Cancelled by user', status: 'error', subChatId: 's1', outcome: 'cancelled' }),
        output('c2', { result: 'Partial: two facts', status: 'error', subChatId: 's2', outcome: 'budget_exhausted' }),
      ]),
    );
    expect(turn.text).toBe('Here is what came back:\n\n- **r1** (cancelled): Cancelled by user\n- **w1** (budget_exhausted): Partial: two facts');
  });

  it('reports status error only when every result failed', () => {
    const status = (outputs: unknown[]) =>
      decideTurn(
        req(
          [
            user('/delegate Researcher: a\n/delegate Researcher: b'),
            calling(...outputs.map((_, i) => call(`c${i}`, 'newTask', { subAgentId: 'r1', task: 'x' }))),
            ...outputs.map((o, i) => output(`c${i}`, o)),
          ],
          nestedTools,
        ),
      ).toolCalls[0]?.arguments.status;
    expect(status([{ result: 'no', status: 'error' }, { status: 'error' }])).toBe('error');
    expect(status([{ result: 'no', status: 'error' }, 'the sub-agent crashed'])).toBe('success');
  });

  it('a sub-agent never ends with plain text after any tool result, and delegates only once', () => {
    const back = decideTurn(req([user('look it up'), calling(call('c1', 'lookup', {})), output('c1', 'plain text')], [fn('taskResult')]));
    expect(back.toolCalls).toEqual([{ name: 'taskResult', arguments: { result: 'Here is what came back:\n\n- **lookup**: plain text', status: 'success' } }]);
    // Results of an earlier delegation are followed by a later step (a note here): it finishes instead of delegating again.
    const messages = [
      user('/delegate Researcher: a'),
      calling(call('c1', 'newTask', { subAgentId: 'r1', task: 'a' })),
      output('c1', { result: 'ok' }),
      ...notes(['n']),
    ];
    expect(decideTurn(req(messages, [...nestedTools, fn('note')])).rule).toBe('sub-agent');
  });
});

describe('[demo:work N]', () => {
  const tools = [fn('taskResult'), fn('note')];

  it('calls note once per step, counting the notes since the task, then finishes as usual', () => {
    const task = 'Study the habits of river otters in winter along the Thames and beyond it [demo:work 3]';
    const first = decideTurn(req([user(task)], tools));
    expect(first).toEqual({
      rule: 'note',
      text: 'Working on step 1 of 3.',
      toolCalls: [{ name: 'note', arguments: { text: 'Note 1 of 3: Study the habits of river otters in winter along the Thames and…' } }],
    });
    // Notes made before the task (an earlier turn of the conversation) do not count.
    const earlier = [user('old'), ...notes(['old note']), { role: 'assistant' as const, content: 'ok' }];
    const third = decideTurn(req([...earlier, user(task), ...notes(['a', 'b'])], tools));
    expect(third.toolCalls[0]).toEqual({ name: 'note', arguments: { text: expect.stringMatching(/^Note 3 of 3: Study/) } });
    const done = decideTurn(req([user(task), ...notes(['a', 'b', 'c'])], tools));
    expect(done.rule).toBe('sub-agent');
    expect(done.toolCalls[0]?.name).toBe('taskResult');
  });

  it('is ignored without a note tool, when N is 0, and in a parent', () => {
    expect(decideTurn(req([user('x [demo:work 2]')], [fn('taskResult')])).rule).toBe('sub-agent');
    expect(decideTurn(req([user('x [demo:work 0]')], tools)).rule).toBe('sub-agent');
    expect(decideTurn(req([user('x [demo:work 2]')], [fn('note')])).rule).toBe('reply');
  });

  it('caps N at 1000', () => {
    expect(decideTurn(req([user('x [demo:work 999999]')], tools)).toolCalls[0]?.arguments.text).toBe('Note 1 of 1000: x');
  });

  it('a sub-agent offered note without the marker does not call it', () => {
    const turn = decideTurn(req([user('Summarize the otter report')], tools));
    expect(turn.text).toBe('Working on it: Summarize the otter report.');
    expect(turn.toolCalls.map((c) => c.name)).toEqual(['taskResult']);
  });

  it('works first, then delegates', () => {
    const task = '[demo:work 1]\n/delegate Researcher: a';
    expect(decideTurn(req([user(task)], [...nestedTools, fn('note')])).rule).toBe('note');
    expect(decideTurn(req([user(task), ...notes(['a'])], [...nestedTools, fn('note')])).rule).toBe('delegate');
  });
});

describe('summary and partial-result requests', () => {
  const SUMMARISE = 'Summarise the conversation so that a sub-agent can pick it up.';

  it('summarises the user and assistant text when no tools are offered', () => {
    const turn = decideTurn(
      req([
        { role: 'system', content: SUMMARISE },
        user('Tell me\n\n about   otters.'),
        calling(call('c1', 'lookup', {})),
        output('c1', 'tool output is left out'),
        { role: 'assistant', content: 'They hold hands.' },
        user('word '.repeat(50)),
      ]),
    );
    expect(turn.rule).toBe('summary');
    expect(turn.text).toBe(`Summary of the conversation so far: Tell me about otters. They hold hands. ${'word '.repeat(33).trim()}…`);
    expect(decideTurn(req([{ role: 'system', content: SUMMARISE }, user('hi')], [fn('newTask')])).rule).toBe('reply');
  });

  it('reports the notes written so far, or that there are none', () => {
    const ask = user('Your budget ran out. Report your result so far.');
    expect(decideTurn(req([user('t [demo:work 9]'), ...notes(['Note 1 of 9: t', 'Note 2 of 9: t']), ask])).text).toBe(
      'Partial result: Note 1 of 9: t; Note 2 of 9: t',
    );
    expect(decideTurn(req([user('t'), ask])).text).toBe('Partial result: no notes were written');
    expect(decideTurn(req([user('t'), ask], [fn('taskResult')])).rule).toBe('sub-agent');
  });
});

describe('[demo:steer]: a sub-agent that waits for a person’s instruction', () => {
  const subTools = [fn('taskResult'), fn('note')];
  const task = user('Plan the trip [demo:steer]');

  it('waits with a paused note step while no instruction came', () => {
    const turn = decideTurn(req([task], subTools));
    expect(turn).toEqual({
      rule: 'await-steering',
      text: `Waiting for instructions (1 of ${STEER_WAIT_STEPS}).`,
      toolCalls: [{ name: 'note', arguments: { text: `Waiting for instructions (1 of ${STEER_WAIT_STEPS})` } }],
      pauseMs: STEER_PAUSE_MS,
    });
    const second = decideTurn(req([task, ...notes(['w1'])], subTools));
    expect(second.toolCalls[0]?.arguments).toEqual({ text: `Waiting for instructions (2 of ${STEER_WAIT_STEPS})` });
  });

  it('reports the latest instruction that arrived after the task', () => {
    const turn = decideTurn(req([task, ...notes(['w1']), user('Go to Lisbon'), ...notes(['w2']), user('Actually, Porto')], subTools));
    expect(turn.rule).toBe('steered');
    expect(turn.pauseMs).toBeUndefined();
    expect(turn.toolCalls).toEqual([
      {
        name: 'taskResult',
        arguments: { result: 'Done: Plan the trip\n\n- Latest instruction: Actually, Porto\n- Instructions received: 2', status: 'success' },
      },
    ]);
  });

  it('lists the files that came with the latest instruction, as a message’s files', () => {
    const steered: ChatMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'File brief.md:\nVisit the tile museum first, then the river.' },
        { type: 'text', text: 'Use the brief' },
      ] as ChatMessage['content'],
    };
    const turn = decideTurn(req([task, ...notes(['w1']), steered], subTools));
    expect(turn.text).toBe('Following your instruction: Use the brief.');
    expect(turn.toolCalls[0]?.arguments).toEqual({
      result: [
        'Done: Plan the trip',
        '',
        '- Latest instruction: Use the brief',
        '- Instructions received: 1',
        '',
        'I received 1 file:',
        '- brief.md: text, 44 bytes — "Visit the tile museum first, then the river."',
      ].join('\n'),
      status: 'success',
    });
    const filesOnly = decideTurn(req([task, { role: 'user', content: [steered.content![0]] as ChatMessage['content'] }], subTools));
    expect(filesOnly.toolCalls[0]?.arguments).toMatchObject({ result: expect.stringContaining('- Latest instruction: (files only)') });
  });

  it('gives up waiting after the limit and says no instruction came', () => {
    const waited = notes(Array.from({ length: STEER_WAIT_STEPS }, (_, i) => `w${i}`));
    const turn = decideTurn(req([task, ...waited], subTools));
    expect(turn.toolCalls[0]?.arguments).toEqual({ result: 'Done: Plan the trip\n\n- No instruction arrived while I waited.', status: 'success' });
  });

  it('leaves tasks without the marker to the other rules, and a marker on a /delegate line to the delegated task', () => {
    expect(decideTurn(req([user('Plan the trip')], subTools)).rule).toBe('sub-agent');
    const nested = decideTurn(req([user('/delegate Writer: wait [demo:steer]')], [...subTools, fn('newTask', '- Writer (id: w1): writes')]));
    expect(nested.toolCalls).toEqual([{ name: 'newTask', arguments: { subAgentId: 'w1', task: 'wait [demo:steer]' } }]);
  });
});

describe('/tool lines', () => {
  const facts = fn('lookup_fact');

  it('parse a name and a JSON object (none: {}), ignoring lines whose JSON is not an object', () => {
    expect(parseToolLines('hi\n /TOOL lookup_fact {"topic": "otters"} \n/tool add\n/tool bad [1]\n/tool bad {oops\n/delegate x: /tool add {}')).toEqual([
      { name: 'lookup_fact', arguments: { topic: 'otters' } },
      { name: 'add', arguments: {} },
    ]);
  });

  it('call the offered tool with the JSON, then quote its result', () => {
    const task = user('Please look this up\n/tool lookup_fact {"topic":"otters"}');
    expect(decideTurn(req([task], [facts]))).toEqual({
      rule: 'tool',
      text: 'Calling lookup_fact.',
      toolCalls: [{ name: 'lookup_fact', arguments: { topic: 'otters' } }],
    });
    const after = decideTurn(
      req([task, calling(call('c1', 'lookup_fact', { topic: 'otters' })), output('c1', 'Fact about otters: they hold hands.')], [facts]),
    );
    expect(after).toMatchObject({ rule: 'tool-results', toolCalls: [] });
    expect(after.text).toBe('Here is what came back:\n\n- **lookup_fact**: Fact about otters: they hold hands.');
  });

  it('call only offered tools, several in one response; none offered: say so', () => {
    const both = decideTurn(req([user('/tool lookup_fact {"topic":"a"}\n/tool add {"a":1,"b":2}\n/tool missing {}')], [facts, fn('add')]));
    expect(both.text).toBe('Calling 2 tools (lookup_fact, add).');
    expect(both.toolCalls.map((c) => c.name)).toEqual(['lookup_fact', 'add']);
    expect(decideTurn(req([user('/tool missing {}')], [facts]))).toEqual({
      rule: 'tool-unavailable',
      text: 'No tool named **missing** is available to this agent.',
      toolCalls: [],
    });
  });

  it('a sub-agent calls the tool first, then reports a result that includes the tool output', () => {
    const task = user('/tool lookup_fact {"topic":"otters"}');
    const tools = [fn('taskResult'), facts];
    expect(decideTurn(req([task], tools))).toMatchObject({ rule: 'tool', toolCalls: [{ name: 'lookup_fact', arguments: { topic: 'otters' } }] });
    const report = decideTurn(req([task, calling(call('c1', 'lookup_fact', { topic: 'otters' })), output('c1', 'Fact about otters: they hold hands.')], tools));
    expect(report.rule).toBe('report-results');
    expect(report.toolCalls).toEqual([
      { name: 'taskResult', arguments: { result: 'Here is what came back:\n\n- **lookup_fact**: Fact about otters: they hold hands.', status: 'success' } },
    ]);
    // Not offered the tool: the sub-agent finishes as usual.
    expect(decideTurn(req([task], [fn('taskResult')])).rule).toBe('sub-agent');
  });
});

describe('files in the last user message', () => {
  it('lists what it received (count, types, sizes, a text file’s first words) and quotes only what was written', () => {
    const png = Buffer.alloc(300, 1).toString('base64');
    const pdf = Buffer.from('%PDF-1.4 tiny').toString('base64');
    const message: ChatMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'What are these?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
        { type: 'file', file: { filename: 'paper.pdf', file_data: `data:application/pdf;base64,${pdf}` } },
        { type: 'text', text: 'File notes.md:\n# Otters\nOtters hold hands while they sleep, so they do not drift apart.' },
      ] as ChatMessage['content'],
    };
    const turn = decideTurn(req([message]));
    expect(turn.rule).toBe('reply');
    expect(turn.text).toContain('> What are these?');
    expect(turn.text).not.toContain('> File notes.md');
    expect(turn.text).toContain(
      [
        'I received 3 files:',
        '- image 1: image/png, 300 bytes',
        '- paper.pdf: application/pdf, 13 bytes',
        '- notes.md: text, 72 bytes — "# Otters Otters hold hands while they sleep, …"',
      ].join('\n'),
    );
  });

  it('tells a PDF given as its extracted text from a text file', () => {
    const message: ChatMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'Summarise' },
        { type: 'text', text: 'File report.pdf:\n[Text extracted from a PDF of 3 pages]\nQuarterly revenue grew by four percent in spring' },
      ] as ChatMessage['content'],
    };
    expect(decideTurn(req([message])).text).toContain(
      ['I received 1 file:', '- report.pdf: text of a PDF (3 pages), 48 bytes — "Quarterly revenue grew by four percent in spring"'].join('\n'),
    );
  });

  it('says nothing about files when there are none', () => {
    expect(decideTurn(req([user('hello')])).text).not.toContain('I received');
  });
});

describe('passing files on with /delegate', () => {
  const FILES = [
    'Files in this conversation:',
    '- old.csv (text/csv, file id: file_old)',
    '- report.pdf (application/pdf, file id: file_rep) [latest message]',
  ].join('\n');
  const newTask = fn('newTask', `${LISTING}\n${FILES}`);

  it('reads the file listing and the [files] token', () => {
    expect(parseFileListing(FILES)).toEqual([
      { name: 'old.csv', mediaType: 'text/csv', id: 'file_old', latest: false },
      { name: 'report.pdf', mediaType: 'application/pdf', id: 'file_rep', latest: true },
    ]);
    expect(parseDelegateLines('/delegate R: summarise it [files]\n/delegate R: [files: a, b] compare')).toEqual([
      { name: 'R', task: 'summarise it', files: 'latest' },
      { name: 'R', task: 'compare', files: ['a', 'b'] },
    ]);
  });

  it('passes the latest message’s files, or the ids written, as attachments', () => {
    const turn = decideTurn(
      req([user('/delegate Researcher: summarise the report [files]\n/delegate Researcher: check [files: file_old, made_up]')], [newTask]),
    );
    expect(turn.text).toBe('Delegating 2 tasks (Researcher), passing on 3 files.');
    expect(turn.toolCalls).toEqual([
      { name: 'newTask', arguments: { subAgentId: 'r1', task: 'summarise the report', attachments: ['file_rep'] } },
      { name: 'newTask', arguments: { subAgentId: 'r1', task: 'check', attachments: ['file_old', 'made_up'] } },
    ]);
    // Without files to pass, the call has no attachments.
    expect(decideTurn(req([user('/delegate Researcher: go [files]')], [fn('newTask', LISTING)])).toolCalls).toEqual([
      { name: 'newTask', arguments: { subAgentId: 'r1', task: 'go' } },
    ]);
  });

  it('a sub-agent given files reports what it received with its result, its task without them', () => {
    const pdf = Buffer.from('%PDF-1.4 tiny').toString('base64');
    const task: ChatMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'summarise the report' },
        { type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${pdf}` } },
        { type: 'text', text: 'File notes.md:\nThis would fail a sub-agent if it were its task.' },
      ] as ChatMessage['content'],
    };
    const turn = decideTurn(req([task], [fn('taskResult')]));
    expect(turn.text).toBe('Working on it: summarise the report.');
    const result = String(turn.toolCalls[0]!.arguments.result);
    expect(turn.toolCalls[0]!.arguments.status).toBe('success');
    expect(result).toMatch(/^Done: summarise the report\n/);
    expect(result).toContain(
      ['I received 2 files:', '- report.pdf: application/pdf, 13 bytes', '- notes.md: text, 48 bytes — "This would fail a sub-agent if it were …"'].join('\n'),
    );
  });
});
