// ESLint's own `stylish` report followed by the number of files linted, the
// count scripts/test.sh holds against the lint suite's floor.
import { ESLint } from 'eslint';

export default async function format(results, context) {
  const stylish = await new ESLint().loadFormatter('stylish');
  const report = await stylish.format(results, context);
  return `${report}${report ? '\n' : ''}eslint: ${results.length} files linted\n`;
}
