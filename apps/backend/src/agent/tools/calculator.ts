import { all, create } from 'mathjs';
import { tool } from 'ai';
import { z } from 'zod';

// mathjs parses and evaluates expressions itself (no JS eval). Functions that could
// reach outside arithmetic are disabled, as the mathjs security guide recommends.
const math = create(all!);
const evaluate = math.evaluate.bind(math);
const disabled = () => {
  throw new Error('this function is disabled in the calculator');
};
math.import(
  { import: disabled, createUnit: disabled, evaluate: disabled, parse: disabled, simplify: disabled, derivative: disabled, resolve: disabled },
  { override: true },
);

export const calculatorTool = tool({
  description: 'Evaluates a math expression (arithmetic, powers, functions such as sqrt or sin, units like "5 cm to inch").',
  inputSchema: z.object({ expression: z.string().min(1).max(1_000).describe('The expression, e.g. "(12.5 * 4) / sqrt(16)"') }),
  execute: async ({ expression }) => {
    try {
      const value = evaluate(expression);
      return { expression, result: math.format(value, { precision: 14 }) };
    } catch (err) {
      return { expression, error: err instanceof Error ? err.message : String(err) };
    }
  },
});
