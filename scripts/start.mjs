// `npm start`: builds the web app if its sources changed, then runs the server in this same process through tsx.
import { register } from 'tsx/esm/api';
import { ensureWebBuilt } from './ensure-web-built.mjs';

ensureWebBuilt();
register();
await import('../server/main.ts');
