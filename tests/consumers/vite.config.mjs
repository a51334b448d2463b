// Vite production build of app/ (plain object: this project has no vite of its own;
// the runner uses the repository's vite binary).
export default {
  root: 'app',
  logLevel: 'warn',
  build: { outDir: '../app-dist', emptyOutDir: true },
  worker: { format: 'es' },
};
