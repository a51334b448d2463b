// Serves build/site with Vite's preview server (the site's own config and CSP)
// on a loopback port the system picks, then prints the URL of the server as
// bound, so tests/browser/run.sh passes on the port that is actually listening
// rather than one found free earlier and bound again later.
import { fileURLToPath } from 'node:url';
import { preview } from 'vite';

const root = fileURLToPath(new URL('../../', import.meta.url));
const server = await preview({
  root,
  configFile: `${root}web/vite.config.js`,
  logLevel: 'warn',
  preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
});
const { address, port } = server.httpServer.address();
console.log(`http://${address}:${port}/`);
