// Vite config of the lesson site. Root is web/; the build goes to build/site/.
// The site imports the package by its public name, resolved to the package's
// own entry (package.json "exports" → js/sinpe.js), exactly as an app would.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

// Same policy as the <meta> tag in index.html. 'wasm-unsafe-eval' lets the
// page compile WebAssembly; it does not allow eval() or new Function().
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
].join('; ');

export default defineConfig({
  root: here('.'),
  base: './', // relative asset URLs: the build works from any folder of any static host
  publicDir: false,
  resolve: {
    // the package's two entries, as its package.json "exports" name them
    alias: [
      { find: /^sinpe\.wasm$/, replacement: here('../js/sinpe.js') },
      { find: /^sinpe\.wasm\/onnx$/, replacement: here('../js/onnx/index.js') },
    ],
  },
  build: {
    outDir: here('../build/site'),
    emptyOutDir: true,
    // Never inline fonts or wasm as data: URLs (font-src 'self' would block them).
    assetsInlineLimit: 0,
    target: 'es2022',
    chunkSizeWarningLimit: 1000,
  },
  server: { fs: { allow: [here('..')] } },
  preview: { headers: { 'Content-Security-Policy': contentSecurityPolicy } },
});
