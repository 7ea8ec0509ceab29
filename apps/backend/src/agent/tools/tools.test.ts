import { describe, expect, it } from 'vitest';
import { calculatorTool } from './calculator';
import { currentTimeTool } from './current-time';

const opts = { toolCallId: 't', messages: [], context: {} } as never;

describe('calculator', () => {
  it('evaluates arithmetic, functions and units', async () => {
    expect(await calculatorTool.execute!({ expression: '(12.5 * 4) / sqrt(16)' }, opts)).toEqual({ expression: '(12.5 * 4) / sqrt(16)', result: '12.5' });
    expect(((await calculatorTool.execute!({ expression: '2 inch to cm' }, opts)) as { result: string }).result).toBe('5.08 cm');
  });

  it('reports errors as output and cannot reach outside arithmetic', async () => {
    for (const expression of ['1 +', 'import({}, {})', 'evaluate("1+1")', 'createUnit("foo")', 'parse("1")']) {
      const out = (await calculatorTool.execute!({ expression }, opts)) as { error?: string };
      expect(out.error, expression).toEqual(expect.any(String));
    }
  });
});

describe('currentTime', () => {
  it('returns UTC and a local time for a valid zone, an error for an unknown one', async () => {
    const out = (await currentTimeTool.execute!({ timeZone: 'Europe/Paris' }, opts)) as Record<string, string>;
    expect(Date.parse(out.utc!)).not.toBeNaN();
    expect(out.local).toMatch(/\d{4}/);
    const bad = (await currentTimeTool.execute!({ timeZone: 'Mars/Olympus' }, opts)) as Record<string, string>;
    expect(bad.error).toMatch(/unknown time zone/);
  });
});
