import { readFile } from 'node:fs/promises';

/**
 * esbuild has no built-in handling of `new URL('…', import.meta.url)` (an open
 * request, evanw/esbuild#795). The usual answer is a plugin that turns each
 * literal relative URL into an import of the file through esbuild's `file`
 * loader, which copies it to the output and yields its output path.
 */
export const newUrlAssets = {
  name: 'new-url-import-meta-assets',
  setup(build) {
    build.onLoad({ filter: /\.m?js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const pattern = /new URL\(\s*(['"])(\.\.?\/[^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;
      if (!pattern.test(source)) return undefined;
      const imports = [];
      const contents = source.replace(pattern, (_, _quote, specifier) => {
        const name = `__newUrlAsset${imports.length}`;
        imports.push(`import ${name} from ${JSON.stringify(specifier)};`);
        return `new URL(${name}, import.meta.url)`;
      });
      return { contents: `${imports.join('\n')}\n${contents}`, loader: 'js' };
    });
  },
};
