import { ConfigError, loadConfig } from './config.ts';
import { SAVE_TO_FOLDER } from './printing.ts';
import { startAgent } from './server.ts';

let config;
try {
  config = loadConfig();
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(1);
  }
  throw e;
}
const log = config.log === 'silent' ? () => {} : (line: string) => console.log(`${new Date().toISOString()} ${line}`);

try {
  const agent = await startAgent(config, log);
  log(`Allowed origins: ${config.origins === '*' ? '* (any site: only for trials)' : config.origins.join(', ')}`);
  log(`"${SAVE_TO_FOLDER}" writes into ${config.pdfDir}`);
  const stop = () => {
    log('Stopping');
    void agent.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (e) {
  console.error(`Print agent did not start: ${(e as Error).message}`);
  process.exit(1);
}
